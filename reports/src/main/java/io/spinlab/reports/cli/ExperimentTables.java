package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Verdict;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Experiment rows as text tables, Markdown and JSON: what {@code reproduce} and {@code whatif} print. */
final class ExperimentTables {

    private ExperimentTables() {
    }

    /** One experiment's rows as an aligned text table, with a verdict count under it. */
    static String text(Experiment experiment, List<ExperimentRow> rows) {
        TextTable table = new TextTable("workload", "machine", "parameters", experiment.left().describe(),
                experiment.right().describe(), "Δ %", "published Δ %", "verdict");
        for (ExperimentRow row : rows) {
            table.row(row.workload(), row.machine(), row.parameters(), score(row.leftScore()), score(row.rightScore()),
                    percent(row.deltaPercent()), published(row), row.verdict().name().toLowerCase(Locale.ROOT));
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
        return out.toString();
    }

    /** The same as a Markdown section. */
    static String markdown(Experiment experiment, List<ExperimentRow> rows) {
        StringBuilder out = new StringBuilder();
        out.append("## ").append(experiment.name()).append("\n\n").append(experiment.description()).append("\n\n");
        out.append("| workload | machine | parameters | ").append(experiment.left().describe()).append(" | ")
                .append(experiment.right().describe()).append(" | Δ % | published Δ % | verdict |\n");
        out.append("|---|---|---|--:|--:|--:|--:|---|\n");
        for (ExperimentRow row : rows) {
            out.append("| ").append(row.workload()).append(" | ").append(row.machine()).append(" | `")
                    .append(row.parameters()).append("` | ").append(score(row.leftScore())).append(" | ")
                    .append(score(row.rightScore())).append(" | ").append(percent(row.deltaPercent())).append(" | ")
                    .append(published(row)).append(" | ").append(row.verdict().name().toLowerCase(Locale.ROOT))
                    .append(" |\n");
        }
        out.append('\n').append(summary(rows)).append("\n\n");
        for (String line : experiment.publishedSummary()) {
            out.append("- published: ").append(line).append('\n');
        }
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
                node.put("verdict", row.verdict().name());
                row.failure().ifPresent(f -> node.put("failure", f));
            }
        });
        return mapper.writeValueAsString(array);
    }

    /**
     * One line per experiment — rows, how many agree or disagree with the published direction,
     * how many carry no claim, how many failed — and the totals: what {@code reproduce} ends with.
     */
    static String overall(Map<Experiment, List<ExperimentRow>> results) {
        TextTable table = new TextTable("experiment", "rows", "agrees", "disagrees", "no claim", "failed");
        int[] totals = new int[5];
        results.forEach((experiment, rows) -> {
            int[] counts = counts(rows);
            table.row(cells(experiment.name(), counts));
            for (int i = 0; i < totals.length; i++) {
                totals[i] += counts[i];
            }
        });
        table.row(cells("all", totals));
        return "== summary: rows whose simulated direction agrees with the published one\n" + table.render();
    }

    private static String[] cells(String name, int[] counts) {
        String[] cells = new String[counts.length + 1];
        cells[0] = name;
        for (int i = 0; i < counts.length; i++) {
            cells[i + 1] = Integer.toString(counts[i]);
        }
        return cells;
    }

    /** rows, agrees, disagrees, no claim, failed. */
    private static int[] counts(List<ExperimentRow> rows) {
        int[] counts = new int[5];
        for (ExperimentRow row : rows) {
            counts[0]++;
            counts[1 + row.verdict().ordinal()]++; // AGREES, DISAGREES, NO_CLAIM, FAILED in that order
        }
        return counts;
    }

    static String summary(List<ExperimentRow> rows) {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        rows.forEach(r -> counts.merge(r.verdict(), 1, Integer::sum));
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
        if (row.published().deltaPercent().isPresent()) {
            return percent(row.published().deltaPercent().getAsDouble());
        }
        return switch (row.published().direction()) {
            case NONE -> "";
            case RIGHT_BETTER -> "better";
            case NOT_WORSE -> "not worse";
            case NEUTRAL -> "neutral";
        };
    }
}
