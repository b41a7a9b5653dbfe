package io.spinlab.reports.report;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Published;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TotalTest {

    private static ReportRow row(double left, double right) {
        return new ReportRow(new ExperimentRow("e", "w", "skylake-i7-6700", "threads=1pc", "l", left, "r", right,
                Published.none(), Map.of(), Map.of(), Double.isNaN(left) ? Optional.of("failed") : Optional.empty(),
                0, false, 1000, 1000, 1L), MachinePresets.byName("skylake-i7-6700"), 1);
    }

    @Test
    void shouldWeighEveryRowsChangeAlikeWhenScalesDiffer() {
        Total total = Total.of(List.of(row(10, 20), row(10_000, 5_000)));

        assertThat(total.leftScore()).isCloseTo(Math.sqrt(10 * 10_000.0), within(1e-9));
        assertThat(total.rightScore()).isCloseTo(Math.sqrt(20 * 5_000.0), within(1e-9));
        assertThat(total.deltaPercent()).isCloseTo(0, within(1e-9));
        assertThat(total.rows()).isEqualTo(2);
    }

    @Test
    void shouldLeaveOutRowsWithoutAPositiveScoreWhenTotalling() {
        Total total = Total.of(List.of(row(100, 150), row(0, 40), row(Double.NaN, 40)));

        assertThat(total.rows()).isEqualTo(1);
        assertThat(total.excluded()).isEqualTo(2);
        assertThat(total.deltaPercent()).isCloseTo(50, within(1e-9));
    }

    @Test
    void shouldHaveNoValueWhenNoRowHasAScore() {
        Total total = Total.of(List.of(row(Double.NaN, 1)));

        assertThat(total.rows()).isZero();
        assertThat(total.deltaPercent()).isNaN();
    }
}
