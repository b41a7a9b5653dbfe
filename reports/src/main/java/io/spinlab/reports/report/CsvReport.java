package io.spinlab.reports.report;

import io.spinlab.sim.experiment.ExperimentRow;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A report as CSV ({@code data.csv} of a report directory): one line per row, after a header
 * line, in RFC 4180 form (CRLF line ends; a field with a comma, a double quote or a line break
 * is quoted, its quotes doubled), for spreadsheets.
 *
 * <p>Columns: the row's identity (experiment, workload, label, parameters, threads, machine,
 * PAUSE cycles, logical processors, seed, memory model), both tunings and scores, Δ %, the
 * published claim, the verdict, the failure, the seeds (space-separated; scores are their
 * medians), the 95 % interval of the per-seed Δ (empty with one seed) and whether the row is
 * neutral, then one column per metric of either run, named
 * {@code left.NAME} and {@code right.NAME}, in order of first appearance (empty where a row has
 * no such metric). Numbers are written as Java writes a double; a number without a value is an
 * empty field.
 */
public final class CsvReport {

    private static final String EOL = "\r\n";
    private static final List<String> FIXED = List.of("experiment", "workload", "label", "parameters", "threads",
            "machine", "pauseCycles", "logicalProcessors", "seed", "memoryModel", "leftTuning", "leftScore",
            "rightTuning", "rightScore", "deltaPercent", "publishedDirection", "publishedDeltaPercent",
            "publishedSource", "verdict", "failure", "seeds", "deltaLow95", "deltaHigh95", "neutral");

    private CsvReport() {
    }

    /** The CSV text of {@code data}'s rows. */
    public static String render(ReportData data) {
        Set<String> leftNames = new LinkedHashSet<>();
        Set<String> rightNames = new LinkedHashSet<>();
        data.rows().forEach(r -> {
            leftNames.addAll(r.result().leftMetrics().keySet());
            rightNames.addAll(r.result().rightMetrics().keySet());
        });
        List<String> header = new ArrayList<>(FIXED);
        leftNames.forEach(n -> header.add("left." + n));
        rightNames.forEach(n -> header.add("right." + n));
        StringBuilder csv = new StringBuilder();
        line(csv, header);
        data.rows().forEach(row -> {
            ExperimentRow r = row.result();
            List<String> fields = new ArrayList<>(List.of(r.experiment(), r.workload(), row.label(), r.parameters(),
                    row.parameters().getOrDefault("threads", ""), r.machine(),
                    Integer.toString(row.machine().pauseCycles()),
                    Integer.toString(row.machine().logicalProcessors()), Long.toString(row.seed()),
                    Boolean.toString(r.memoryModel()), r.leftTuning(), number(r.leftScore()), r.rightTuning(),
                    number(r.rightScore()), number(r.deltaPercent()), r.published().direction().name(),
                    r.published().deltaPercent().isPresent() ? number(r.published().deltaPercent().getAsDouble()) : "",
                    r.published().source(), r.verdict().name(), r.failure().orElse("")));
            fields.add(String.join(" ", r.seeds().stream().map(String::valueOf).toList()));
            fields.add(r.deltaSpread().map(d -> number(d.low95())).orElse(""));
            fields.add(r.deltaSpread().map(d -> number(d.high95())).orElse(""));
            fields.add(Boolean.toString(r.neutral()));
            leftNames.forEach(n -> fields.add(metric(r.leftMetrics().get(n))));
            rightNames.forEach(n -> fields.add(metric(r.rightMetrics().get(n))));
            line(csv, fields);
        });
        return csv.toString();
    }

    private static void line(StringBuilder csv, List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                csv.append(',');
            }
            csv.append(field(fields.get(i)));
        }
        csv.append(EOL);
    }

    /** One field, quoted when it holds a comma, a double quote, CR or LF. */
    static String field(String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\r') < 0 && value.indexOf('\n') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    private static String metric(Double value) {
        return value == null ? "" : number(value);
    }

    private static String number(double value) {
        return Double.isFinite(value) ? Double.toString(value) : "";
    }
}
