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
 * through its transfer (10 ns after it). A read that reaches a core whose access on the line is still
 * going on waits there for it and gets the data in the second half of its transfer. Processors 0,
 * 2, 4 and 6 are on cores 0–3.
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
        // From then on the line is shared: the old owner must take it back from the reader.
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 1_010_000)).isEqualTo(transfer + atomic);
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
        assertThat(model.access(0, object, 12, READ, 2_010_000)).isEqualTo(transfer + atomic - 10_000 + transfer / 2);
        // ... but a copy is not ownership: a store goes into the store buffer (a hit for the
        // processor) and completes after the writer's atomic and a transfer.
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
    void shouldEndTheWindowAtTheFirstRequestWhenASecondArrivesDuringIt() {
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        model.access(2, object, 12, READ, 1_000_000);
        // A second request before the first reaches the owner takes the line for core 3 ...
        assertThat(model.access(6, object, 12, READ_MODIFY_WRITE, 1_005_000)).isEqualTo(transfer + atomic);

        // ... and leaves the old owner its window up to the first request's arrival, not the second's.
        assertThat(model.access(0, object, 12, READ, 1_009_000)).isEqualTo(hit);
        assertThat(model.access(0, object, 12, READ, 1_010_000)).isEqualTo(transfer + atomic - 5_000 + transfer / 2);
    }

    @Test
    void shouldGiveNoWindowWhenTheLineWasCachedNowhere() {
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 0)).isEqualTo(transfer + atomic);

        assertThat(model.access(2, object, 12, READ_MODIFY_WRITE, 1_000)).isEqualTo(transfer + atomic - 1_000
                + transfer + atomic);
    }
}
