package io.spinlab.reports.cli;

import java.util.List;
import java.util.Locale;

/**
 * A grid of Δ % values over PAUSE cycles (rows) × processors (columns), printable as a text
 * table and drawable as an SVG heat map: green where the right tuning wins, red where it loses,
 * white near zero, saturating at ±100 %.
 */
final class Heatmap {

    private static final int CELL_W = 90;
    private static final int CELL_H = 34;
    private static final int LEFT = 120;
    private static final int TOP = 60;

    private final String title;
    private final List<Integer> rowKeys;
    private final List<Integer> columnKeys;
    private final double[][] values;

    Heatmap(String title, List<Integer> pauseCycles, List<Integer> processors) {
        this.title = title;
        this.rowKeys = List.copyOf(pauseCycles);
        this.columnKeys = List.copyOf(processors);
        this.values = new double[rowKeys.size()][columnKeys.size()];
    }

    void put(int pauseCycles, int processors, double deltaPercent) {
        values[rowKeys.indexOf(pauseCycles)][columnKeys.indexOf(processors)] = deltaPercent;
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
                cells[c + 1] = ExperimentTables.percent(values[r][c]);
            }
            table.row(cells);
        }
        return title + "\n" + table.render();
    }

    String svg() {
        int width = LEFT + CELL_W * columnKeys.size() + 20;
        int height = TOP + CELL_H * rowKeys.size() + 40;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"13\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"15\">%s</text>%n", escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">PAUSE cycles ↓ / processors →</text>%n",
                TOP - 12));
        for (int c = 0; c < columnKeys.size(); c++) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
                    LEFT + c * CELL_W + CELL_W / 2, TOP - 12, columnKeys.get(c)));
        }
        for (int r = 0; r < rowKeys.size(); r++) {
            int y = TOP + r * CELL_H;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>%n",
                    LEFT - 10, y + CELL_H / 2 + 5, rowKeys.get(r)));
            for (int c = 0; c < columnKeys.size(); c++) {
                int x = LEFT + c * CELL_W;
                double v = values[r][c];
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                        + "fill=\"%s\" stroke=\"#888\"/>%n", x, y, CELL_W, CELL_H, color(v)));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                        x + CELL_W / 2, y + CELL_H / 2 + 5, ExperimentTables.percent(v)));
            }
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** White at 0, green toward +100 %, red toward −100 % and beyond. */
    static String color(double deltaPercent) {
        if (Double.isNaN(deltaPercent)) {
            return "#cccccc";
        }
        double t = Math.max(-1, Math.min(1, deltaPercent / 100));
        int fade = (int) Math.round(255 * (1 - Math.abs(t)));
        return t >= 0 ? String.format(Locale.ROOT, "#%02x%02x%02x", fade, 255, fade)
                : String.format(Locale.ROOT, "#%02x%02x%02x", 255, fade, fade);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
