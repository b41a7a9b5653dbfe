package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spinlab.reports.report.Format;
import io.spinlab.sim.experiment.DirectionAgreement;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Fidelity;
import io.spinlab.sim.experiment.LevelAgreement;
import io.spinlab.sim.experiment.WindowShortfall;
import io.spinlab.sim.experiment.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Experiment rows as text tables and JSON: what {@code reproduce} and {@code whatif} print. */
final class ExperimentTables {

    private ExperimentTables() {
    }

    /** One experiment's rows as an aligned text table, with a verdict count under it. */
    static String text(Experiment experiment, List<ExperimentRow> rows) {
        TextTable table = new TextTable("workload", "machine", "parameters", experiment.left().describe(),
                experiment.right().describe(), "Δ %", "published Δ %", "verdict", "CPU ns/op");
        for (ExperimentRow row : rows) {
            table.row(row.workload(), row.machine(), row.parameters(), Format.score(row, true),
                    Format.score(row, false), Format.delta(row), published(row),
                    row.verdict().name().toLowerCase(Locale.ROOT).replace('_', ' '), Format.cpuPerOp(row));
        }
        StringBuilder out = new StringBuilder();
        out.append("== ").append(experiment.name()).append(": ").append(experiment.description()).append('\n');
        out.append(table.render());
        out.append(summary(rows)).append('\n');
        for (String line : experiment.publishedSummary()) {
            out.append("published: ").append(line).append('\n');
        }
        rows.stream().filter(r -> r.failure().isPresent())
                .forEach(r -> out.append("failed: ").append(r.failure().orElseThrow()).append('\n'));
        rows.stream().filter(r -> r.verdict() == Verdict.NOT_MEASURABLE)
                .forEach(r -> out.append("not measurable: ").append(r.workload()).append('(').append(r.parameters())
                        .append(") on ").append(r.machine()).append(": ").append(r.notMeasurable().orElseThrow())
                        .append('\n'));
        rows.stream().filter(r -> r.windowExtended().isPresent())
                .forEach(r -> out.append("longer window: ").append(r.workload()).append('(').append(r.parameters())
                        .append(") on ").append(r.machine()).append(": ").append(r.windowExtended().orElseThrow())
                        .append('\n'));
        rows.stream().filter(r -> r.rateChanging().isPresent())
                .forEach(r -> out.append("rate still changing: ").append(r.workload()).append('(')
                        .append(r.parameters()).append(") on ").append(r.machine()).append(": ")
                        .append(r.rateChanging().orElseThrow()).append('\n'));
        return out.toString();
    }

