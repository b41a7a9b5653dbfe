package io.spinlab.reports.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Renders {@link BenchPair}s as a Markdown table with aligned columns, readable in a terminal and
 * pasteable into a Markdown file:
 *
 * <pre>
 * | benchmark | spinlab | spinlab score | peer | peer score | spinlab/peer | 99 % CI      | verdict | ...
 * |-----------|---------|--------------:|------|-----------:|-------------:|--------------|---------| ...
 * | Lock.c    | mon     |  30.0 ± 3.000 | rl   | 20.0 ± 1.5 |        1.500 | 1.380..1.631 | faster  | ...
 * </pre>
 *
 * Scores carry JMH's error (99.9 % confidence half-width); the ratio its {@value BenchPair#CONFIDENCE}
 * interval ({@link BenchPair#ratioInterval()}) and the verdict it supports: "inconclusive" when the
 * interval spans 1. Then each side's CPU cost ({@link CostProfiler}): CPU ns per op, cores busy, and
 * the fairness of per-thread acquisitions where the benchmark counts them, spinlab / peer. An error
 * JMH could not compute is left out, a value not measured or a missing side shows {@value #MISSING}.
 */
public final class BenchTable {

    /** What a cell shows for a side a filter left out, or a value not measured. */
    public static final String MISSING = "—";

    static final List<String> HEADER = List.of("benchmark", "spinlab", "spinlab score", "peer", "peer score",
            "spinlab/peer", "99 % CI", "verdict", "CPU ns/op s / p", "cores s / p", "fairness s / p", "unit");
    /** Columns holding numbers, aligned right. */
    private static final List<Integer> NUMERIC = List.of(2, 4, 5, 8, 9, 10);
    private static final int SCORE_DECIMALS = 3;
    private static final int RATIO_DECIMALS = 3;

    private BenchTable() {
    }

    /** The table, one line per pair after the header and separator lines, each ending in a newline. */
    public static String format(List<BenchPair> pairs) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (BenchPair pair : pairs) {
            rows.add(row(pair));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int c = 0; c < widths.length; c++) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        appendRow(out, rows.get(0), widths);
        appendSeparator(out, widths);
        for (List<String> row : rows.subList(1, rows.size())) {
            appendRow(out, row, widths);
        }
        return out.toString();
    }

    static List<String> row(BenchPair pair) {
        BenchScore spinlab = pair.spinlab();
        BenchScore peer = pair.peer();
        String unit = spinlab != null ? spinlab.unit() : peer.unit();
        double[] interval = pair.ratioInterval();
        boolean paired = !Double.isNaN(pair.ratio());
        return List.of(
                pair.description(),
                spinlab == null ? MISSING : spinlab.name().subject(),
                spinlab == null ? MISSING : value(spinlab.score(), spinlab.error(), SCORE_DECIMALS),
                peer == null ? MISSING : peer.name().subject(),
                peer == null ? MISSING : value(peer.score(), peer.error(), SCORE_DECIMALS),
                paired ? number(pair.ratio(), RATIO_DECIMALS) : MISSING,
                Double.isNaN(interval[0]) ? MISSING
                        : number(interval[0], RATIO_DECIMALS) + ".." + number(interval[1], RATIO_DECIMALS),
                paired ? pair.verdict().text() : MISSING,
                sides(spinlab, peer, BenchScore::cpuNanosPerOp, 1),
                sides(spinlab, peer, BenchScore::cpuCores, 2),
                sides(spinlab, peer, BenchScore::fairness, 2),
                unit);
    }

    /** {@code spinlab / peer} of one measured figure; {@value #MISSING} where neither side has it. */
    private static String sides(BenchScore spinlab, BenchScore peer, ToDoubleFunction<BenchScore> figure,
            int decimals) {
        String left = spinlab == null ? MISSING : number(figure.applyAsDouble(spinlab), decimals);
        String right = peer == null ? MISSING : number(figure.applyAsDouble(peer), decimals);
        if (left.equals(MISSING) && right.equals(MISSING)) {
            return MISSING;
        }
        return left + " / " + right;
    }

    private static String number(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return MISSING;
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** {@code value ± error} with {@code decimals} decimals; only the value when the error is NaN. */
    static String value(double value, double error, int decimals) {
        String format = "%." + decimals + "f";
        String text = String.format(Locale.ROOT, format, value);
        if (Double.isNaN(error) || Double.isInfinite(error)) {
            return text;
        }
        return text + " ± " + String.format(Locale.ROOT, format, error);
    }

    private static void appendRow(StringBuilder out, List<String> row, int[] widths) {
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            String cell = row.get(c);
            String padding = " ".repeat(widths[c] - cell.length());
            out.append(' ');
            if (NUMERIC.contains(c)) {
                out.append(padding).append(cell);
            } else {
                out.append(cell).append(padding);
            }
            out.append(" |");
        }
        out.append('\n');
    }

    private static void appendSeparator(StringBuilder out, int[] widths) {
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            if (NUMERIC.contains(c)) {
                out.append("-".repeat(widths[c] + 1)).append(':');
            } else {
                out.append("-".repeat(widths[c] + 2));
            }
            out.append('|');
        }
        out.append('\n');
    }
}
