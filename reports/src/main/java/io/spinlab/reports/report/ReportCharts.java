package io.spinlab.reports.report;

import org.jfree.chart.JFreeChart;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which charts a report section gets, and the charts themselves:
 * <ul>
 *   <li>{@link Kind#SCORES}: score against thread count for both tunings, one chart per machine,
 *       workload and variant (e.g. with or without a delay, each on its own scale) whose rows try
 *       at least two thread multiples (e.g. {@code mres-proc-scaling}); not for a what-if sweep,
 *       whose machines are the heat map's axes;</li>
 *   <li>{@link Kind#HEATMAP}: for the what-if sweeps ({@link #WHAT_IF_EXPERIMENTS}: reproduce's
 *       {@code future-cpus} and the {@code whatif} command's), the Δ % over PAUSE cycles ×
 *       processors, one map per workload and thread count;</li>
 *   <li>{@link Kind#EVENTS}: events read and dropped, for an experiment whose rows count them
 *       (the event buffer manager's {@code eventpipe-lockless}).</li>
 * </ul>
 */
public final class ReportCharts {

    /** The experiments whose rows sweep PAUSE cycles × processors on parts that do not exist. */
    public static final Set<String> WHAT_IF_EXPERIMENTS = Set.of("future-cpus", "whatif");

    /** What a chart shows. */
    public enum Kind {
        /** Score against thread count, both tunings. */
        SCORES,
        /** Δ % over PAUSE cycles × processors. */
        HEATMAP,
        /** Events read and dropped per machine and tuning. */
        EVENTS;

        /** The kind as pages name it: {@code scores}, {@code heatmap}, {@code events}. */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One chart of a section.
     *
     * @param kind    what it shows
     * @param id      its id, unique within a report
     * @param caption one sentence under it
     * @param chart   the chart
     * @param width   its width, SVG user units
     * @param height  its height
     */
    public record Figure(Kind kind, String id, String caption, JFreeChart chart, int width, int height) {

        public Figure {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(caption, "caption");
            Objects.requireNonNull(chart, "chart");
        }

        /** The chart as an {@code <svg>} element; see {@link ChartSvg}. */
        public String svg() {
            return ChartSvg.render(chart, id, width, height);
        }
    }

    private ReportCharts() {
    }

    /** The charts of {@code section}, in page order; ids start with the section's name. */
    public static List<Figure> of(ReportSection section) {
        List<Figure> figures = new ArrayList<>();
        String prefix = idPart(section.name());
        if (!WHAT_IF_EXPERIMENTS.contains(section.name())) {
            addScores(figures, prefix, section);
        } else {
            // A sweep's machines are its axes: a score chart per machine would bury its heat maps.
            for (String workload : workloads(section)) {
                List<ReportRow> ofWorkload = section.rows().stream()
                        .filter(r -> r.result().workload().equals(workload)).toList();
                // One map per thread count and variant (a swept parameter's value): each cell of a map is one
                // (PAUSE, processors) machine.
                boolean variants = ofWorkload.stream().map(ReportRow::variant).distinct().count() > 1;
                for (String key : ofWorkload.stream().map(ReportCharts::mapKey).distinct().toList()) {
                    List<ReportRow> rows = ofWorkload.stream().filter(r -> mapKey(r).equals(key)).toList();
                    String title = workload + (variants ? " " + rows.getFirst().variant().replace(',', ' ') : "");
                    figures.add(heatmap(prefix + "-heatmap-" + (figures.size() + 1), title, section, rows));
                }
            }
        }
        List<ReportRow> eventRows = Charts.eventRows(section.rows());
        if (!eventRows.isEmpty()) {
            figures.add(new Figure(Kind.EVENTS, prefix + "-events-" + (figures.size() + 1),
                    "Events read and dropped in the measured window: left " + section.leftTuning() + ", right "
                            + section.rightTuning() + ".",
                    Charts.eventsReadAndDropped("Events read and dropped", section.rows()), 640,
                    140 + 60 * eventRows.size()));
        }
        return figures;
    }

    private static void addScores(List<Figure> figures, String prefix, ReportSection section) {
        for (String machine : section.machines()) {
            for (String workload : workloads(section)) {
                List<ReportRow> onMachine = section.rows().stream().filter(r -> r.result().machine().equals(machine)
                        && r.result().workload().equals(workload) && r.threadMultiple().isPresent()).toList();
                for (String variant : onMachine.stream().map(ReportRow::variant).distinct().toList()) {
                    List<ReportRow> rows = onMachine.stream().filter(r -> r.variant().equals(variant)).toList();
                    if (rows.stream().map(r -> r.threadMultiple().orElseThrow()).distinct().count() < 2) {
                        continue;
                    }
                    String title = workload + (variant.isEmpty() ? "" : " " + variant.replace(',', ' ')) + " on "
                            + machine;
                    figures.add(new Figure(Kind.SCORES, prefix + "-scores-" + (figures.size() + 1),
                            "Score against thread count: left " + section.leftTuning() + ", right "
                                    + section.rightTuning() + ".",
                            Charts.scoresByThreads(title, rows), 640, 360));
                }
            }
        }
    }

    private static Figure heatmap(String id, String workload, ReportSection section, List<ReportRow> rows) {
        List<Integer> pauseCycles = List.copyOf(new TreeSet<>(rows.stream().map(r -> r.machine().pauseCycles())
                .toList()));
        List<Integer> processors = List.copyOf(new TreeSet<>(rows.stream()
                .map(r -> r.machine().logicalProcessors()).toList()));
        double[][] values = new double[pauseCycles.size()][processors.size()];
        for (double[] row : values) {
            Arrays.fill(row, Double.NaN);
        }
        for (ReportRow row : rows) {
            values[pauseCycles.indexOf(row.machine().pauseCycles())][processors.indexOf(
                    row.machine().logicalProcessors())] = row.result().deltaPercent();
        }
        String threads = rows.stream().map(r -> r.parameters().get("threads")).filter(Objects::nonNull).findFirst()
                .map(t -> " at " + t + " threads").orElse("");
        return new Figure(Kind.HEATMAP, id, "Δ % of " + section.rightTuning() + " against " + section.leftTuning()
                + ": green where the right tuning wins, red where it loses, grey where a run failed.",
                Charts.heatmap(workload + threads + ": Δ %", pauseCycles, processors, values),
                Charts.heatmapWidth(processors.size()), Charts.heatmapHeight(pauseCycles.size()));
    }

    private static String mapKey(ReportRow row) {
        return row.parameters().get("threads") + "|" + row.variant();
    }

    private static List<String> workloads(ReportSection section) {
        return section.rows().stream().map(r -> r.result().workload()).distinct().toList();
    }

    /** {@code name} as a piece of an XML id: letters, digits and {@code -}, starting with a letter. */
    static String idPart(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9-]", "-");
        return Optional.of(cleaned).filter(s -> !s.isEmpty() && Character.isLetter(s.charAt(0))).orElse("x" + cleaned);
    }
}
