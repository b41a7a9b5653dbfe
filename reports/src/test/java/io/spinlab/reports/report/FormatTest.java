package io.spinlab.reports.report;

import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Published;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A side that counted too few operations prints what it counted, never a score or a Δ made from it. */
class FormatTest {

    private static ExperimentRow row(long leftOperations, long rightOperations, Map<String, Double> rightMetrics) {
        return new ExperimentRow("e", "w", "m", "threads=1pc,warmup=2ms,window=4ms", "left", 5.0, "right", 250.0,
                Published.none(), Map.of("cpuNanosPerOp", 90_000.0), rightMetrics, Optional.empty(), 10, true,
                leftOperations, rightOperations, 1L);
    }

    @Test
    void shouldPrintWhatASideCountedInsteadOfAScoreWhenItCountedTooFew() {
        ExperimentRow row = row(17, 1000, Map.of("cpuNanosPerOp", 4_000.0));

        assertThat(row.notMeasurable()).contains("left counted 17 operations in the window (fewer than 100)");
        assertThat(Format.score(row, true)).isEqualTo("too few: 17 operations");
        assertThat(Format.score(row, false)).isEqualTo("250.0");
        assertThat(Format.delta(row)).isEqualTo("n/a");
        assertThat(Format.cpuPerOp(row)).isEqualTo("– → 4000");
    }

    @Test
    void shouldCountBatchesWhereTheWorkloadCountsInBatches() {
        ExperimentRow row = row(100_000, 30_720, Map.of("operationsPerCount", 512.0));

        assertThat(row.countedTooFew(true)).isFalse();
        assertThat(row.countedTooFew(false)).isTrue();
        assertThat(Format.score(row, false)).isEqualTo("too few: 60 batches of 512");
        assertThat(Format.delta(row)).isEqualTo("n/a");
    }

    @Test
    void shouldPrintScoresAndDeltaWhenBothSidesCountedEnough() {
        ExperimentRow row = row(100, 1000, Map.of("cpuNanosPerOp", 4_000.0));

        assertThat(row.notMeasurable()).isEmpty();
        assertThat(Format.cpuPerOp(row)).isEqualTo("90000 → 4000");
        assertThat(Format.score(row, true)).isEqualTo("5.0");
        assertThat(Format.delta(row)).isEqualTo("+4900.0");
    }
}
