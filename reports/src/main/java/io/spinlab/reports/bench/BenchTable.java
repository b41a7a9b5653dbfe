package io.spinlab.reports.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders {@link BenchPair}s as a Markdown table with aligned columns, readable in a terminal and
 * pasteable into a Markdown file:
 *
 * <pre>
 * | benchmark               | spinlab     | spinlab score | peer          |    peer score |  spinlab/peer | unit   |
 * |-------------------------|-------------|--------------:|---------------|--------------:|--------------:|--------|
 * | LockBenchmark.contended | monitorLock | 3.000 ± 0.300 | reentrantLock | 2.000 ± 0.150 | 1.500 ± 0.188 | ops/us |
 * </pre>
 *
 * Scores carry JMH's error (99.9 % confidence half-width), the ratio the propagated error
 * ({@link BenchPair#ratioError()}); an error JMH could not compute is left out, a missing side
 * shows {@value #MISSING}.
 */
public final class BenchTable {

    /** What a cell shows for a side a filter left out. */
    public static final String MISSING = "—";

    static final List<String> HEADER = List.of("benchmark", "spinlab", "spinlab score", "peer", "peer score",
            "spinlab/peer", "unit");
    /** Columns holding numbers, aligned right. */
    private static final List<Integer> NUMERIC = List.of(2, 4, 5);
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
        return List.of(
                pair.description(),
                spinlab == null ? MISSING : spinlab.name().subject(),
                spinlab == null ? MISSING : value(spinlab.score(), spinlab.error(), SCORE_DECIMALS),
                peer == null ? MISSING : peer.name().subject(),
                peer == null ? MISSING : value(peer.score(), peer.error(), SCORE_DECIMALS),
                Double.isNaN(pair.ratio()) ? MISSING : value(pair.ratio(), pair.ratioError(), RATIO_DECIMALS),
                unit);
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
