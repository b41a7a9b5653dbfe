package io.spinlab.sim.experiment;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The mechanisms found for rows that disagree with their published direction, in words, read
 * from {@code mechanisms.json} beside this class (taken from {@code simulator/EXPERIMENTS.md}).
 * The first entry whose experiment, and machine, workload and parameters where given, match a
 * row explains it. A report shows the text next to each disagreeing row.
 */
public final class Mechanisms {

    /** The resource the standard mechanisms are read from. */
    public static final String RESOURCE = "mechanisms.json";

    private static volatile Mechanisms standard;

    private final List<Entry> entries;

    /**
     * One explanation.
     *
     * @param experiment the experiment it is about
     * @param machine    the machine, or empty for every machine
     * @param workload   the workload, or empty for every workload
     * @param where      the parameters it is about
     * @param text       the mechanism in words
     */
    public record Entry(String experiment, Optional<String> machine, Optional<String> workload,
                        Map<String, List<String>> where, String text) {
    }

    private Mechanisms(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** The mechanisms of {@value #RESOURCE}, read once. */
    public static Mechanisms standard() {
        Mechanisms m = standard;
        if (m == null) {
            m = parse(PublishedFigures.resource(RESOURCE));
            standard = m;
        }
        return m;
    }

    /**
     * Reads mechanisms from JSON text.
     *
     * @throws IllegalArgumentException when the text is not such a file, naming what is wrong
     */
    public static Mechanisms parse(String json) {
        JsonNode root = PublishedFigures.readTree(json, "mechanisms");
        JsonNode list = root.path("mechanisms");
        if (!list.isArray()) {
            throw new IllegalArgumentException("mechanisms: 'mechanisms' must be an array");
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode n : list) {
            String experiment = n.path("experiment").asText("");
            String text = n.path("text").asText("");
            if (experiment.isBlank() || text.isBlank()) {
                throw new IllegalArgumentException("mechanisms: 'experiment' and 'text' are required in " + n);
            }
            entries.add(new Entry(experiment, optional(n, "machine"), optional(n, "workload"),
                    PublishedFigures.where(n), text));
        }
        return new Mechanisms(entries);
    }

    /** Every entry, in file order. */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * The mechanism found for a row of {@code experiment} on {@code machine} running {@code workload}
     * with {@code parameters} ({@code key=value,...}), if one is recorded.
     */
    public Optional<String> explain(String experiment, String machine, String workload, String parameters) {
        Map<String, String> values = PublishedFigures.parameters(parameters);
        for (Entry e : entries) {
            if (e.experiment().equals(experiment) && e.machine().map(machine::equals).orElse(true)
                    && e.workload().map(workload::equals).orElse(true) && PublishedFigures.matches(e.where(), values)) {
                return Optional.of(e.text());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> optional(JsonNode node, String field) {
        String value = node.path(field).asText("");
        return value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
