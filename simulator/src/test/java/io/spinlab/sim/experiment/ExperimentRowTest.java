package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A row's verdict: a side that counted too few operations makes no verdict, whatever its Δ. */
class ExperimentRowTest {

    private static ExperimentRow row(double left, double right, long leftOps, long rightOps,
            Optional<String> failure) {
        return new ExperimentRow("e", "w", "m", "threads=1pc", "l", left, "r", right,
                Published.delta(30, "a PR"), Map.of(), Map.of(), failure, 0, true, leftOps, rightOps);
    }

    @Test
    void shouldBeNotMeasurableWhenASideCountedFewerThanTheFloor() {
        ExperimentRow zeros = row(0, 0, 0, 0, Optional.empty());
        ExperimentRow oneSide = row(500, 24.75, 2_000, 99, Optional.empty());

        assertThat(zeros.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(zeros.notMeasurable()).contains(
                "left counted 0 and right counted 0 operations in the window (fewer than 100)");
        assertThat(oneSide.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(oneSide.notMeasurable()).contains("right counted 99 operations in the window (fewer than 100)");
    }

    @Test
    void shouldJudgeTheDirectionWhenBothSidesReachTheFloor() {
        assertThat(row(100, 150, 100, 150, Optional.empty()).verdict()).isEqualTo(Verdict.AGREES);
        assertThat(row(100, 50, 100, 100, Optional.empty()).verdict()).isEqualTo(Verdict.DISAGREES);
        assertThat(row(100, 50, 100, 100, Optional.empty()).notMeasurable()).isEmpty();
    }

    @Test
    void shouldReportAFailureBeforeAnEmptyWindow() {
        assertThat(row(Double.NaN, 0, -1, 0, Optional.of("deadlock")).verdict()).isEqualTo(Verdict.FAILED);
    }
}
