package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.CountedLoop;
import io.spinlab.sim.workload.SiblingLoad;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * SMT: instructions on a logical processor take {@code smtSlowdown} times as long while its
 * sibling issues instructions too, and less the more of its time the sibling spends in PAUSE.
 * One core with two logical processors at 1 GHz and one cycle per bytecode, so 1,000 extra
 * iterations of the measured loop are 9,000 ns alone.
 */
class SmtSiblingTest {

    private static final int EXTRA = 1_000;
    private static final double ALONE_NS = (double) EXTRA * CountedLoop.BYTECODES_PER_ITERATION;

    private static MachineProfile core(int pauseCycles, double slowdown) {
        return MachineProfile.builder("one-core-two-threads").frequencyGhz(1.0).cyclesPerBytecode(1.0)
                .physicalCores(1).logicalProcessors(2).pauseCycles(pauseCycles).smtSlowdown(slowdown).build();
    }

    /** The measured loop's extra time for EXTRA more iterations, ns. */
    private static long extraNanos(MachineProfile machine, int neighbour) {
        return elapsed(machine, 2_000, neighbour) - elapsed(machine, 1_000, neighbour);
    }

    private static long elapsed(MachineProfile machine, int iterations, int neighbour) {
        return WorkloadRunner.simulate(SiblingLoad.class, List.of(iterations, neighbour), Tuning.current(),
                Simulation.builder(machine).seed(1).memoryModel(true)).result().elapsedNanos();
    }

    @Test
    void shouldRunAtFullSpeedWhenTheSiblingIsIdle() {
        assertThat(extraNanos(core(140, 1.5), 0)).isEqualTo((long) ALONE_NS);
    }

    @Test
    void shouldStretchInstructionsBySmtSlowdownWhenTheSiblingRunsInstructions() {
        assertThat(extraNanos(core(140, 1.5), 2)).isEqualTo((long) (ALONE_NS * 1.5));
        assertThat(extraNanos(core(140, 1.0), 2)).as("smtSlowdown 1: siblings independent").isEqualTo((long) ALONE_NS);
    }

    @Test
    void shouldStretchInstructionsByTheShareOfAPauseLoopSpentIssuingWhenTheSiblingSpins() {
        // A PAUSE loop issues 2 cycles per PAUSE: busy 2 / (2 + 14) with a 14-cycle PAUSE, 2 / (2 + 126)
        // with a 126-cycle one; the slowdown's excess 0.5 scales by that.
        assertThat((double) extraNanos(core(14, 1.5), 1)).isCloseTo(ALONE_NS * (1 + 0.5 * 2 / 16), within(1.0));
        assertThat((double) extraNanos(core(126, 1.5), 1)).isCloseTo(ALONE_NS * (1 + 0.5 * 2 / 128), within(1.0));
    }

    @Test
    void shouldIgnoreTheSlowdownWhenCoresHaveOneThreadEach() {
        MachineProfile noSmt = core(140, 1.5).toBuilder().physicalCores(2).logicalProcessors(2).build();
        assertThat(extraNanos(noSmt, 2)).isEqualTo((long) ALONE_NS);
    }
}
