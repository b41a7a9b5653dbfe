package io.spinlab.reports.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.text.TextUtils;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

import java.awt.geom.Rectangle2D;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.DoubleFunction;
import java.util.regex.Pattern;

/**
 * Renders a chart as one {@code <svg>} element with JFreeSVG, ready to inline in a page or to
 * write as a file.
 *
 * <p>The output is deterministic: the same chart with the same id gives the same text on every
 * run. JFreeSVG names its clip paths after a prefix taken from the clock by default; here the
 * prefix is the chart's id, so ids are also unique within a page that inlines several charts.
 * Coordinates are rounded to two decimals. Text is written as SVG text, rotated text included
 * (not as glyph outlines), so that it stays small and searchable.
 */
public final class ChartSvg {

    static {
        Headless.ensure();
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private static final Pattern ID = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final DoubleFunction<String> TWO_DECIMALS = ChartSvg::twoDecimals;

    private ChartSvg() {
    }

    /**
     * The chart drawn at {@code width} × {@code height} user units, as an {@code <svg>} element
     * with the given id and a view box, so that it scales with the page.
     *
     * @throws IllegalArgumentException if the id is not a plain XML id (a letter, then letters,
     *                                  digits, {@code -} or {@code _}) or a size is not positive
     */
    public static String render(JFreeChart chart, String id, int width, int height) {
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("chart id '" + id + "' is not valid; allowed a letter, then letters, "
                    + "digits, '-' or '_'");
        }
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("chart size " + width + " × " + height + " must be positive");
        }
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        g.setDefsKeyPrefix(id + "-");
        g.setGeomDoubleConverter(TWO_DECIMALS);
        g.setTransformDoubleConverter(TWO_DECIMALS);
        chart.draw(g, new Rectangle2D.Double(0, 0, width, height));
        return g.getSVGElement(id, true, new ViewBox(0, 0, width, height), null, null);
    }

    static String twoDecimals(double value) {
        if (!Double.isFinite(value)) {
            return "0";
        }
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros();
        return rounded.signum() == 0 ? "0" : rounded.toPlainString();
    }
}
