package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.CountedLoop;
import io.spinlab.sim.workload.LateRival;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A memory access happens when its thread reaches it: after the instructions before it, not at
 * the instant the thread last stopped. An owner that runs a 90 µs loop between two accesses to
 * its line finds the line gone if another core took it during the loop, and pays one transfer.
 */
class AccessAtItsOwnTimeTest {

    /** 1 GHz and one cycle per bytecode: exactly 1 ns per instruction; a processor for each thread. */
    private static final MachineProfile ONE_NS = MachineProfile.builder("one-ns-per-bytecode")
            .physicalCores(4).logicalProcessors(4).frequencyGhz(1.0).cyclesPerBytecode(1.0).build();
    private static final int ITERATIONS = 10_000;

    private static long ownerNanos(boolean rival) {
        return WorkloadRunner.simulate(LateRival.class, List.of(ITERATIONS, rival ? 1 : 0), Tuning.current(),
                Simulation.builder(ONE_NS).seed(1).memoryModel(true)).result().elapsedNanos();
    }

    @Test
    void shouldChargeTheOwnerOneTransferWhenARivalTookTheLineDuringItsLoop() {
        MemoryModel model = new MemoryModel(ONE_NS);
        long alone = ownerNanos(false);
        long withRival = ownerNanos(true);

        // Alone: the loop, then a hit on its own line (and the two clock reads' share).
        assertThat(alone).isGreaterThan((long) ITERATIONS * CountedLoop.BYTECODES_PER_ITERATION);
        // The rival's access came during the loop: the owner's second access is a transfer.
        assertThat((withRival - alone) * 1_000).isEqualTo(model.transferPicos());
    }
}
