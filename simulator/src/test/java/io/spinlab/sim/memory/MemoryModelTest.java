package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import org.junit.jupiter.api.Test;

import static io.spinlab.sim.memory.AccessKind.READ;
import static io.spinlab.sim.memory.AccessKind.READ_MODIFY_WRITE;
import static io.spinlab.sim.memory.AccessKind.VOLATILE_WRITE;
import static io.spinlab.sim.memory.AccessKind.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Exact costs of the cache model on the Skylake preset (4 cores, 8 logical processors, 64-byte lines). */
class MemoryModelTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");

    private final MemoryModel model = new MemoryModel(SKYLAKE);
    private final long hit = model.hitPicos();
    private final long transfer = model.transferPicos();
    private final long atomic = model.atomicPicos();
    private final Object object = new Object();

    @Test
    void shouldTakeCostsFromTheProfileWhenBuilt() {
        assertThat(hit).isEqualTo(MemoryModel.HIT_PICOS);
        assertThat(transfer).isEqualTo(20_000); // skylake-i7-6700: 20 ns, the i7-6700K's measured core-to-core latency
        assertThat(atomic).isEqualTo(MachineProfile.nanosToPicos(SKYLAKE.atomicOpNs()));
    }

    @Test
    void shouldHitAfterTheFirstReadWhenNoOtherCoreWrites() {
        assertThat(model.access(0, object, 12, READ, 0)).isEqualTo(transfer);
        assertThat(model.access(0, object, 16, READ, 100_000)).isEqualTo(hit);
        assertThat(model.access(0, object, 12, WRITE, 200_000)).isEqualTo(hit);
    }

    /**
     * A volatile load that hits is the same x86 load as a plain field's, whose time the instruction
     * clock already charges with its bytecode, and so is a release store's: the model adds nothing to
     * either (it added an L1 latency, 4 cycles, until 2026-12-07). A locked instruction still costs
     * the atomic.
     */
    @Test
    void shouldAddNothingToTheInstructionClockForAHit() {
        model.access(0, object, 12, READ, 0);

        assertThat(model.access(0, object, 12, READ, 100_000)).isZero();
        assertThat(model.access(0, object, 12, WRITE, 200_000)).isZero();
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 300_000)).isEqualTo(atomic);
        assertThat(model.access(0, object, 12, VOLATILE_WRITE, 400_000)).isEqualTo(atomic);
    }

    @Test
    void shouldShareALineWhenTwoCoresRead() {
        model.access(0, object, 12, READ, 0);

        assertThat(model.access(2, object, 12, READ, 100_000)).isEqualTo(transfer);
        assertThat(model.access(0, object, 12, READ, 200_000)).isEqualTo(hit);
        assertThat(model.access(2, object, 12, READ, 200_000)).isEqualTo(hit);
    }

    @Test
    void shouldChargeAnUpgradeTheInvalidationWhenTheWriterSharesTheLine() {
        long invalidation = MachineProfile.nanosToPicos(SKYLAKE.invalidationNs());
        assertThat(invalidation).isEqualTo(12_000); // 0.59 of the 20 ns transfer
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, READ, 100_000);

        // core 0 has the data: only core 1's copy is invalidated
        assertThat(model.access(0, object, 12, VOLATILE_WRITE, 200_000)).isEqualTo(invalidation + atomic);
        assertThat(model.access(2, object, 12, READ, 300_000)).isEqualTo(transfer);
    }

    @Test
    void shouldChargeAWholeTransferWhenTheWriterHasNoCopyOfASharedLine() {
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, READ, 100_000);

        assertThat(model.access(4, object, 12, VOLATILE_WRITE, 200_000)).isEqualTo(transfer + atomic);
    }

    @Test
    void shouldMakeAReadersHandoverAnUpgradeAndOneTransferWhenTheReaderSpins() {
        long invalidation = MachineProfile.nanosToPicos(SKYLAKE.invalidationNs());
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, READ, 100_000);
        model.access(0, object, 12, VOLATILE_WRITE, 200_000);

        // the reader hits until the invalidation reaches it half-way, then its miss waits for the upgrade
        assertThat(model.access(2, object, 12, READ, 200_000 + invalidation / 2 - 1)).isEqualTo(hit);
        long at = 200_000 + invalidation / 2;
        long seen = at + model.access(2, object, 12, READ, at);
        assertThat(seen - 200_000).isEqualTo(invalidation + atomic + transfer);
    }

    @Test
    void shouldSerializeReadModifyWritesWhenCoresHitOneLineAtOnce() {
        long first = model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        long second = model.access(2, object, 12, READ_MODIFY_WRITE, 0);
        long third = model.access(4, object, 12, READ_MODIFY_WRITE, 0);

        assertThat(first).isEqualTo(transfer + atomic);
        assertThat(second).isEqualTo(2 * (transfer + atomic));
        assertThat(third).isEqualTo(3 * (transfer + atomic));
        assertThat(model.metrics().stallPicos()).isEqualTo(3 * (transfer + atomic));
    }

    @Test
    void shouldMakeAReaderWaitWhenAnotherCoreHoldsTheLineForAnAtomic() {
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);

        // the read's request waits at the line's home until the atomic ends, then crosses to the
        // holder and back: a whole transfer; the holder keeps the line until the request reaches it
        assertThat(model.access(2, object, 12, READ, 1_000)).isEqualTo(transfer + atomic - 1_000 + transfer);
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, transfer + atomic)).isEqualTo(atomic);
    }

    @Test
    void shouldNotInterfereWhenFieldsLieOnDifferentLines() {
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 140, READ_MODIFY_WRITE, 100_000);

        assertThat(model.access(0, object, 12, READ, 200_000)).isEqualTo(hit);
        assertThat(model.metrics().lines()).isEqualTo(2);
    }

    @Test
    void shouldShareOneCacheWhenProcessorsAreSmtSiblings() {
        assertThat(model.coreOf(1)).isEqualTo(model.coreOf(0));
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);

        assertThat(model.access(1, object, 12, READ_MODIFY_WRITE, 100_000)).isEqualTo(atomic);
    }

    @Test
    void shouldNumberSiblingsNextToEachOtherWhenMappingProcessorsToCores() {
        // the scheduler's numbering (Scheduler.firstOfCore): processors 2c and 2c + 1 share core c
        assertThat(java.util.stream.IntStream.range(0, 8).map(model::coreOf).toArray())
                .containsExactly(0, 0, 1, 1, 2, 2, 3, 3);
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);

        assertThat(model.access(4, object, 12, READ_MODIFY_WRITE, 100_000)).isEqualTo(transfer + atomic);
    }

    @Test
    void shouldShareACacheExactlyWhereTheSchedulerSeesOneCoreOnEveryPreset() {
        for (MachineProfile machine : MachinePresets.all()) {
            MemoryModel memory = new MemoryModel(machine);
            io.spinlab.sim.os.Scheduler scheduler = new io.spinlab.sim.os.Scheduler(machine.logicalProcessors(),
                    machine.smtThreadsPerCore(), 1);
            for (int p = 0; p < machine.logicalProcessors(); p++) {
                for (int q = 0; q < machine.logicalProcessors(); q++) {
                    assertThat(memory.coreOf(p) == memory.coreOf(q))
                            .as("%s: processors %d and %d", machine.name(), p, q)
                            .isEqualTo(scheduler.firstOfCore(p) == scheduler.firstOfCore(q));
                }
            }
        }
    }

    @Test
    void shouldGoOnAfterAHitWhenAStoreWithoutAFenceMissesAndShowItToOthersWhenItCompletes() {
        model.access(0, object, 12, READ, 0);

        assertThat(model.access(2, object, 12, WRITE, 100_000)).isEqualTo(hit);
        assertThat(model.storesDoneAt(2)).isEqualTo(100_000 + transfer + hit);
        // the reader keeps its copy until the store's request reaches it, half-way through the
        // transfer (the handover); from then on its load's request waits at the line's home until
        // the store completes, then crosses to the writer's core and back: a whole transfer
        assertThat(model.access(0, object, 12, READ, 100_000 + hit)).isEqualTo(hit);
        assertThat(model.access(0, object, 12, READ, 100_000 + transfer / 2))
                .isEqualTo(transfer / 2 + hit + transfer);
        // the buffered store's wait is not a stall of its processor; the load's wait for the
        // store to complete is
        assertThat(model.metrics().stallPicos()).isEqualTo(transfer / 2 + hit);
    }

    @Test
    void shouldForwardABufferedStoreWhenItsOwnProcessorLoadsTheLine() {
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, WRITE, 100_000);

        assertThat(model.access(2, object, 16, READ, 100_000 + hit)).isEqualTo(hit);
        assertThat(model.metrics().stallPicos()).isZero();
    }

    @Test
    void shouldDrainTheStoreBufferWhenALockedInstructionFollowsAStore() {
        Object other = new Object();
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, WRITE, 100_000);

        // the CAS on an uncached line first waits for the buffered store (transfer + hit from 100 ns)
        assertThat(model.access(2, other, 12, READ_MODIFY_WRITE, 100_000 + hit))
                .isEqualTo(transfer + transfer + atomic);
    }

    @Test
    void shouldDrainTheStoreBufferWhenAVolatileStoreOrAFullFenceFollows() {
        Object other = new Object();
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, WRITE, 100_000);

        assertThat(model.fence(2, 100_000 + hit)).isEqualTo(transfer + atomic);
        assertThat(model.access(2, other, 12, VOLATILE_WRITE, 100_000 + transfer + hit))
                .isEqualTo(transfer + atomic);
        assertThat(model.fence(4, 0)).isEqualTo(atomic);
    }

    @Test
    void shouldCommitStoresInOrderWhenAnEarlierStoreStillMisses() {
        Object own = new Object();
        model.access(2, own, 12, READ_MODIFY_WRITE, 0);
        model.access(0, object, 12, READ, 0);

        model.access(2, object, 12, WRITE, 100_000);
        assertThat(model.access(2, own, 12, WRITE, 100_000 + hit)).isEqualTo(hit);

        // the second store hits its line but completes only after the first
        assertThat(model.storesDoneAt(2)).isEqualTo(100_000 + transfer + hit);
        assertThat(model.access(0, own, 12, READ, 100_000 + 2 * hit))
                .isEqualTo(transfer + hit - 2 * hit + transfer);
    }

    @Test
    void shouldNumberObjectsByFirstTouchWhenTheyAreAccessed() {
        Object other = new Object();
        model.access(0, other, 200, READ, 0);
        assertThat(model.lastObjectId()).isZero();
        assertThat(model.lastLineIndex()).isEqualTo(3);

        model.access(0, object, 12, READ, 0);
        assertThat(model.lastObjectId()).isEqualTo(1);
        model.access(0, other, 12, READ, 0);
        assertThat(model.lastObjectId()).isZero();
        assertThat(model.metrics().objects()).isEqualTo(2);
    }

    @Test
    void shouldCountAccessesByKindWhenAsked() {
        model.access(0, object, 12, READ, 0);
        model.access(0, object, 12, WRITE, 0);
        model.access(0, object, 12, VOLATILE_WRITE, 0);
        model.access(2, object, 12, READ_MODIFY_WRITE, 0);

        MemoryMetrics metrics = model.metrics();
        assertThat(metrics.reads()).isEqualTo(1);
        assertThat(metrics.writes()).isEqualTo(1);
        assertThat(metrics.volatileWrites()).isEqualTo(1);
        assertThat(metrics.readModifyWrites()).isEqualTo(1);
        assertThat(metrics.accesses()).isEqualTo(4);
        assertThat(metrics.hits()).isEqualTo(2);
        assertThat(metrics.transfers()).isEqualTo(2);
    }

    @Test
    void shouldTrackManyCoresWhenMachineHasMoreThanSixtyFour() {
        MemoryModel big = new MemoryModel(MachinePresets.byName("manycore-256"));
        long transfer = big.transferPicos();
        long hit = big.hitPicos();
        assertThat(big.coreOf(200)).isEqualTo(100);
        big.access(200, object, 12, READ, 0);
        big.access(3, object, 12, READ, transfer);

        assertThat(big.access(200, object, 12, READ, 2 * transfer)).isEqualTo(hit);
        long invalidation = MachineProfile.nanosToPicos(big.machine().invalidationNs());
        assertThat(big.access(3, object, 12, WRITE, 2 * transfer)).isEqualTo(hit);
        assertThat(big.storesDoneAt(3)).isEqualTo(2 * transfer + invalidation + hit);
        // core 100 (the second word of the sharer sets) keeps its copy until the invalidation arrives
        assertThat(big.access(200, object, 12, READ, 2 * transfer + invalidation / 2 - 1)).isEqualTo(hit);
        assertThat(big.access(200, object, 12, READ, 2 * transfer + invalidation / 2))
                .isEqualTo(invalidation / 2 + hit + transfer);
    }

    @Test
    void shouldRejectANegativeOffsetWhenAsked() {
        assertThatThrownBy(() -> model.access(0, object, -1, READ, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
