package io.spinlab.reports.report;

import io.spinlab.sim.experiment.DirectionAgreement;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Fidelity;
import io.spinlab.sim.experiment.LevelAgreement;
import io.spinlab.sim.experiment.PlannedRow;
import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.experiment.Verdict;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One experiment in a report: what it compares, its rows, and its tables.
 *
 * <p>Immutable.
 *
 * @param name             the experiment's name
 * @param description      what the experiment compares and where it was published
 * @param leftTuning       the left (older) tuning, as {@code Tuning.describe()} writes it
 * @param rightTuning      the right (newer) tuning
 * @param publishedSummary published claims about the experiment as a whole, one line each
 * @param publishedTotals  published totals by machine name
 * @param rows             every row, in plan order
 * @param noise            whether the runs had run-to-run noise on
 */
public record ReportSection(String name, String description, String leftTuning, String rightTuning,
                            List<String> publishedSummary, Map<String, Published> publishedTotals,
                            List<ReportRow> rows, boolean noise) {

    /** A section of runs without noise. */
    public ReportSection(String name, String description, String leftTuning, String rightTuning,
            List<String> publishedSummary, Map<String, Published> publishedTotals, List<ReportRow> rows) {
        this(name, description, leftTuning, rightTuning, publishedSummary, publishedTotals, rows, false);
    }

    /** How many of this experiment's rows that agree or disagree with the published direction agree. */
    public DirectionAgreement directions() {
        return DirectionAgreement.of(rows.stream().map(ReportRow::result).toList());
    }

    /** How close this experiment's rows come to their published figures. */
    public Fidelity fidelity() {
        return Fidelity.of(rows.stream().map(ReportRow::result).toList());
    }

    /** How this experiment's simulated left scores compare with the published ones, where printed. */
    public LevelAgreement levels() {
        return LevelAgreement.of(rows.stream().map(ReportRow::result).toList());
    }

    /** Whether any row has a published left score in spinlab's unit ({@link Published#leftPerMs()}). */
    public boolean hasPublishedLevels() {
        return rows.stream().anyMatch(r -> r.result().published().leftPerMs().isPresent());
    }

    /**
     * Most machines an experiment may span and still get one table per machine, as the published
     * tables are; an experiment over more (a what-if sweep over machines that do not exist) gets
     * one table that names the machine on every row.
     */
    public static final int MAX_TABLES_PER_MACHINE = 6;

    public ReportSection {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(leftTuning, "leftTuning");
        Objects.requireNonNull(rightTuning, "rightTuning");
        publishedSummary = List.copyOf(publishedSummary);
        publishedTotals = Collections.unmodifiableMap(new LinkedHashMap<>(publishedTotals));
        rows = List.copyOf(rows);
    }

    /**
     * The section of {@code experiment} whose run gave {@code results}, which must be the rows
     * {@link Experiment#run} returned: one per planned row, in plan order.
     *
     * @throws IllegalArgumentException if the results do not match the plan
     */
    public static ReportSection of(Experiment experiment, List<ExperimentRow> results) {
        List<PlannedRow> plan = experiment.rows();
        if (plan.size() != results.size()) {
            throw new IllegalArgumentException(experiment.name() + ": " + results.size() + " results for "
                    + plan.size() + " planned rows");
        }
        List<ReportRow> rows = new ArrayList<>(plan.size());
        for (int i = 0; i < plan.size(); i++) {
            PlannedRow planned = plan.get(i);
            ExperimentRow result = results.get(i);
            if (!planned.workload().name().equals(result.workload())
                    || !sameSettings(planned.workload().parameters(), result)) {
                throw new IllegalArgumentException(experiment.name() + ": result " + i + " (" + result.workload()
                        + " " + result.parameters() + ") is not planned row " + planned);
            }
            rows.add(new ReportRow(result, planned.machine(), planned.seed()));
        }
        return new ReportSection(experiment.name(), experiment.description(), experiment.left().describe(),
                experiment.right().describe(), experiment.publishedSummary(), experiment.publishedTotals(), rows,
                experiment.noise());
    }

    /**
     * Whether {@code result} ran the planned parameters: the same text, or, for a row run again
     * over a longer window, the same text apart from its warm-up and window.
     */
    private static boolean sameSettings(String planned, ExperimentRow result) {
        if (planned.equals(result.parameters())) {
            return true;
        }
        return result.windowExtended().isPresent() && withoutWindow(planned).equals(withoutWindow(result.parameters()));
    }

    private static List<String> withoutWindow(String parameters) {
        return java.util.Arrays.stream(parameters.split(","))
                .filter(p -> !p.startsWith("warmup=") && !p.startsWith("window=")).toList();
    }

    /** The machines of the rows, in order of first appearance. */
    public List<String> machines() {
        return rows.stream().map(r -> r.result().machine()).distinct().toList();
    }

    /**
     * The tables: one per machine, in order of first appearance, or a single one when the rows
     * span more than {@link #MAX_TABLES_PER_MACHINE} machines.
     */
    public List<ResultTable> tables() {
        List<String> machines = machines();
        if (machines.size() > MAX_TABLES_PER_MACHINE) {
            return List.of(new ResultTable(Optional.empty(), rows, Optional.empty()));
        }
        return machines.stream().map(m -> new ResultTable(Optional.of(m),
                rows.stream().filter(r -> r.result().machine().equals(m)).toList(),
                Optional.ofNullable(publishedTotals.get(m)))).toList();
    }

    /** How many rows have each verdict, in {@link Verdict} order, verdicts without rows left out. */
    public Map<Verdict, Integer> verdictCounts() {
        return Verdict.count(rows.stream().map(ReportRow::result).toList());
    }
}
