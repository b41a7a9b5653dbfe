package io.spinlab.reports.cli;

import io.spinlab.reports.report.ChartSvg;
import io.spinlab.reports.report.Charts;

import java.util.Arrays;
import java.util.List;

/**
 * A grid of Δ % values over PAUSE cycles (rows) × processors (columns), printable as a text
 * table and drawable as an SVG heat map: green where the right tuning wins, red where it loses,
 * white near zero, saturating at ±100 %.
 */
final class Heatmap {

    private final String title;
    private final List<Integer> rowKeys;
    private final List<Integer> columnKeys;
    private final double[][] values;
    /** Cells whose row counted too few operations on a side, or failed: no Δ, shown as {@code n/m}. */
    private final boolean[][] unmeasured;

    Heatmap(String title, List<Integer> pauseCycles, List<Integer> processors) {
        this.title = title;
        this.rowKeys = List.copyOf(pauseCycles);
        this.columnKeys = List.copyOf(processors);
        this.values = new double[rowKeys.size()][columnKeys.size()];
        this.unmeasured = new boolean[rowKeys.size()][columnKeys.size()];
        for (double[] row : values) {
            Arrays.fill(row, Double.NaN);
        }
    }

    void put(int pauseCycles, int processors, double deltaPercent) {
        values[rowKeys.indexOf(pauseCycles)][columnKeys.indexOf(processors)] = deltaPercent;
    }

    /**
     * Marks a cell whose row measured nothing (too few operations on a side, or a failed run):
     * {@code n/m} in the table, blank in the map.
     */
    void putNotMeasured(int pauseCycles, int processors) {
        int r = rowKeys.indexOf(pauseCycles);
        int c = columnKeys.indexOf(processors);
        values[r][c] = Double.NaN;
        unmeasured[r][c] = true;
    }

    String table() {
        String[] headers = new String[columnKeys.size() + 1];
        headers[0] = "PAUSE cycles";
        for (int c = 0; c < columnKeys.size(); c++) {
            headers[c + 1] = columnKeys.get(c) + " procs";
        }
        TextTable table = new TextTable(headers);
        for (int r = 0; r < rowKeys.size(); r++) {
            String[] cells = new String[columnKeys.size() + 1];
            cells[0] = Integer.toString(rowKeys.get(r));
            for (int c = 0; c < columnKeys.size(); c++) {
                cells[c + 1] = unmeasured[r][c] ? "n/m" : ExperimentTables.percent(values[r][c]);
            }
            table.row(cells);
        }
        return title + "\n" + table.render();
    }

    /**
     * The grid as a heat map (a JFreeChart block chart, see {@link Charts#heatmap}) in one SVG
     * document: green where the right tuning wins, red where it loses, white near zero.
     */
    String svg() {
        return ChartSvg.render(Charts.heatmap(title, rowKeys, columnKeys, values), "heatmap",
                Charts.heatmapWidth(columnKeys.size()), Charts.heatmapHeight(rowKeys.size())) + "\n";
    }
}
