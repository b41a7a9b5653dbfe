package io.spinlab.reports.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with aligned columns: numbers right-aligned, text left-aligned. */
public final class TextTable {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    /** Adds a row; it must have one cell per header. */
    public TextTable row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, the table " + headers.size()
                    + " columns");
        }
        rows.add(List.of(cells));
        return this;
    }

    public String render() {
        int[] widths = new int[headers.size()];
        boolean[] numeric = new boolean[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            numeric[c] = !rows.isEmpty();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
                numeric[c] &= looksNumeric(row.get(c));
            }
        }
        StringBuilder out = new StringBuilder();
        appendRow(out, headers, widths, numeric);
        for (int c = 0; c < widths.length; c++) {
            out.append(c == 0 ? "" : "  ").append("-".repeat(widths[c]));
        }
        stripTrailing(out);
        out.append('\n');
        for (List<String> row : rows) {
            appendRow(out, row, widths, numeric);
        }
        return out.toString();
    }

    private static void appendRow(StringBuilder out, List<String> cells, int[] widths, boolean[] numeric) {
        for (int c = 0; c < widths.length; c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            out.append(c == 0 ? "" : "  ").append(numeric[c] ? pad + cell : cell + pad);
        }
        stripTrailing(out);
        out.append('\n');
    }

    private static void stripTrailing(StringBuilder out) {
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
    }

    private static boolean looksNumeric(String cell) {
        return cell.matches("[-+]?[0-9][0-9.,/%×x+-]*");
    }
}
