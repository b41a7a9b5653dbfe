package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import org.junit.jupiter.api.Test;

import static io.spinlab.sim.memory.AccessKind.READ;
import static io.spinlab.sim.memory.AccessKind.READ_MODIFY_WRITE;
import static io.spinlab.sim.memory.AccessKind.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exact line-transfer costs by topology on the 2-socket preset: 16 cores, 2 threads each,
 * cores 0–7 (logical processors 0–15) on socket 0 and cores 8–15 (16–31) on socket 1; 44 ns
 * within a socket, 118 ns between the two.
 */
class MemoryTopologyTest {

    private static final MachineProfile TWO_SOCKETS = MachinePresets.byName("xeon-2s-32t");
    /** Logical processors on cores 0 and 1 of socket 0, and on core 8, the first of socket 1. */
    private static final int SOCKET0_A = 0;
    private static final int SOCKET0_B = 2;
    private static final int SOCKET1 = 16;

    private final MemoryModel model = new MemoryModel(TWO_SOCKETS);
    private final long hit = model.hitPicos();
    private final long atomic = model.atomicPicos();
    private final Object object = new Object();

    @Test
    void shouldTakeBothTransferCostsFromThePresetWhenBuilt() {
        assertThat(TWO_SOCKETS.sockets()).isEqualTo(2);
        assertThat(model.transferPicos()).isEqualTo(44_000);
        assertThat(model.crossSocketPicos()).isEqualTo(118_000);
        assertThat(model.coreOf(SOCKET1)).isEqualTo(8);
        assertThat(TWO_SOCKETS.socketOfCore(7)).isZero();
        assertThat(TWO_SOCKETS.socketOfCore(8)).isEqualTo(1);
    }

    @Test
    void shouldChargeTheWithinSocketCostWhenTheOwnerIsOnTheReadersSocket() {
        model.access(SOCKET0_A, object, 12, WRITE, 0);

        assertThat(model.access(SOCKET0_B, object, 12, READ, 1_000_000)).isEqualTo(44_000);
    }

    @Test
    void shouldChargeTheCrossSocketCostWhenTheOwnerIsOnTheOtherSocket() {
        model.access(SOCKET0_A, object, 12, WRITE, 0);

        assertThat(model.access(SOCKET1, object, 12, READ, 1_000_000)).isEqualTo(118_000);
        assertThat(model.access(SOCKET1, object, 12, READ, 2_000_000)).isEqualTo(hit);
    }

    @Test
    void shouldScaleAnUpgradeAsATransferWhenACopyIsOnTheOtherSocket() {
        assertThat(TWO_SOCKETS.invalidationNs()).isEqualTo(26);
        model.access(SOCKET0_A, object, 12, READ, 0);
        model.access(SOCKET0_B, object, 12, READ, 1_000_000);
        // both copies on socket 0: the within-socket invalidation
        assertThat(model.access(SOCKET0_A, object, 12, READ_MODIFY_WRITE, 2_000_000)).isEqualTo(26_000 + atomic);

        Object other = new Object();
        model.access(SOCKET0_A, other, 12, READ, 3_000_000);
        model.access(SOCKET1, other, 12, READ, 4_000_000);
        // a copy on socket 1: 26 ns × 118 / 44
        assertThat(model.access(SOCKET0_A, other, 12, READ_MODIFY_WRITE, 5_000_000)).isEqualTo(69_727 + atomic);
    }

    @Test
    void shouldServeAReadFromASharerOnTheReadersSocketWhenThereIsOne() {
        model.access(SOCKET0_A, object, 12, READ, 0);
        model.access(SOCKET1, object, 12, READ, 1_000_000);

        // Shared by a core of each socket: the reader on socket 0 takes the copy next door.
        assertThat(model.access(SOCKET0_B, object, 12, READ, 2_000_000)).isEqualTo(44_000);
    }

    @Test
    void shouldWaitForTheFarthestCopyWhenTakingOwnership() {
        model.access(SOCKET0_A, object, 12, READ, 0);
        model.access(SOCKET1, object, 12, READ, 1_000_000);

        // The socket-0 copy is local, but the one on socket 1 must be invalidated too.
        assertThat(model.access(SOCKET0_B, object, 12, READ_MODIFY_WRITE, 2_000_000)).isEqualTo(118_000 + atomic);
        // Now owned on socket 0: another socket-0 core takes it at the local cost.
        assertThat(model.access(SOCKET0_A, object, 12, READ_MODIFY_WRITE, 3_000_000)).isEqualTo(44_000 + atomic);
    }

    @Test
    void shouldChargeTheLocalCostWhenTakingOwnershipFromSharersOnOneSocket() {
        model.access(SOCKET1, object, 12, READ, 0);
        model.access(SOCKET1 + 2, object, 12, READ, 1_000_000);

        assertThat(model.access(SOCKET1 + 4, object, 12, READ_MODIFY_WRITE, 2_000_000)).isEqualTo(44_000 + atomic);
    }

    @Test
    void shouldSerializeCasesAcrossSocketsAtTheCrossSocketCost() {
        long first = model.access(SOCKET0_A, object, 12, READ_MODIFY_WRITE, 0);
        long second = model.access(SOCKET1, object, 12, READ_MODIFY_WRITE, 0);

        assertThat(first).isEqualTo(44_000 + atomic); // an uncached line comes at the within-socket cost
        assertThat(second).isEqualTo(first + 118_000 + atomic);
    }

    @Test
    void shouldChargeOneCostEverywhereWhenThePartHasOneSocket() {
        MemoryModel oneSocket = new MemoryModel(TWO_SOCKETS.toBuilder().sockets(1).build());
        oneSocket.access(SOCKET0_A, object, 12, WRITE, 0);

        assertThat(oneSocket.crossSocketPicos()).isEqualTo(44_000);
        assertThat(oneSocket.access(SOCKET1, object, 12, READ, 1_000_000)).isEqualTo(44_000);
    }
}
