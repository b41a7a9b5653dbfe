package io.spinlab.reports.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.Citation;
import io.spinlab.sim.experiment.DirectionAgreement;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.LevelAgreement;
import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.experiment.Spread;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A report as JSON ({@code data.json} of a report directory): every raw result, for tools.
 *
 * <p>Shape: {@code {"provenance": {...}, "experiments": [{"name", "description", "leftTuning",
 * "rightTuning", "publishedSummary", "publishedTotals", "tables", "rows": [...]}]}}; a row has
 * the experiment, workload, its label and parameters (as text and as an object), the thread
 * count, the machine's name and key figures, the seed, the mode, both tunings and scores, Δ %,
 * the published claim, the verdict, both runs' metrics and the failure if any; and over the
 * seeds: {@code seeds}, {@code leftScores}, {@code rightScores} and {@code deltaPercents} (one
 * per seed), {@code leftSpread}, {@code rightSpread} and {@code deltaSpread} ({@code median},
 * {@code min}, {@code max}, {@code low95}, {@code high95}; the scores are the medians; Δ's spread
 * is null with one seed) and {@code neutral}; {@code wallMillis}, the real time the row's runs took
 * (both sides, every seed, a longer window's rerun included: what the row cost to compute, not a
 * simulated figure). A number without
 * a value (a failed run's score, the Δ % of a left score of 0) is {@code null}, never {@code NaN}.
 */
public final class JsonReport {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    /** Rows that agree and rows that agree or disagree, the share and its Wilson interval (nulls without such rows). */
    private static void directions(ObjectNode node, DirectionAgreement directions) {
        node.put("agree", directions.agree());
        node.put("decided", directions.decided());
        number(node, "share", directions.share());
        number(node, "low95", directions.interval().low());
        number(node, "high95", directions.interval().high());
    }

    /** The JSON text of {@code data}, indented, ending in a newline. */
    public static String render(ReportData data) {
        ObjectNode root = MAPPER.createObjectNode();
        provenance(root.putObject("provenance"), data);
        ArrayNode experiments = root.putArray("experiments");
        for (ReportSection section : data.sections()) {
            ObjectNode node = experiments.addObject();
            node.put("name", section.name());
            node.put("description", section.description());
            node.put("leftTuning", section.leftTuning());
            node.put("rightTuning", section.rightTuning());
            ArrayNode summary = node.putArray("publishedSummary");
            section.publishedSummary().forEach(summary::add);
            directions(node.putObject("directions"), section.directions());
            if (section.hasPublishedLevels()) {
                levels(node.putObject("levels"), section.levels());
            }
            ObjectNode totals = node.putObject("publishedTotals");
            section.publishedTotals().forEach((machine, p) -> published(totals.putObject(machine), p));
            ArrayNode tables = node.putArray("tables");
            for (ResultTable table : section.tables()) {
                ObjectNode t = tables.addObject();
                if (table.machine().isPresent()) {
                    t.put("machine", table.machine().get());
                } else {
                    t.putNull("machine");
                }
                Total total = table.total();
                t.put("totalRows", total.rows());
                t.put("totalExcluded", total.excluded());
                number(t, "totalLeftScore", total.leftScore());
                number(t, "totalRightScore", total.rightScore());
                number(t, "totalDeltaPercent", total.deltaPercent());
                if (table.publishedTotal().isPresent()) {
                    published(t.putObject("publishedTotal"), table.publishedTotal().get());
                    t.put("totalVerdict", table.totalVerdict().name());
                } else {
                    t.putNull("publishedTotal");
                }
            }
            ArrayNode rows = node.putArray("rows");
            section.rows().forEach(row -> row(rows.addObject(), row));
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a report tree did not serialize", e);
        }
    }

    private static void provenance(ObjectNode node, ReportData data) {
        Provenance p = data.provenance();
        node.put("command", p.command());
        ArrayNode seeds = node.putArray("seeds");
        data.seeds().forEach(seeds::add);
        node.put("mode", data.mode());
        node.put("version", p.version());
        node.put("commit", p.commit());
        node.put("jdk", p.jdk());
        node.put("date", p.date().toString());
        node.put("wallTimeMillis", p.wallTime().toMillis());
    }

    private static void row(ObjectNode node, ReportRow row) {
        ExperimentRow r = row.result();
        node.put("experiment", r.experiment());
        node.put("workload", r.workload());
        node.put("label", row.label());
        node.put("parameters", r.parameters());
        ObjectNode parameters = node.putObject("workloadParameters");
        row.parameters().forEach(parameters::put);
        MachineProfile machine = row.machine();
        node.put("machine", r.machine());
        ObjectNode m = node.putObject("machineProfile");
        m.put("pauseCycles", machine.pauseCycles());
        m.put("logicalProcessors", machine.logicalProcessors());
        m.put("physicalCores", machine.physicalCores());
        m.put("frequencyGhz", machine.frequencyGhz());
        node.put("seed", row.seed());
        node.put("memoryModel", r.memoryModel());
        node.put("leftTuning", r.leftTuning());
        number(node, "leftScore", r.leftScore());
        node.put("rightTuning", r.rightTuning());
        number(node, "rightScore", r.rightScore());
        number(node, "deltaPercent", r.deltaPercent());
        published(node.putObject("published"), r.published());
        node.put("verdict", r.verdict().name());
        if (row.mechanism().isPresent()) {
            node.put("mechanism", row.mechanism().get());
        } else {
            node.putNull("mechanism");
        }
        metrics(node.putObject("leftMetrics"), r.leftMetrics());
        metrics(node.putObject("rightMetrics"), r.rightMetrics());
        if (r.failure().isPresent()) {
            node.put("failure", r.failure().get());
        } else {
            node.putNull("failure");
        }
        r.leftOverPublished().ifPresent(v -> number(node, "leftOverPublished", v));
        if (r.errorFactor().isPresent()) {
            node.put("errorFactor", r.errorFactor().getAsDouble());
        } else {
            node.putNull("errorFactor");
        }
        node.put("leftOperations", r.leftOperations());
        node.put("rightOperations", r.rightOperations());
        if (r.notMeasurable().isPresent()) {
            node.put("notMeasurable", r.notMeasurable().get());
        } else {
            node.putNull("notMeasurable");
        }
        if (r.windowExtended().isPresent()) {
            node.put("windowExtended", r.windowExtended().get());
        } else {
            node.putNull("windowExtended");
        }
        if (r.rateChanging().isPresent()) {
            node.put("rateChanging", r.rateChanging().get());
        } else {
            node.putNull("rateChanging");
        }
        if (row.windowShortOfProtocol().isPresent()) {
            node.put("windowShortOfProtocol", row.windowShortOfProtocol().get());
        } else {
            node.putNull("windowShortOfProtocol");
        }
        ArrayNode seeds = node.putArray("seeds");
        r.seeds().forEach(seeds::add);
        numbers(node.putArray("leftScores"), r.leftScores());
        numbers(node.putArray("rightScores"), r.rightScores());
        numbers(node.putArray("deltaPercents"), r.deltaPercents());
        numbers(node.putArray("leftHalvesRatios"), r.leftHalvesRatios());
        numbers(node.putArray("rightHalvesRatios"), r.rightHalvesRatios());
        spread(node, "leftSpread", r.leftSpread());
        spread(node, "rightSpread", r.rightSpread());
        spread(node, "deltaSpread", r.deltaSpread());
        node.put("neutral", r.neutral());
        node.put("wallMillis", r.wallMillis());
    }

    private static void numbers(ArrayNode array, List<Double> values) {
        for (double v : values) {
            if (Double.isFinite(v)) {
                array.add(v);
            } else {
                array.addNull();
            }
        }
    }

    /** A spread as {median, min, max, low95, high95}, or null. */
    private static void spread(ObjectNode node, String field, Optional<Spread> spread) {
        if (spread.isEmpty()) {
            node.putNull(field);
            return;
        }
        Spread s = spread.get();
        ObjectNode o = node.putObject(field);
        number(o, "median", s.median());
        number(o, "min", s.min());
        number(o, "max", s.max());
        number(o, "low95", s.low95());
        number(o, "high95", s.high95());
    }

    private static void levels(ObjectNode node, LevelAgreement levels) {
        node.put("rows", levels.rows());
        number(node, "median", levels.median());
        number(node, "lowest", levels.lowest());
        number(node, "highest", levels.highest());
    }

    private static void published(ObjectNode node, Published published) {
        node.put("direction", published.direction().name());
        if (published.deltaPercent().isPresent()) {
            number(node, "deltaPercent", published.deltaPercent().getAsDouble());
        } else {
            node.putNull("deltaPercent");
        }
        node.put("source", published.source());
        optionalNumber(node, "leftScore", published.leftScore());
        optionalNumber(node, "rightScore", published.rightScore());
        published.leftPerMs().ifPresent(v -> number(node, "leftPerMs", v));
        if (published.citation().isPresent()) {
            Citation c = published.citation().get();
            ObjectNode o = node.putObject("citation");
            o.put("repository", c.repository());
            o.put("pullRequest", c.pullRequest());
            o.put("postedIn", c.postedIn());
            o.put("url", c.url());
            o.put("author", c.author());
            o.put("date", c.date());
            o.put("machine", c.machine());
            o.put("note", c.note());
        } else {
            node.putNull("citation");
        }
    }

    private static void optionalNumber(ObjectNode node, String field, OptionalDouble value) {
        if (value.isPresent()) {
            number(node, field, value.getAsDouble());
        } else {
            node.putNull(field);
        }
    }

    private static void metrics(ObjectNode node, Map<String, Double> metrics) {
        metrics.forEach((name, value) -> number(node, name, value));
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, value);
        } else {
            node.putNull(field);
        }
    }
}
