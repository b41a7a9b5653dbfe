package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.ContendedCounter;
import io.spinlab.sim.workload.CounterArray;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Contention that only the memory model can show: a shared CAS counter gets slower per thread
 * as processors are added, and counters that share a cache line (false sharing) lose to
 * counters padded onto lines of their own. Each machine has one processor more than there are
 * counting threads: the workload's main thread keeps one while it starts them.
 */
class ContentionInSimulatorTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final int INCREMENTS = 300;

    @Test
    void shouldLosePerThreadThroughputWhenProcessorsContendForOneCasCounter() {
        List<Double> perThread = new ArrayList<>();
        for (int threads : new int[] {1, 2, 4, 8}) {
            SimulatedRun run = WorkloadRunner.simulate(ContendedCounter.class, List.of(threads, INCREMENTS),
                    Tuning.current(), withMemoryModel(machine(threads + 1)));
            perThread.add(run.opsPerMs() / threads);
            System.out.println(run.result() + " per thread " + run.opsPerMs() / threads + " ops/ms, "
                    + run.simulation().memory().orElseThrow());
        }

        assertThat(perThread).isSortedAccordingTo((a, b) -> Double.compare(b, a)).doesNotHaveDuplicates();
        assertThat(perThread.get(3)).isLessThan(perThread.get(0) / 8);
    }

    @Test
    void shouldChargeNothingForContendedCasesWhenMemoryModelIsOff() {
        SimulatedRun run = WorkloadRunner.simulate(ContendedCounter.class, List.of(8, INCREMENTS), Tuning.current(),
                Simulation.builder(machine(9)).seed(1));

        assertThat(run.simulation().memoryModel()).isFalse();
        assertThat(run.simulation().memory()).isEmpty();
        assertThat(run.result().elapsedNanos()).isLessThan(INCREMENTS);
    }

    @Test
    void shouldRunPaddedCountersFasterWhenUnpaddedOnesShareALine() {
        double unpadded = counterArray(1);
        double twoPerLine = counterArray(4);
        double padded = counterArray(16);

        assertThat(unpadded).isLessThan(twoPerLine);
        assertThat(twoPerLine).isLessThan(padded);
        assertThat(padded).isGreaterThan(4 * unpadded);
    }

    private static double counterArray(int strideLongs) {
        SimulatedRun run = WorkloadRunner.simulate(CounterArray.class, List.of(4, INCREMENTS, strideLongs),
                Tuning.current(), withMemoryModel(machine(5)));
        System.out.println(run.result() + ", " + run.simulation().memory().orElseThrow());
        return run.opsPerMs();
    }

    /** The Skylake preset with {@code processors} cores and no SMT, so that every thread has a cache of its own. */
    private static MachineProfile machine(int processors) {
        return SKYLAKE.withProcessors(processors, processors);
    }

    private static Simulation.Builder withMemoryModel(MachineProfile machine) {
        return Simulation.builder(machine).seed(1).memoryModel(true);
    }
}
