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

    @Test
    void shouldMeasureTheErrorFactorAgainstThePublishedRatio() {
        // Published +30 %, i.e. 1.3×. Simulated 2.6× is off by 2×, 0.65× by 2× the other way.
        assertThat(row(100, 260, 400, 1040, Optional.empty()).errorFactor().getAsDouble()).isCloseTo(2.0,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(row(100, 65, 400, 260, Optional.empty()).errorFactor().getAsDouble()).isCloseTo(2.0,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(row(100, 130, 400, 520, Optional.empty()).errorFactor().getAsDouble()).isCloseTo(1.0,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(row(0, 0, 0, 0, Optional.empty()).errorFactor()).isEmpty();
        assertThat(row(100, 0, 400, 100, Optional.empty()).errorFactor()).isEmpty();
        assertThat(row(Double.NaN, 100, -1, 400, Optional.of("deadlock")).errorFactor()).isEmpty();
        ExperimentRow noFigure = new ExperimentRow("e", "w", "m", "p", "l", 100, "r", 200,
                Published.direction(Published.Direction.RIGHT_BETTER, "a PR"), Map.of(), Map.of(), Optional.empty(), 0,
                true, 400, 800);
        assertThat(noFigure.errorFactor()).isEmpty();
    }

    @Test
    void shouldSummarizeTheErrorFactorsByTheirMedian() {
        // Against a published 1.3×: 1.3× (factor 1), 1.95× (1.5), 3.9× (3), and an empty window.
        Fidelity fidelity = Fidelity.of(java.util.List.of(row(100, 130, 400, 520, Optional.empty()),
                row(100, 195, 400, 780, Optional.empty()), row(100, 390, 400, 1560, Optional.empty()),
                row(0, 0, 0, 0, Optional.empty())));

        assertThat(fidelity.rows()).isEqualTo(3);
        assertThat(fidelity.median()).isCloseTo(1.5, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(fidelity.withinTwo()).isEqualTo(2);
        assertThat(fidelity.describe()).isEqualTo("median error ×1.50 over 3 published figures, 2 within 2×");
        assertThat(Fidelity.of(java.util.List.of()).describe()).isEqualTo("no published figure measured");
        // Equal scores against a published +100 %: a factor of 2, within 2× whatever the rounding.
        ExperimentRow doubled = new ExperimentRow("e", "w", "m", "p", "l", 316.25, "r", 316.25,
                Published.delta(100, "a PR"), Map.of(), Map.of(), Optional.empty(), 0, true, 1265, 1265);
        assertThat(Fidelity.of(java.util.List.of(doubled)).withinTwo()).isEqualTo(1);
    }
}
