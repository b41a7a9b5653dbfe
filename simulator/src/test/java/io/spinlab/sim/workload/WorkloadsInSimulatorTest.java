package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Every registry workload in the simulator: it completes, scores, and repeats to the digest. */
class WorkloadsInSimulatorTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final String WINDOW = "warmup=2ms,window=1ms";

    static List<String> names() {
        return Workloads.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void shouldCompleteAndScoreWhenSimulatedUnderBothPresets(String name) {
        // Writers that never block, as many as the processors, starve the reader for longer than this window.
        String limit = name.equals(EventPipeStress.NAME) ? "threads=0.5pc,limit=16mb," : "";
        Workload workload = Workloads.create(name, limit + WINDOW);
        for (Tuning tuning : List.of(Tuning.current(), Tuning.legacy())) {
            SimulatedRun run = WorkloadRunner.simulate(workload, tuning, SKYLAKE, 1);

            assertThat(run.simulation().completed()).as(run.simulation().report()).isTrue();
            assertThat(run.result().elapsedNanos()).isEqualTo(1_000_000);
            assertThat(run.result().platform()).isEqualTo("simulated(skylake-i7-6700, seed 1)");
            if (tuning.equals(Tuning.current())) {
                assertThat(run.opsPerMs()).as(tuning + " " + workload.describe()).isPositive();
            }
        }
    }

    @Test
    void shouldRepeatDigestAndScoreWhenSameRunRepeats() {
        Workload workload = Workloads.create("semaphore-wait-drain-rate", "threads=2pc," + WINDOW);

        SimulatedRun first = WorkloadRunner.simulate(workload, Tuning.current(), SKYLAKE, 7);
        SimulatedRun second = WorkloadRunner.simulate(workload, Tuning.current(), SKYLAKE, 7);

        assertThat(second.simulation().digest()).isEqualTo(first.simulation().digest());
        assertThat(second.opsPerMs()).isEqualTo(first.opsPerMs());
    }

    /**
     * One thread offers and polls, each followed by a clock read (20 ns on the Skylake preset):
     * two operations per 40 virtual ns, so exactly 50 per µs counted in the window, no more
     * (nothing outside the window) and no fewer (nothing lost at its edges but the one pair
     * that straddles it).
     */
    @Test
    void shouldCountOnlyOperationsInsideWindowWhenRateIsKnown() {
        Workload workload = Workloads.create("queue-throughput", "threads=1,warmup=100us,window=1ms");

        SimulatedRun run = WorkloadRunner.simulate(workload, Tuning.current(), SKYLAKE, 1);

        assertThat(run.result().operations()).isCloseTo(50_000, within(2L));
        assertThat(run.opsPerMs()).isCloseTo(50_000, within(2.0));
    }

    /**
     * A run stops at the end of its window even when the controlling thread cannot get a
     * processor: 64 spinning waiters per processor keep every processor busy, yet the
     * simulated run ends about warm-up + window after it started.
     */
    @Test
    void shouldEndNearWindowEndWhenEveryProcessorIsBusy() {
        Workload workload = Workloads.create("mres-wait-latency", "threads=16pc,warmup=200us,window=500us");

        SimulatedRun run = WorkloadRunner.simulate(workload, Tuning.current(), SKYLAKE, 1);

        assertThat(run.simulation().completed()).as(run.simulation().report()).isTrue();
        assertThat(run.simulation().endPicos()).isLessThan(10_000_000_000L);
    }
}
