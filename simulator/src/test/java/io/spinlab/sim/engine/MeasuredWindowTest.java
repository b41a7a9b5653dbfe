package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.trace.MeasuredWindow;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * {@code Platform.measuredWindow} in the simulator: the run reports its threads' processor time
 * inside the announced window only, and the harness's count at the window's midpoint if it hands
 * one over; announcing it, and reading the count, change nothing else.
 */
class MeasuredWindowTest {

    private static final long US = 1_000_000L;

    /** 1 GHz, a 100-cycle PAUSE (100 ns), two processors. */
    private static final MachineProfile MACHINE = MachineProfile.builder("window").frequencyGhz(1.0).pauseCycles(100)
            .physicalCores(2).logicalProcessors(2).build();

    /** What the long spinner tells the platform: nothing, its window, or its window and its count of batches. */
    private enum Announce { NOTHING, WINDOW, WINDOW_AND_COUNT }

    /** One thread spins 5 ms in 1 µs batches, another 1 ms, then waits; the first announced [2 ms, 3 ms). */
    private static SimulationResult spinners(boolean announce) {
        return spinners(announce ? Announce.WINDOW : Announce.NOTHING, new long[1], new ArrayList<>());
    }

    /**
     * As {@link #spinners(boolean)}, the long spinner counting its batches in {@code done[0]}, announcing as
     * {@code announce} says; {@code readOn} gets each thread that read the count.
     */
    private static SimulationResult spinners(Announce announce, long[] done, List<Thread> readOn) {
        Simulation sim = Simulation.builder(MACHINE).seed(1).build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("long", () -> {
            if (announce == Announce.WINDOW_AND_COUNT) {
                platform.measuredWindow(2_000_000, 3_000_000, () -> {
                    readOn.add(Thread.currentThread());
                    return done[0];
                });
            } else if (announce == Announce.WINDOW) {
                platform.measuredWindow(2_000_000, 3_000_000);
            }
            for (int i = 0; i < 5_000; i++) {
                platform.pause(10);
                done[0]++;
            }
        });
        sim.startThread("short", () -> {
            for (int i = 0; i < 1_000; i++) {
                platform.pause(10);
            }
            platform.sleep(10_000_000);
        });
        return sim.run().requireCompleted();
    }

    @Test
    void shouldCountOnlyTheProcessorTimeInsideTheAnnouncedWindow() {
        SimulationResult result = spinners(true);
        MeasuredWindow window = result.metrics().window().orElseThrow();

        assertThat(window.startPicos()).isEqualTo(2_000 * US);
        assertThat(window.endPicos()).isEqualTo(3_000 * US);
        // Only the long spinner is on a processor then, spinning the whole millisecond.
        assertThat(window.spinningPicos()).isEqualTo(1_000 * US);
        assertThat(window.workingPicos()).isZero();
        assertThat(window.busyProcessors()).isEqualTo(1.0);
        // Over the whole run (about 11 ms, the short thread's sleep) fewer processors were busy.
        assertThat((double) (result.metrics().totalPicos(io.spinlab.sim.trace.Activity.SPINNING))
                / result.metrics().elapsedPicos()).isLessThan(0.6);
    }

    @Test
    void shouldChangeNoEventByAnnouncingAWindow() {
        SimulationResult announced = spinners(true);
        SimulationResult silent = spinners(false);

        assertThat(silent.metrics().window()).isEmpty();
        assertThat(announced.digest()).isEqualTo(silent.digest());
        assertThat(announced.endPicos()).isEqualTo(silent.endPicos());
    }

    @Test
    void shouldReadTheHarnesssCountAtTheWindowsMidpointAndEndOffTheSimulatedThreads() {
        long[] done = new long[1];
        List<Thread> readOn = new ArrayList<>();
        MeasuredWindow window = spinners(Announce.WINDOW_AND_COUNT, done, readOn).metrics().window().orElseThrow();

        assertThat(window.midpointPicos()).isEqualTo(2_500 * US);
        // Batch k ends at k µs; the engine reads before it takes the event at 2.5 ms, the end of batch 2,500,
        // so the thread has counted the 2,499 batches before it.
        assertThat(window.firstHalfOperations()).isEqualTo(2_499);
        // Then at 3 ms, before the end of batch 3,000: 2,999 counted, 500 of them in the second half.
        assertThat(window.secondHalfOperations()).isEqualTo(500);
        assertThat(window.halvesRatio()).isEqualTo(500.0 / 2_499);
        assertThat(readOn).hasSize(2);
        assertThat(readOn).allSatisfy(t -> assertThat(t.isVirtual()).as("read on the engine's thread").isFalse());
        assertThat(done[0]).isEqualTo(5_000);
    }

    @Test
    void shouldChangeNoEventByReadingTheCount() {
        SimulationResult counted = spinners(Announce.WINDOW_AND_COUNT, new long[1], new ArrayList<>());
        SimulationResult uncounted = spinners(Announce.WINDOW, new long[1], new ArrayList<>());

        assertThat(uncounted.metrics().window().orElseThrow().halvesRatio()).isNaN();
        assertThat(counted.digest()).isEqualTo(uncounted.digest());
        assertThat(counted.endPicos()).isEqualTo(uncounted.endPicos());
    }

    @Test
    void shouldReportAWindowedWorkloadsBusyProcessorsOverItsWindow() {
        // The harness announces warm-up end to window end; busy processors then never exceed the machine's.
        SimulatedRun run = WorkloadRunner.simulate("spinlock-throughput", "threads=1pc,warmup=200us,window=400us",
                Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(1).memoryModel(true));
        MeasuredWindow window = run.simulation().metrics().window().orElseThrow();

        assertThat(window.lengthPicos()).isEqualTo(400 * US);
        assertThat(window.busyProcessors()).isBetween(0.0, 8.0);
        // The harness's count was read at the midpoint and at the end: the two halves make the window's operations.
        assertThat(window.firstHalfOperations()).isPositive();
        assertThat(window.secondHalfOperations()).isPositive();
        assertThat(window.firstHalfOperations() + window.secondHalfOperations())
                .isCloseTo(run.result().operations(), withPercentage(5));
    }
}
