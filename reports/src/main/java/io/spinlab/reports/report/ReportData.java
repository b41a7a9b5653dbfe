package io.spinlab.reports.report;

import io.spinlab.sim.experiment.DirectionAgreement;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Fidelity;
import io.spinlab.sim.experiment.LevelAgreement;
import io.spinlab.sim.experiment.WindowShortfall;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Everything a report shows: the experiments that ran, with every row, and how they were
 * produced. {@link ReportWriter} writes it as Markdown, HTML, JSON and CSV.
 *
 * <pre>{@code
 * Map<Experiment, List<ExperimentRow>> results = ...; // Experiment.run for each experiment
 * ReportData data = ReportData.of(results, Provenance.capture(args, wallTime, Clock.systemUTC()));
 * ReportWriter.write(Path.of("spinlab-report"), data);
 * }</pre>
 *
 * <p>Immutable.
 *
 * @param title      the report's heading, e.g. {@value #REPRODUCE_TITLE}
 * @param lead       its first sentence: what the rows are
 * @param sections   one per experiment, in run order
 * @param provenance how the report was produced
 */
public record ReportData(String title, String lead, List<ReportSection> sections, Provenance provenance) {

    /** The heading of {@code spinlab reproduce}'s report. */
    public static final String REPRODUCE_TITLE = "spinlab reproduce";
    /** The first sentence of {@code spinlab reproduce}'s report. */
    public static final String REPRODUCE_LEAD = "The published before/after results re-created on simulated machines.";

    public ReportData {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(lead, "lead");
        sections = List.copyOf(sections);
        Objects.requireNonNull(provenance, "provenance");
    }

    /** A report of {@code spinlab reproduce}: its title and lead. */
    public ReportData(List<ReportSection> sections, Provenance provenance) {
        this(REPRODUCE_TITLE, REPRODUCE_LEAD, sections, provenance);
    }

    /**
     * The report of experiments that ran: each experiment with the rows its {@link Experiment#run}
     * returned, in the map's order.
     *
     * @throws IllegalArgumentException if some rows do not match their experiment's plan
     */
    public static ReportData of(Map<Experiment, List<ExperimentRow>> results, Provenance provenance) {
        return of(REPRODUCE_TITLE, REPRODUCE_LEAD, results, provenance);
    }

    /** The same with another heading and lead sentence (e.g. {@code spinlab whatif}'s). */
    public static ReportData of(String title, String lead, Map<Experiment, List<ExperimentRow>> results,
            Provenance provenance) {
        List<ReportSection> sections = new ArrayList<>();
        results.forEach((experiment, rows) -> sections.add(ReportSection.of(experiment, rows)));
        return new ReportData(title, lead, sections, provenance);
    }

    /** Every row of every section, in report order. */
    public Stream<ReportRow> rows() {
        return sections.stream().flatMap(s -> s.rows().stream());
    }

    /**
     * {@link #directions()} in words, then each experiment's that has a row agreeing or disagreeing:
     * {@code 47 of 94 agree (…); mres-proc-scaling: 13 of 16 agree (…); …}.
     */
    public String directionsBySection() {
        return withSections(directions().describe(), s -> s.directions().decided() > 0
                ? Optional.of(s.directions().describe()) : Optional.empty());
    }

    /** {@link #fidelity()} in words, then each experiment's that has a published figure, as above. */
    public String fidelityBySection() {
        return withSections(fidelity().describe(), s -> s.fidelity().rows() > 0
                ? Optional.of(s.fidelity().describe()) : Optional.empty());
    }

    /**
     * {@link #levels()} in words, then each experiment's that has a published left score, as above;
     * only meaningful where {@link #hasPublishedLevels()}.
     */
    public String levelsBySection() {
        return withSections(levels().describe(), s -> s.hasPublishedLevels()
                ? Optional.of(s.levels().describe()) : Optional.empty());
    }

    /** Whether any row has a published left score in spinlab's unit. */
    public boolean hasPublishedLevels() {
        return sections.stream().anyMatch(ReportSection::hasPublishedLevels);
    }

    /** How all rows' simulated left scores compare with the published ones, where printed. */
    public LevelAgreement levels() {
        return LevelAgreement.of(rows().map(ReportRow::result).toList());
    }

    /** {@code overall}, then {@code "; name: part"} for each section that has a part, in report order. */
    private String withSections(String overall, Function<ReportSection, Optional<String>> part) {
        StringBuilder text = new StringBuilder(overall);
        for (ReportSection section : sections) {
            part.apply(section).ifPresent(p -> text.append("; ").append(section.name()).append(": ").append(p));
        }
        return text.toString();
    }

    /** How many of all rows that agree or disagree with the published direction agree. */
    public DirectionAgreement directions() {
        return DirectionAgreement.of(rows().map(ReportRow::result).toList());
    }

    /** How close all rows come to their published figures. */
    public Fidelity fidelity() {
        return Fidelity.of(rows().map(ReportRow::result).toList());
    }

    /** How many rows were measured in windows short of the measurement protocol, and how many verdicts rest on them. */
    public WindowShortfall windowShortfall() {
        Map<ExperimentRow, Double> slices = new java.util.IdentityHashMap<>();
        rows().forEach(r -> slices.put(r.result(), r.machine().timeSliceNs()));
        return WindowShortfall.of(slices.keySet(), slices::get);
    }

    /** The distinct seeds of the rows' runs, ascending. */
    public List<Long> seeds() {
        return rows().flatMap(r -> r.result().seeds().stream()).distinct().sorted().toList();
    }

    /** Whether any experiment ran with run-to-run noise (see {@code Experiment.withNoise}). */
    public boolean noise() {
        return sections.stream().anyMatch(ReportSection::noise);
    }

    /**
     * Which cost model produced the rows, in words: the full one (shared memory and the
     * instructions between Platform calls cost time), fast mode (only Platform calls do), or both.
     */
    public String mode() {
        boolean on = rows().anyMatch(r -> r.result().memoryModel());
        boolean off = rows().anyMatch(r -> !r.result().memoryModel());
        String noiseText = !noise() ? ""
                : "; run-to-run noise on (wake latency, PAUSE and clock-read costs, timer phase"
                        + (on ? ", where in its transfer a contended cache line changes hands)" : ")");
        if (on && off) {
            return "mixed: some rows in the full cost model, some in fast mode" + noiseText;
        }
        if (on) {
            return "full cost model (every volatile and VarHandle access and every bytecode instruction of the "
                    + "primitives costs time)" + noiseText;
        }
        return "FAST MODE: only Platform calls cost time (shared memory and the code between calls are free)"
                + noiseText;
    }
}
