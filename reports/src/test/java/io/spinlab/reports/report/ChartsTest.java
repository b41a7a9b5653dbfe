package io.spinlab.reports.report;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Published;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.IntervalXYDataset;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The score chart: legends naming the tunings, seeds' ranges as error bars, published markers, the log axis. */
class ChartsTest {

    private static List<String> legend(JFreeChart chart) {
        List<String> names = new ArrayList<>();
        var items = chart.getXYPlot().getLegendItems();
        for (int i = 0; i < items.getItemCount(); i++) {
            LegendItem item = items.get(i);
            names.add(item.getLabel());
        }
        return names;
    }

    @Test
    void shouldDrawTheSeedsRangeAsErrorBarsAndNameTheTunings() {
        List<ReportRow> rows = ReportFixture.seeded().rows();
        JFreeChart chart = Charts.scoresByThreads("drain", rows);
        XYPlot plot = chart.getXYPlot();
        IntervalXYDataset data = (IntervalXYDataset) plot.getDataset();

        assertThat(legend(chart)).containsExactly("left: corert-2019-before", "right: corert-2019-after",
                "published Δ applied to the left score");
        // Left at 1 × processors: median 200 of the seeds 180, 200, 230.
        assertThat(data.getYValue(0, 0)).isEqualTo(200.0);
        assertThat(data.getStartYValue(0, 0)).isEqualTo(180.0);
        assertThat(data.getEndYValue(0, 0)).isEqualTo(230.0);
        assertThat(data.getStartYValue(1, 1)).isEqualTo(250.0);
        assertThat(data.getEndYValue(1, 1)).isEqualTo(270.0);
        // The published +34 % on the left median of 200: a marker at 268.
        assertThat(data.getYValue(2, 0)).isEqualTo(268.0);
        assertThat(plot.getRangeAxis()).isInstanceOf(NumberAxis.class);
    }

    @Test
    void shouldUseALogAxisWhenTheScoresSpanMoreThanTenTimes() {
        MachineProfile skylake = MachinePresets.byName("skylake-i7-6700");
        List<ReportRow> wide = List.of(row(skylake, "1pc", 10, 20), row(skylake, "2pc", 12, 500));
        List<ReportRow> narrow = List.of(row(skylake, "1pc", 100, 200), row(skylake, "2pc", 120, 900));

        assertThat(Charts.scoresByThreads("wide", wide).getXYPlot().getRangeAxis()).isInstanceOf(LogAxis.class);
        assertThat(Charts.scoresByThreads("wide", wide).getXYPlot().getRangeAxis().getLabel()).contains("log scale");
        assertThat(Charts.scoresByThreads("narrow", narrow).getXYPlot().getRangeAxis())
                .isInstanceOf(NumberAxis.class);
    }

    @Test
    void shouldMarkThePublishedScoresBesideTheSimulatedOnesWhenTheSourceGivesThem() {
        // The procScaling fixture's 1pc row has the published 56 → 330.
        List<ReportRow> rows = ReportFixture.procScaling().rows().stream()
                .filter(r -> r.variant().isEmpty()).toList();
        JFreeChart chart = Charts.scoresByThreads("drain", rows);
        IntervalXYDataset data = (IntervalXYDataset) chart.getXYPlot().getDataset();

        assertThat(legend(chart)).containsSubsequence("published Δ applied to the left score",
                "published left score (its harness's units)", "published right score (its harness's units)");
        int left = legend(chart).indexOf("published left score (its harness's units)");
        assertThat(data.getItemCount(left)).isEqualTo(1);
        assertThat(data.getYValue(left, 0)).isEqualTo(56.0);
        assertThat(data.getYValue(left + 1, 0)).isEqualTo(330.0);
        // At the 1 × processors position of the axis.
        assertThat(data.getXValue(left, 0)).isEqualTo(1.0);
    }

    private static ReportRow row(MachineProfile machine, String threads, double left, double right) {
        return new ReportRow(new ExperimentRow("e", "w", machine.name(), "threads=" + threads + ",warmup=2ms,window=4ms",
                "l", left, "r", right, Published.none(), Map.of(), Map.of(), Optional.empty(), 0, true, 1000, 1000, 1L),
                machine, 1);
    }
}
