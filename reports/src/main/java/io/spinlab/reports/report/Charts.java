package io.spinlab.reports.report;

import io.spinlab.sim.experiment.ExperimentRow;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Polygon;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
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
    private static final Color PUBLISHED = new Color(0x22, 0x22, 0x22);
    /** A score chart whose values span more than this factor gets a logarithmic axis. */
    static final double LOG_AXIS_SPAN = 10;
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font CELL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private Charts() {
    }

    /**
     * Score against thread count (a multiple of the processor count; the multiples the rows try,
     * evenly spaced, as the published tables list them) for the left and the right tuning: a
     * line per tuning (the legend names it), and per variant of the rows when they have several
     * (e.g. with and without a delay; dashed after the first). Each point is the median over the
     * row's seeds with the seeds' range as an error bar; where a row has a published Δ, a
     * diamond marks the right score that Δ implies from the simulated left one. The score axis
     * is logarithmic when the values span more than 10×. Rows without a thread multiple are left
     * out.
     *
     * @param title the chart's title
     * @param rows  rows of one workload on one machine
     */
    public static JFreeChart scoresByThreads(String title, List<ReportRow> rows) {
        List<Double> multiples = rows.stream().flatMap(r -> r.threadMultiple().stream()).distinct().sorted()
                .toList();
        String leftName = rows.isEmpty() ? "left" : "left: " + rows.getFirst().result().leftTuning();
        String rightName = rows.isEmpty() ? "right" : "right: " + rows.getFirst().result().rightTuning();
        Map<String, YIntervalSeries> series = new LinkedHashMap<>();
        List<String> variants = rows.stream().map(ReportRow::variant).distinct().toList();
        for (String variant : variants) {
            String suffix = variants.size() < 2 || variant.isEmpty() ? "" : ", " + variant;
            series.put(seriesKey("left", variant), new YIntervalSeries(leftName + suffix, true, false));
            series.put(seriesKey("right", variant), new YIntervalSeries(rightName + suffix, true, false));
        }
        YIntervalSeries published = new YIntervalSeries("published Δ applied to the left score", true, false);
        YIntervalSeries publishedLeft = new YIntervalSeries("published left score (its harness's units)", true, false);
        YIntervalSeries publishedRight = new YIntervalSeries("published right score (its harness's units)", true,
                false);
        double lowest = Double.POSITIVE_INFINITY;
        double highest = 0;
        for (ReportRow row : rows) {
            Optional<Double> multiple = row.threadMultiple();
            if (multiple.isEmpty()) {
                continue;
            }
            int x = multiples.indexOf(multiple.get());
            ExperimentRow r = row.result();
            // A side that counted too few operations has no score to draw (nor to apply a published Δ to).
            boolean leftMeasured = !r.countedTooFew(true);
            if (leftMeasured) {
                addFinite(series.get(seriesKey("left", row.variant())), x, r.leftScore(), r.leftScores());
            }
            if (!r.countedTooFew(false)) {
                addFinite(series.get(seriesKey("right", row.variant())), x, r.rightScore(), r.rightScores());
            }
            if (r.published().deltaPercent().isPresent() && leftMeasured && Double.isFinite(r.leftScore())) {
                double implied = r.leftScore() * (1 + r.published().deltaPercent().getAsDouble() / 100);
                published.add(x, implied, implied, implied);
                highest = Math.max(highest, implied);
                lowest = implied > 0 ? Math.min(lowest, implied) : lowest;
            }
            if (r.published().leftScore().isPresent() && r.published().rightScore().isPresent()) {
                double left = r.published().leftScore().getAsDouble();
                double right = r.published().rightScore().getAsDouble();
                publishedLeft.add(x, left, left, left);
                publishedRight.add(x, right, right, right);
                for (double v : new double[] {left, right}) {
                    if (v > 0) {
                        highest = Math.max(highest, v);
                        lowest = Math.min(lowest, v);
                    }
                }
            }
            for (double v : concat(leftMeasured ? r.leftScores() : List.of(),
                    r.countedTooFew(false) ? List.of() : r.rightScores())) {
                if (Double.isFinite(v) && v > 0) {
                    lowest = Math.min(lowest, v);
                    highest = Math.max(highest, v);
                }
            }
        }
        YIntervalSeriesCollection dataset = new YIntervalSeriesCollection();
        series.values().forEach(dataset::addSeries);
        boolean withPublished = published.getItemCount() > 0;
        if (withPublished) {
            dataset.addSeries(published);
        }
        boolean withPublishedScores = publishedLeft.getItemCount() > 0;
        if (withPublishedScores) {
            dataset.addSeries(publishedLeft);
            dataset.addSeries(publishedRight);
        }

        DecimalFormat multipleFormat = new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT));
        SymbolAxis x = new SymbolAxis("threads (× processors)", multiples.stream().map(multipleFormat::format)
                .toArray(String[]::new));
        x.setGridBandsVisible(false);
        x.setRange(-0.3, multiples.size() - 0.7);
        ValueAxis y;
        if (highest > 0 && highest / lowest > LOG_AXIS_SPAN) {
            LogAxis log = new LogAxis("score (ops per ms, log scale)");
            log.setSmallestValue(lowest / 2);
            log.setNumberFormatOverride(new DecimalFormat("#,##0.#", DecimalFormatSymbols.getInstance(Locale.ROOT)));
            y = log;
        } else {
            NumberAxis linear = new NumberAxis("score (ops per ms)");
            linear.setAutoRangeIncludesZero(true);
            y = linear;
        }
        XYErrorRenderer renderer = new XYErrorRenderer();
        renderer.setDrawXError(false);
        renderer.setDrawYError(true);
        renderer.setDefaultLinesVisible(true);
        renderer.setDefaultShapesVisible(true);
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
        if (withPublished) {
            int index = 2 * variants.size();
            renderer.setSeriesPaint(index, PUBLISHED);
            renderer.setSeriesLinesVisible(index, false);
            renderer.setSeriesShape(index, new Polygon(new int[] {0, 6, 0, -6}, new int[] {-6, 0, 6, 0}, 4));
        }
        if (withPublishedScores) {
            // Hollow squares in the sides' colours: the source's own scores, in its harness's units.
            int index = 2 * variants.size() + (withPublished ? 1 : 0);
            for (int side = 0; side < 2; side++) {
                renderer.setSeriesPaint(index + side, side == 0 ? LEFT : RIGHT);
                renderer.setSeriesLinesVisible(index + side, false);
                renderer.setSeriesShapesFilled(index + side, false);
                renderer.setSeriesShape(index + side, new java.awt.Rectangle(-5, -5, 10, 10));
            }
        }
        XYPlot plot = new XYPlot(dataset, x, y, renderer);
        return finish(new JFreeChart(title, TITLE_FONT, styled(plot), true));
    }

    private static List<Double> concat(List<Double> a, List<Double> b) {
        List<Double> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * A heat map of Δ % (right against left) over PAUSE cycles (rows, bottom to top) ×
     * processors (columns), coloured by {@link DeltaPaintScale} (symmetric in the logarithm of
     * right/left, so it does not saturate at ±100 %), each cell labelled with its
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
                xyz[2][k] = Double.isNaN(value) ? Double.NaN : DeltaPaintScale.position(value);
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

        NumberAxis scaleAxis = new NumberAxis("Δ % (right against left), log scale of right/left");
        scaleAxis.setRange(-1, 1);
        scaleAxis.setTickUnit(new NumberTickUnit(1.0 / 3));
        scaleAxis.setNumberFormatOverride(new DeltaAtPosition());
        PaintScaleLegend legend = new PaintScaleLegend(new DeltaPaintScale(), scaleAxis);
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setSubdivisionCount(40);
        legend.setStripWidth(12);
        legend.setMargin(4, 8, 4, 4);
        JFreeChart chart = new JFreeChart(title, TITLE_FONT, plot, false);
        chart.addSubtitle(legend);
        return finish(chart);
    }

    /** Labels a position of {@link DeltaPaintScale} with the Δ % it stands for: (factor^t − 1) × 100. */
    private static final class DeltaAtPosition extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double position, StringBuffer out, FieldPosition field) {
            double delta = (Math.pow(DeltaPaintScale.SATURATION_FACTOR, position) - 1) * 100;
            return out.append(String.format(Locale.ROOT, "%+.0f", delta));
        }

        @Override
        public StringBuffer format(long position, StringBuffer out, FieldPosition field) {
            return format((double) position, out, field);
        }

        @Override
        public Number parse(String source, ParsePosition position) {
            throw new UnsupportedOperationException("labels only");
        }
    }

    /**
     * One curve of a frontier chart: a tuning on a machine, one point per value of the swept
     * parameter, in sweep order.
     *
     * @param name        the legend entry, e.g. {@code right: net6 on skylake}
     * @param cpuNanos    CPU time per operation of each point, ns
     * @param score       the score of each point, operations per ms
     * @param labels      each point's value of the swept parameter, e.g. {@code 70}
     */
    public record FrontierCurve(String name, double[] cpuNanos, double[] score, String[] labels) {
    }

    /**
     * The frontier of throughput against CPU time per operation across a swept parameter: x =
     * CPU ns per operation, y = score, a line per curve through its points in sweep order, each
     * point labelled with its value. Points that are not finite are left out.
     */
    public static JFreeChart frontier(String title, String parameter, List<FrontierCurve> curves) {
        org.jfree.data.xy.XYSeriesCollection dataset = new org.jfree.data.xy.XYSeriesCollection();
        List<XYTextAnnotation> labels = new ArrayList<>();
        for (FrontierCurve curve : curves) {
            org.jfree.data.xy.XYSeries series = new org.jfree.data.xy.XYSeries(curve.name(), false, true);
            for (int i = 0; i < curve.score().length; i++) {
                double x = curve.cpuNanos()[i];
                double y = curve.score()[i];
                if (Double.isFinite(x) && Double.isFinite(y)) {
                    series.add(x, y);
                    XYTextAnnotation label = new XYTextAnnotation(parameter + "=" + curve.labels()[i], x, y);
                    label.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                    label.setTextAnchor(org.jfree.chart.ui.TextAnchor.BOTTOM_LEFT);
                    labels.add(label);
                }
            }
            dataset.addSeries(series);
        }
        NumberAxis x = new NumberAxis("CPU time per operation (ns, all processors)");
        x.setAutoRangeIncludesZero(true);
        NumberAxis y = new NumberAxis("score (ops per ms)");
        y.setAutoRangeIncludesZero(true);
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer renderer =
                new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < curves.size(); i++) {
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        XYPlot plot = new XYPlot(dataset, x, y, renderer);
        labels.forEach(plot::addAnnotation);
        return finish(new JFreeChart(title, TITLE_FONT, styled(plot), true));
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

    /** A point at {@code median} with the range of {@code seeds} as its error bar, if the median is finite. */
    private static void addFinite(YIntervalSeries series, double x, double median, List<Double> seeds) {
        if (!Double.isFinite(median)) {
            return;
        }
        double low = seeds.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).min().orElse(median);
        double high = seeds.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).max().orElse(median);
        series.add(x, median, Math.min(low, median), Math.max(high, median));
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