    /** Every row of every experiment as a JSON array. */
    static String json(Map<Experiment, List<ExperimentRow>> results) throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode array = mapper.createArrayNode();
        results.forEach((experiment, rows) -> {
            for (ExperimentRow row : rows) {
                ObjectNode node = array.addObject();
                node.put("experiment", row.experiment());
                node.put("workload", row.workload());
                node.put("machine", row.machine());
                node.put("parameters", row.parameters());
                node.put("leftTuning", row.leftTuning());
                node.put("leftScore", row.leftScore());
                node.put("rightTuning", row.rightTuning());
                node.put("rightScore", row.rightScore());
                node.put("deltaPercent", row.deltaPercent());
                if (row.published().deltaPercent().isPresent()) {
                    node.put("publishedDeltaPercent", row.published().deltaPercent().getAsDouble());
                } else {
                    node.putNull("publishedDeltaPercent");
                }
                node.put("publishedDirection", row.published().direction().name());
                node.put("publishedSource", row.published().source());
                row.published().leftPerMs().ifPresent(v -> node.put("publishedLeftPerMs", v));
                row.leftOverPublished().ifPresent(v -> node.put("leftOverPublished", v));
                node.put("verdict", row.verdict().name());
                row.failure().ifPresent(f -> node.put("failure", f));
                if (row.errorFactor().isPresent()) {
                    node.put("errorFactor", row.errorFactor().getAsDouble());
                } else {
                    node.putNull("errorFactor");
                }
                node.put("leftOperations", row.leftOperations());
                node.put("rightOperations", row.rightOperations());
                row.notMeasurable().ifPresent(why -> node.put("notMeasurable", why));
                row.windowExtended().ifPresent(why -> node.put("windowExtended", why));
                ArrayNode seeds = node.putArray("seeds");
                row.seeds().forEach(seeds::add);
                row.leftScores().forEach(node.putArray("leftScores")::add);
                row.rightScores().forEach(node.putArray("rightScores")::add);
                row.deltaSpread().ifPresentOrElse(d -> {
                    node.put("deltaLow95", d.low95());
                    node.put("deltaHigh95", d.high95());
                }, () -> {
                    node.putNull("deltaLow95");
                    node.putNull("deltaHigh95");
                });
                node.put("neutral", row.neutral());
            }
        });
        return mapper.writeValueAsString(array);
    }

    /**
     * One line per experiment — rows and how many agree or disagree with the published direction,
     * are neutral (within the seeds' spread), carry no claim, measured nothing or failed — and the
     * totals: what {@code reproduce} ends with.
     */
    static String overall(Map<Experiment, List<ExperimentRow>> results) {
        List<String> headers = new ArrayList<>(List.of("experiment", "rows"));
        for (Verdict verdict : Verdict.values()) {
            headers.add(verdict.name().toLowerCase(Locale.ROOT).replace('_', ' '));
        }
        TextTable table = new TextTable(headers.toArray(String[]::new));
        results.forEach((experiment, rows) -> table.row(countRow(experiment.name(), rows)));
        List<ExperimentRow> all = results.values().stream().flatMap(List::stream).toList();
        table.row(countRow("all", all));
        StringBuilder out = new StringBuilder("== summary: rows whose simulated direction agrees with the published one\n")
                .append(table.render())
                .append("directions, among the rows that agree or disagree (Wilson's 95 % interval, the rows taken as ")
                .append("independent):\n");
        results.forEach((experiment, rows) -> {
            DirectionAgreement directions = DirectionAgreement.of(rows);
            if (directions.decided() > 0) {
                out.append("  ").append(experiment.name()).append(": ").append(directions.describe()).append('\n');
            }
        });
        out.append("  all: ").append(DirectionAgreement.of(all).describe()).append('\n')
                .append("error against the published figures, exp(|ln(simulated right/left) - ln(published right/left)|)")
                .append(" per row with a figure:\n");
        results.forEach((experiment, rows) -> {
            Fidelity fidelity = Fidelity.of(rows);
            if (fidelity.rows() > 0) {
                out.append("  ").append(experiment.name()).append(": ").append(fidelity.describe()).append('\n');
            }
        });
        out.append("  all: ").append(Fidelity.of(all).describe()).append('\n');
        if (all.stream().anyMatch(r -> r.published().leftPerMs().isPresent())) {
            out.append("left scores against the published ones, per row whose source printed its left score alone ")
                    .append("(simulated ÷ published, per ms):\n");
            results.forEach((experiment, rows) -> {
                if (rows.stream().anyMatch(r -> r.published().leftPerMs().isPresent())) {
                    out.append("  ").append(experiment.name()).append(": ").append(LevelAgreement.of(rows).describe())
                            .append('\n');
                }
            });
            out.append("  all: ").append(LevelAgreement.of(all).describe()).append('\n');
        }
        Map<ExperimentRow, Double> slices = new java.util.IdentityHashMap<>();
        results.forEach((experiment, rows) -> {
            Map<String, Double> sliceOf = new java.util.HashMap<>();
            experiment.rows().forEach(p -> sliceOf.put(p.machine().name(), p.machine().timeSliceNs()));
            rows.forEach(r -> slices.put(r, sliceOf.getOrDefault(r.machine(), Double.NaN)));
        });
        out.append("windows: ").append(WindowShortfall.of(all, r -> slices.getOrDefault(r, Double.NaN)).describe())
                .append('\n');
        return out.toString();
    }

    /** The name, the row count, then the count of each verdict in {@link Verdict} order. */
    private static String[] countRow(String name, List<ExperimentRow> rows) {
        Map<Verdict, Integer> counts = Verdict.count(rows);
        List<String> cells = new ArrayList<>(List.of(name, Integer.toString(rows.size())));
        for (Verdict verdict : Verdict.values()) {
            cells.add(Integer.toString(counts.getOrDefault(verdict, 0)));
        }
        return cells.toArray(String[]::new);
    }

    static String summary(List<ExperimentRow> rows) {
        Map<Verdict, Integer> counts = Verdict.count(rows);
        StringBuilder out = new StringBuilder(rows.size() + " rows:");
        counts.forEach((verdict, n) -> out.append(' ').append(n).append(' ')
                .append(verdict.name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(','));
        out.setLength(out.length() - 1);
        return out.toString();
    }

    static String score(double value) {
        return Double.isNaN(value) ? "failed" : String.format(Locale.ROOT, "%.1f", value);
    }

    static String percent(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "n/a" : String.format(Locale.ROOT, "%+.1f", value);
    }

    private static String published(ExperimentRow row) {
        return Format.published(row.published());
    }
}
