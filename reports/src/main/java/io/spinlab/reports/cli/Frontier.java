package io.spinlab.reports.cli;

import io.spinlab.reports.report.ChartSvg;
import io.spinlab.reports.report.Charts;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Throughput against CPU time per operation across the values of one swept workload parameter
 * (e.g. the thread pool's semaphore spin, {@code spin=0..280}), per machine, for both tunings:
 * the trade a spin limit makes. Printable as a text table and drawable as an SVG chart.
 */
final class Frontier {

    private final String title;
    private final String parameter;
    private final List<String> values;
    private final String leftName;
    private final String rightName;
    /** Per machine, the row of each value (in value order). */
    private final Map<String, ExperimentRow[]> byMachine = new LinkedHashMap<>();

    Frontier(String title, String parameter, List<String> values, String leftName, String rightName) {
        this.title = title;
        this.parameter = parameter;
        this.values = List.copyOf(values);
        this.leftName = leftName;
        this.rightName = rightName;
    }

    void put(String machine, String value, ExperimentRow row) {
        byMachine.computeIfAbsent(machine, m -> new ExperimentRow[values.size()])[values.indexOf(value)] = row;
    }

    String table() {
        TextTable table = new TextTable("machine", parameter, "left ops/ms", "left CPU ns/op", "right ops/ms",
                "right CPU ns/op");
        byMachine.forEach((machine, rows) -> {
            for (int i = 0; i < values.size(); i++) {
                ExperimentRow row = rows[i];
                table.row(machine, values.get(i), score(row, true), cpu(row, true), score(row, false),
                        cpu(row, false));
            }
        });
        return title + "\n" + table.render();
    }

    String svg() {
        List<Charts.FrontierCurve> curves = new ArrayList<>();
        byMachine.forEach((machine, rows) -> {
            curves.add(curve("left: " + leftName + " on " + machine, rows, true));
            curves.add(curve("right: " + rightName + " on " + machine, rows, false));
        });
        return ChartSvg.render(Charts.frontier(title, parameter, curves), "frontier", 720, 480) + "\n";
    }

    private Charts.FrontierCurve curve(String name, ExperimentRow[] rows, boolean left) {
        double[] x = new double[rows.length];
        double[] y = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            // A side that counted too few operations has no point on the curve.
            boolean measured = !rows[i].countedTooFew(left);
            Map<String, Double> metrics = left ? rows[i].leftMetrics() : rows[i].rightMetrics();
            x[i] = measured ? metrics.getOrDefault(Experiment.CPU_NANOS_PER_OP, Double.NaN) : Double.NaN;
            y[i] = !measured ? Double.NaN : left ? rows[i].leftScore() : rows[i].rightScore();
        }
        return new Charts.FrontierCurve(name, x, y, values.toArray(String[]::new));
    }

    /** A side's score, or what it counted when that was too few to make one. */
    private static String score(ExperimentRow row, boolean left) {
        return row.countedTooFew(left) ? "too few: " + row.counted(left)
                : ExperimentTables.score(left ? row.leftScore() : row.rightScore());
    }

    private static String cpu(ExperimentRow row, boolean left) {
        if (row.countedTooFew(left)) {
            return "–";
        }
        Double v = (left ? row.leftMetrics() : row.rightMetrics()).get(Experiment.CPU_NANOS_PER_OP);
        return v == null || !Double.isFinite(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }
}
