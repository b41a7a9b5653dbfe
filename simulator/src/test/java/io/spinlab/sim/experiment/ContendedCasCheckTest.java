package io.spinlab.sim.experiment;

import io.spinlab.sim.experiment.ContendedCasCheck.Figures;
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

    @Test
    void shouldDescribeBothSidesOrWhyItDidNotRun() {
        ContendedCasCheck check = new ContendedCasCheck(new Figures(17.46, 14.12, 0.0704, 3),
                new Figures(26.9, 10.5, 0.048, 1));

        assertThat(check.measured()).isTrue();
        assertThat(check.describe()).isEqualTo("2 threads in a read-then-CAS loop on one word: this host 17.5 ns per "
                + "success, 14.1 successes per change of writer, 0.070 failed CASes per success, at most 3 lost in a "
                + "row (median of 5 runs); simulated 26.9 ns, 10.5, 0.048, 1 (median of 3 seeds)");
        assertThat(ContendedCasCheck.unmeasured().measured()).isFalse();
        assertThat(ContendedCasCheck.unmeasured().describe()).isEqualTo("not measured (it needs 2 cores)");
    }
}
