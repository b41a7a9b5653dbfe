package io.spinlab.sim.experiment;

import io.spinlab.sim.experiment.ContendedCasCheck.Figures;
import io.spinlab.sim.experiment.ContendedCasCheck.Loop;
import io.spinlab.sim.workload.ContendedCasLoop;
import io.spinlab.sim.workload.WorkloadResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The contended CAS loop's figures and line, on fixed inputs. */
class ContendedCasCheckTest {

    @Test
    void shouldTakeTheFiguresFromOneRunOfTheLoop() {
        WorkloadResult run = new WorkloadResult("contended-cas-loop", "threads=2,successes=1000", "test", 2_000,
                35_000, Map.of(ContendedCasLoop.FAILURES, 140.0, ContendedCasLoop.OWNER_CHANGES, 142.0,
                ContendedCasLoop.LONGEST_LOSING_RUN, 3.0));

        Figures figures = Figures.of(run);

        assertThat(figures.nsPerSuccess()).isEqualTo(17.5);
        assertThat(figures.successesPerOwnerChange()).isEqualTo(2_000 / 142.0);
        assertThat(figures.failuresPerSuccess()).isEqualTo(0.07);
        assertThat(figures.longestLosingRun()).isEqualTo(3);
    }

    @Test
    void shouldReportTheRunWithTheMedianTimePerSuccess() {
        Figures fast = new Figures(15, 20, 0.01, 1);
        Figures middle = new Figures(17, 14, 0.07, 2);
        Figures slow = new Figures(30, 5, 0.3, 9);

        assertThat(Figures.median(List.of(slow, fast, middle))).isEqualTo(middle);
        assertThat(Figures.median(List.of(slow, fast))).isEqualTo(slow);
    }

    private static WorkloadResult run(long nanos, double changes, double failures) {
        return new WorkloadResult("contended-cas-loop", "threads=2,successes=500000", "test", 1_000_000, nanos,
                Map.of(ContendedCasLoop.FAILURES, failures, ContendedCasLoop.OWNER_CHANGES, changes,
                        ContendedCasLoop.LONGEST_LOSING_RUN, 2.0));
    }

    /**
     * Runs whose threads did not run side by side (here 2 and 99 changes of writer in a million successes,
     * and the fastest, as an uncontended CAS is) are left out of the hardware median and counted; 100
     * changes is enough to count.
     */
    @Test
    void shouldLeaveOutRealRunsWhoseThreadsDidNotContend() {
        List<WorkloadResult> hardware = List.of(run(6_300_000, 2, 0), run(17_000_000, 60_000, 65_000),
                run(6_500_000, 99, 10), run(15_000_000, 70_000, 60_000), run(25_000_000, 100, 50));
        List<WorkloadResult> simulated = List.of(run(26_000_000, 95_000, 47_000));

        ContendedCasCheck check = ContendedCasCheck.of(Loop.WORD, hardware, simulated);

        assertThat(check.hardwareRuns()).isEqualTo(3);
        assertThat(check.uncontendedRuns()).isEqualTo(2);
        assertThat(check.hardware().nsPerSuccess()).isEqualTo(17.0);
        assertThat(check.describe()).contains("this host 17.0 ns per success, 16.7 successes per change of writer, "
                + "0.065 failed CASes per success, at most 2 lost in a row (median of 3 runs; 2 more left out, their "
                + "threads changed hands fewer than 100 times); simulated 26.0 ns");
    }

    @Test
    void shouldSaySoWhenNoRealRunContended() {
        ContendedCasCheck check = ContendedCasCheck.of(Loop.WORD, List.of(run(6_300_000, 2, 0), run(6_400_000, 3, 1)),
                List.of(run(26_000_000, 95_000, 47_000)));

        assertThat(check.measured()).isFalse();
        assertThat(check.ran()).isTrue();
        assertThat(check.describe()).isEqualTo("2 threads in a read-then-CAS loop on one word: this host not measured "
                + "(in none of 2 runs did the threads change hands 100 times: they did not run side by side); "
                + "simulated 26.0 ns, 10.5, 0.047, 2 (median of 3 seeds)");
    }

    @Test
    void shouldDescribeBothSidesOrWhyItDidNotRun() {
        ContendedCasCheck check = new ContendedCasCheck(Loop.WORD, new Figures(17.46, 14.12, 0.0704, 3),
                new Figures(26.9, 10.5, 0.048, 1));

        assertThat(check.measured()).isTrue();
        assertThat(check.describe()).isEqualTo("2 threads in a read-then-CAS loop on one word: this host 17.5 ns per "
                + "success, 14.1 successes per change of writer, 0.070 failed CASes per success, at most 3 lost in a "
                + "row (median of 5 runs); simulated 26.9 ns, 10.5, 0.048, 1 (median of 3 seeds)");
        assertThat(ContendedCasCheck.unmeasured(Loop.WORD).measured()).isFalse();
        assertThat(ContendedCasCheck.unmeasured(Loop.RING).describe()).isEqualTo("not measured (it needs 2 cores)");
    }

    /** The ring's figures in its own words: offers, changes of offerer, lost attempts. */
    @Test
    void shouldDescribeTheRingLoopInItsOwnUnits() {
        ContendedCasCheck check = new ContendedCasCheck(Loop.RING, new Figures(167.8, 3.7, 0.177, 113),
                new Figures(70.9, 90.1, 0.046, 82));

        assertThat(check.describe()).isEqualTo("2 threads offering and taking one item at a time on a queue's ring, "
                + "backing off after a lost race: this host 167.8 ns per offer, 3.7 offers per change of offerer, "
                + "0.177 lost attempts per offer, at most 113 lost in a row (median of 5 runs); simulated 70.9 ns, "
                + "90.1, 0.046, 82 (median of 3 seeds)");
    }
}
