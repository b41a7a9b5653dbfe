package io.spinlab.reports.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The report's charts, built with JFreeChart: score against thread count for both tunings,
 * the Δ % heat map over PAUSE cycles × processors, and events read and dropped by the event
 * buffer manager. {@link ChartSvg} renders them as SVG.
 *
 * <p>Charts are built headless: loading this class sets {@code java.awt.headless=true} unless
 * the property was set already.
 */
public final class Charts {

    static {
        Headless.ensure();
    }

    /** The metric of an event stress run that counts events read in the window. */
    public static final String EVENTS_READ = "read";
    /** The metric of an event stress run that counts events dropped in the window. */
    public static final String EVENTS_DROPPED = "dropped";

    private static final Color GRID = new Color(0xdd, 0xdd, 0xdd);
    private static final Color LEFT = new Color(0xc0, 0x39, 0x2b);
    private static final Color RIGHT = new Color(0x27, 0x6f, 0xbf);
    private static final Color READ = new Color(0x2e, 0x8b, 0x57);
    private static final Color DROPPED = new Color(0xe0, 0x8e, 0x3c);
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font CELL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private Charts() {
    }

    /**
     * Score against thread count (a multiple of the processor count; the multiples the rows try,
     * evenly spaced, as the published tables list them) for the left and the right tuning: a
     * line per tuning, and per variant of the rows when they have several (e.g. with and without
     * a delay; dashed after the first). Rows without a thread multiple are left out.
     *
     * @param title the chart's title
     * @param rows  rows of one workload on one machine
     */
    public static JFreeChart scoresByThreads(String title, List<ReportRow> rows) {
        List<Double> multiples = rows.stream().flatMap(r -> r.threadMultiple().stream()).distinct().sorted()
                .toList();
        Map<String, XYSeries> series = new LinkedHashMap<>();
        List<String> variants = rows.stream().map(ReportRow::variant).distinct().toList();
        for (String variant : variants) {
            String suffix = variants.size() < 2 || variant.isEmpty() ? "" : ", " + variant;
            series.put(seriesKey("left", variant), new XYSeries("left" + suffix, true, false));
            series.put(seriesKey("right", variant), new XYSeries("right" + suffix, true, false));
        }
        for (ReportRow row : rows) {
            Optional<Double> multiple = row.threadMultiple();
            if (multiple.isEmpty()) {
                continue;
            }
            int x = multiples.indexOf(multiple.get());
            addFinite(series.get(seriesKey("left", row.variant())), x, row.result().leftScore());
            addFinite(series.get(seriesKey("right", row.variant())), x, row.result().rightScore());
        }
        XYSeriesCollection dataset = new XYSeriesCollection();
        series.values().forEach(dataset::addSeries);

        DecimalFormat multipleFormat = new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT));
        SymbolAxis x = new SymbolAxis("threads (× processors)", multiples.stream().map(multipleFormat::format)
                .toArray(String[]::new));
        x.setGridBandsVisible(false);
        x.setRange(-0.3, multiples.size() - 0.7);
        NumberAxis y = new NumberAxis("score (ops per ms)");
        y.setAutoRangeIncludesZero(true);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int i = 0;
        for (String variant : variants) {
            BasicStroke stroke = i == 0 ? new BasicStroke(2f)
                    : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
            renderer.setSeriesPaint(2 * i, LEFT);
            renderer.setSeriesPaint(2 * i + 1, RIGHT);
            renderer.setSeriesStroke(2 * i, stroke);
            renderer.setSeriesStroke(2 * i + 1, stroke);
            i++;
        }
        XYPlot plot = new XYPlot(dataset, x, y, renderer);
        return finish(new JFreeChart(title, TITLE_FONT, styled(plot), true));
    }

    /**
     * A heat map of Δ % (right against left) over PAUSE cycles (rows, bottom to top) ×
     * processors (columns), coloured by {@link DeltaPaintScale}, each cell labelled with its
     * value.
     *
     * @param title        the chart's title
     * @param pauseCycles  the row keys
     * @param processors   the column keys
     * @param deltaPercent the values, {@code [row][column]}; NaN where there is none
     */
    public static JFreeChart heatmap(String title, List<Integer> pauseCycles, List<Integer> processors,
            double[][] deltaPercent) {
        int rows = pauseCycles.size();
        int columns = processors.size();
        double[][] xyz = new double[3][rows * columns];
        XYBlockRenderer renderer = new XYBlockRenderer();
        renderer.setPaintScale(new DeltaPaintScale());
        SymbolAxis x = new SymbolAxis("logical processors", processors.stream().map(String::valueOf)
                .toArray(String[]::new));
        SymbolAxis y = new SymbolAxis("PAUSE cycles", pauseCycles.stream().map(String::valueOf)
                .toArray(String[]::new));
        x.setGridBandsVisible(false);
        y.setGridBandsVisible(false);
        x.setRange(-0.5, columns - 0.5);
        y.setRange(-0.5, rows - 0.5);
        XYPlot plot = new XYPlot(null, x, y, renderer);
        int k = 0;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                double value = deltaPercent[r][c];
                xyz[0][k] = c;
                xyz[1][k] = r;
                xyz[2][k] = value;
                k++;
                XYTextAnnotation label = new XYTextAnnotation(Format.percent(value), c, r);
                label.setFont(CELL_FONT);
                plot.addAnnotation(label);
            }
        }
        DefaultXYZDataset dataset = new DefaultXYZDataset();
        dataset.addSeries("Δ %", xyz);
        plot.setDataset(dataset);
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinesVisible(false);
        plot.setBackgroundPaint(DeltaPaintScale.NO_VALUE);
        plot.setOutlineVisible(false);

        NumberAxis scaleAxis = new NumberAxis("Δ % (right against left)");
        scaleAxis.setRange(-DeltaPaintScale.SATURATION_PERCENT, DeltaPaintScale.SATURATION_PERCENT);
        PaintScaleLegend legend = new PaintScaleLegend(new DeltaPaintScale(), scaleAxis);
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setSubdivisionCount(40);
        legend.setStripWidth(12);
        legend.setMargin(4, 8, 4, 4);
        JFreeChart chart = new JFreeChart(title, TITLE_FONT, plot, false);
        chart.addSubtitle(legend);
        return finish(chart);
    }

    /** A width that gives a heat map of {@code columns} columns readable cells, SVG user units. */
    public static int heatmapWidth(int columns) {
        return Math.max(420, 160 + 90 * columns);
    }

    /** A height that gives a heat map of {@code rows} rows readable cells, SVG user units. */
    public static int heatmapHeight(int rows) {
        return Math.max(260, 120 + 40 * rows);
    }

    /**
     * Events read and events dropped in the measured window, a stacked bar per machine and
     * tuning, from the {@value #EVENTS_READ} and {@value #EVENTS_DROPPED} metrics of the first
     * row on each machine that has them.
     *
     * @param title the chart's title
     * @param rows  rows of an event stress experiment
     */
    public static JFreeChart eventsReadAndDropped(String title, List<ReportRow> rows) {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        for (ReportRow row : eventRows(rows)) {
            String machine = row.result().machine();
            addEvents(dataset, machine + " · left", row.result().leftMetrics());
            addEvents(dataset, machine + " · right", row.result().rightMetrics());
        }
        CategoryAxis categories = new CategoryAxis("machine · tuning");
        NumberAxis values = new NumberAxis("events in the measured window");
        StackedBarRenderer renderer = new StackedBarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setSeriesPaint(0, READ);
        renderer.setSeriesPaint(1, DROPPED);
        CategoryPlot plot = new CategoryPlot(dataset, categories, values, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(GRID);
        plot.setOutlineVisible(false);
        return finish(new JFreeChart(title, TITLE_FONT, plot, true));
    }

    /** The rows {@link #eventsReadAndDropped} draws: the first on each machine with both metrics. */
    public static List<ReportRow> eventRows(List<ReportRow> rows) {
        Map<String, ReportRow> byMachine = new LinkedHashMap<>();
        for (ReportRow row : rows) {
            if (hasEvents(row.result().leftMetrics()) && hasEvents(row.result().rightMetrics())) {
                byMachine.putIfAbsent(row.result().machine(), row);
            }
        }
        return new ArrayList<>(byMachine.values());
    }

    private static boolean hasEvents(Map<String, Double> metrics) {
        return metrics.containsKey(EVENTS_READ) && metrics.containsKey(EVENTS_DROPPED);
    }

    private static void addEvents(DefaultCategoryDataset dataset, String category, Map<String, Double> metrics) {
        dataset.addValue(metrics.get(EVENTS_READ), "events read", category);
        dataset.addValue(metrics.get(EVENTS_DROPPED), "events dropped", category);
    }

    private static String seriesKey(String side, String variant) {
        return side + "|" + variant;
    }

    private static void addFinite(XYSeries series, double x, double y) {
        if (Double.isFinite(y)) {
            series.add(x, y);
        }
    }

    private static XYPlot styled(XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        plot.setOutlineVisible(false);
        return plot;
    }

    private static JFreeChart finish(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setFrame(BlockBorder.NONE);
            legend.setPosition(RectangleEdge.BOTTOM);
        }
        return chart;
    }
}
