package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import org.junit.jupiter.api.Test;

import static io.spinlab.sim.memory.AccessKind.READ;
import static io.spinlab.sim.memory.AccessKind.READ_MODIFY_WRITE;
import static io.spinlab.sim.memory.AccessKind.VOLATILE_WRITE;
import static io.spinlab.sim.memory.AccessKind.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exact costs of the handover rule on the Skylake preset (a 20 ns transfer): the cores that held a
 * line before another core's request keep what they held until the request reaches them, half-way
 * through its transfer (10 ns after it). Requests queue: one made while the line is busy with another
 * core's access waits until that access ends and reaches that core half a transfer later, so each
 * holder in turn keeps the line for a while after its own access. Processors 0, 2, 4 and 6 are on
 * cores 0–3.
 */
class LineHandoverTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");

    private final MemoryModel model = new MemoryModel(SKYLAKE);
    private final long hit = model.hitPicos();
    private final long transfer = model.transferPicos();
    private final long atomic = model.atomicPicos();
    private final Object object = new Object();

    @Test
    void shouldLetTheOwnerCompleteLocalOperationsWhileARemoteReadIsInFlight() {
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        assertThat(model.access(2, object, 12, READ, 1_000_000)).isEqualTo(transfer);

        // Until the read reaches it (1,010,000 ps) the owner still has the line.
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 1_002_000)).isEqualTo(atomic);
        assertThat(model.access(0, object, 12, WRITE, 1_006_000)).isEqualTo(hit);
        assertThat(model.access(0, object, 12, READ, 1_009_999)).isEqualTo(hit);
        // From then on the line is shared: the old owner must invalidate the reader's copy (an upgrade).
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 1_010_000))
                .isEqualTo(MachineProfile.nanosToPicos(SKYLAKE.invalidationNs()) + atomic);
        assertThat(model.metrics().transfers()).isEqualTo(3);
    }

    @Test
    void shouldLetSharersReadButNotWriteWhileAnotherCoreTakesOwnership() {
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, READ, 1_000_000);
        assertThat(model.access(4, object, 12, VOLATILE_WRITE, 2_000_000)).isEqualTo(transfer + atomic);

        // The sharers keep their copies until the invalidation reaches them at 2,010,000 ps ...
        assertThat(model.access(0, object, 12, READ, 2_005_000)).isEqualTo(hit);
        assertThat(model.access(2, object, 12, READ, 2_009_999)).isEqualTo(hit);
        // ... then a read waits at the line's home for the writer's atomic to end (2,020,000 ps plus
        // the atomic), and crosses to the writer and back: a whole transfer.
        assertThat(model.access(0, object, 12, READ, 2_010_000)).isEqualTo(transfer + atomic - 10_000 + transfer);
    }

    @Test
    void shouldBufferASharersStoreWhileAnotherCoreTakesOwnership() {
        model.access(0, object, 12, READ, 0);
        model.access(2, object, 12, READ, 1_000_000);
        model.access(4, object, 12, VOLATILE_WRITE, 2_000_000);

        // A copy is not ownership: a store goes into the store buffer (a hit for the processor)
        // and completes after the writer's atomic and a transfer.
        assertThat(model.access(2, object, 12, WRITE, 2_005_000)).isEqualTo(hit);
        assertThat(model.storesDoneAt(2)).isEqualTo(2_000_000 + transfer + atomic + transfer + hit);
    }

    @Test
    void shouldMissAsBeforeWhenTheCoreDidNotHoldTheLine() {
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        model.access(2, object, 12, READ, 1_000_000);

        assertThat(model.access(4, object, 12, READ, 1_005_000)).isEqualTo(transfer);
        assertThat(model.access(6, object, 12, READ_MODIFY_WRITE, 1_005_000)).isEqualTo(transfer + atomic);
    }

    @Test
    void shouldKeepEachHolderWhatItHeldUntilTheRequestThatTakesItArrives() {
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        model.access(2, object, 12, READ, 1_000_000);
        // A second request before the first reaches the owner takes the line for core 3 ...
        assertThat(model.access(6, object, 12, READ_MODIFY_WRITE, 1_005_000)).isEqualTo(transfer + atomic);

        // ... the old owner owns the line until the first request (a read) reaches it at 1,010,000 ps,
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 1_009_000)).isEqualTo(atomic);
        // then holds a shared copy, as the read left it, until the second reaches it at 1,015,000 ps:
        // it may read it, but a write waits for core 3's atomic (until 1,025,000 ps plus the atomic)
        // and then a transfer.
        assertThat(model.access(0, object, 12, READ, 1_010_000)).isEqualTo(hit);
        assertThat(model.access(0, object, 12, READ, 1_014_999)).isEqualTo(hit);
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 1_015_000))
                .isEqualTo(transfer + atomic - 10_000 + transfer + atomic);
    }

    @Test
    void shouldLetEachQueuedRequesterKeepTheLineForHalfATransferAfterItsAccess() {
        // Core 0 takes the line from memory; core 1's atomic, made meanwhile, waits until core 0's
        // ends (at transfer + atomic), then its request reaches core 0 half a transfer later.
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 0)).isEqualTo(transfer + atomic);
        assertThat(model.access(2, object, 12, READ_MODIFY_WRITE, 1_000))
                .isEqualTo(transfer + atomic - 1_000 + transfer + atomic);
        long coreZeroDone = transfer + atomic;
        long coreOneDone = 2 * (transfer + atomic);

        // So core 0 goes on locally after its own atomic, until core 1's request arrives ...
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, coreZeroDone)).isEqualTo(atomic);
        assertThat(model.access(0, object, 12, READ, coreZeroDone + transfer / 2 - 1)).isEqualTo(hit);
        // ... and its next atomic queues behind core 1's: it reaches core 1 half a transfer after
        // core 1's atomic, which keeps the line until then.
        long at = coreZeroDone + transfer / 2;
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, at))
                .isEqualTo(coreOneDone - at + transfer + atomic);
        assertThat(model.access(2, object, 12, READ_MODIFY_WRITE, coreOneDone)).isEqualTo(atomic);
        assertThat(model.access(2, object, 12, READ_MODIFY_WRITE, coreOneDone + transfer / 2 - 1)).isEqualTo(atomic);
        assertThat(model.metrics().transfers()).isEqualTo(3);
    }

    @Test
    void shouldGiveNoWindowWhenTheLineWasCachedNowhere() {
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 0)).isEqualTo(transfer + atomic);

        assertThat(model.access(2, object, 12, READ_MODIFY_WRITE, 1_000)).isEqualTo(transfer + atomic - 1_000
                + transfer + atomic);
    }
}
