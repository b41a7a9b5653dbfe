package io.spinlab.junit;

import io.spinlab.sim.engine.SchedulingPoint;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.trace.Picos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a failing simulated test prints: the machine as command-line options, the tuning and the
 * seed, how to replay exactly this invocation, the trace file, and the last scheduling points
 * before the failure as a table with one column per thread.
 */
final class FailureReport {

    /** Widest a table cell gets; longer texts are cut with "...". */
    static final int CELL_WIDTH = 72;

    private FailureReport() {
    }

    /**
     * The report.
     *
     * @param name  the test, e.g. {@code LockTest.exclusive [skylake-i7-6700, seed 3]}
     * @param sim   the invocation's simulation (run or not)
     * @param trace where the trace was written, or null
     */
    static String render(String name, Sim sim, Path trace) {
        StringBuilder out = new StringBuilder();
        out.append("spinlab: ").append(name).append(" failed on a simulated machine\n");
        out.append("  machine: ").append(Machines.commandLine(sim.machine())).append('\n');
        out.append("  tuning:  ").append(sim.tuning().describe()).append("   seed: ").append(sim.seed()).append('\n');
        out.append("  replay:  -D").append(SimulationExtension.MACHINE_PROPERTY).append("=\"").append(sim.machineLine())
                .append("\" -D").append(SimulationExtension.SEED_PROPERTY).append('=').append(sim.seed())
                .append(" (runs only this machine and seed)\n");
        if (!sim.hasRun()) {
            out.append("  run:     the test failed before sim.run(); nothing was simulated\n");
            return out.toString();
        }
        SimulationResult result = sim.result();
        out.append("  run:     ").append(result.completed()
                ? "completed at t=" + Picos.format(result.endPicos()) + "; the failing check came after it"
                : firstLine(result.report())).append('\n');
        if (trace != null) {
            out.append("  trace:   ").append(trace).append(" (open it in https://ui.perfetto.dev)\n");
        }
        if (!sim.sawContention()) {
            out.append("  no contention: no thread spun, yielded, parked or waited for a processor, and no access ")
                    .append("waited for a cache line; the test may not test what it meant to\n");
        }
        List<SchedulingPoint> points = result.schedulingPoints();
        if (!points.isEmpty()) {
            out.append("  last ").append(points.size()).append(" scheduling points")
                    .append(result.completed() ? " of the run" : " before the failure")
                    .append(" (virtual time; one column per thread):\n");
            out.append(table(points));
        }
        return out.toString();
    }

    /** The points as rows in time order, each in its thread's column. */
    static String table(List<SchedulingPoint> points) {
        Map<Integer, String> threads = new TreeMap<>();
        for (SchedulingPoint p : points) {
            threads.putIfAbsent(p.threadIndex(), p.thread());
        }
        List<Integer> columns = new ArrayList<>(threads.keySet());
        int[] widths = new int[columns.size()];
        for (int c = 0; c < columns.size(); c++) {
            widths[c] = Math.min(CELL_WIDTH, threads.get(columns.get(c)).length());
        }
        int timeWidth = "time".length();
        for (SchedulingPoint p : points) {
            int c = columns.indexOf(p.threadIndex());
            widths[c] = Math.max(widths[c], Math.min(CELL_WIDTH, p.text().length()));
            timeWidth = Math.max(timeWidth, Picos.format(p.picos()).length());
        }
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>();
        for (Integer column : columns) {
            header.add(threads.get(column));
        }
        row(out, timeWidth, "time", widths, header);
        StringBuilder rule = new StringBuilder("    ").append("-".repeat(timeWidth));
        for (int width : widths) {
            rule.append("-+-").append("-".repeat(width));
        }
        out.append(rule).append('\n');
        for (SchedulingPoint p : points) {
            List<String> cells = new ArrayList<>();
            for (Integer column : columns) {
                cells.add(column == p.threadIndex() ? p.text() : "");
            }
            row(out, timeWidth, Picos.format(p.picos()), widths, cells);
        }
        return out.toString();
    }

    private static void row(StringBuilder out, int timeWidth, String time, int[] widths, List<String> cells) {
        StringBuilder line = new StringBuilder("    ").append(pad(time, timeWidth));
        for (int c = 0; c < widths.length; c++) {
            line.append(" | ").append(pad(cut(cells.get(c)), widths[c]));
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static String cut(String text) {
        return text.length() <= CELL_WIDTH ? text : text.substring(0, CELL_WIDTH - 3) + "...";
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return (nl < 0 ? text : text.substring(0, nl)).stripTrailing();
    }
}
