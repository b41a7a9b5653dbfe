package io.spinlab.sim.experiment;

import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.trace.MeasuredWindow;
import io.spinlab.sim.trace.RunMetrics;
import io.spinlab.sim.workload.SimulatedRun;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A row's CPU metrics come from the processor time inside its measured window, not from the whole
 * run: under CoreRT's 2019 normalization the Haswell drain-rate row of {@code normalized-spin}
 * (seed 1, without noise) begins with some 10 ms in which only the main thread runs, measuring the
 * PAUSE for the normalization, before the workload's threads start. Averaged over the whole run the
 * row kept 2.1 processors busy; inside its window all four are (the row used to report the former,
 * and a CPU time per operation below the older side's instead of above it).
 */
class ExperimentCpuMetricsTest {

    private static Experiment haswellDrain() {
        return Experiments.byName("normalized-spin").select(r -> r.machine().name().equals("haswell-i5-4670k")
                && r.workload().name().equals("mres-wait-drain-rate") && r.workload().parameters().startsWith("threads=1pc"));
    }

    @Test
    void shouldTakeBusyProcessorsAndCpuPerOperationFromTheMeasuredWindow() {
        Experiment experiment = haswellDrain();
        PlannedRow planned = experiment.rows().getFirst();
        SimulatedRun run = planned.source().simulate(planned.workload().parameters(), experiment.right(),
                Simulation.builder(planned.machine()).seed(planned.seed()).memoryModel(true));
        RunMetrics facts = run.simulation().metrics();
        MeasuredWindow window = facts.window().orElseThrow();
        long operations = run.result().operations();

        ExperimentRow row = experiment.runRow(planned);
        Map<String, Double> metrics = row.rightMetrics();
        assertThat(metrics.get(Experiment.BUSY_PROCESSORS)).isEqualTo(window.busyProcessors());
        assertThat(metrics.get(Experiment.CPU_NANOS_PER_OP)).isEqualTo(window.cpuPicos() / 1_000.0 / operations);
        assertThat(metrics.get(Experiment.SPIN_SHARE)).isEqualTo((double) window.spinningPicos() / window.cpuPicos());

        double wholeRun = (double) (facts.totalPicos(io.spinlab.sim.trace.Activity.WORKING)
                + facts.totalPicos(io.spinlab.sim.trace.Activity.SPINNING)
                + facts.totalPicos(io.spinlab.sim.trace.Activity.YIELDING)) / facts.elapsedPicos();
        System.out.println("busy processors: window " + window.busyProcessors() + ", whole run " + wholeRun
                + "; run " + facts.elapsedPicos() + " ps, window " + window);
        assertThat(window.busyProcessors()).isBetween(3.9, 4.0);
        assertThat(wholeRun).isLessThan(2.5);
    }
}
