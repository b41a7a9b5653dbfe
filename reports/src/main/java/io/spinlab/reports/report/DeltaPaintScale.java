package io.spinlab.reports.report;

import org.jfree.chart.renderer.PaintScale;

import java.awt.Color;
import java.awt.Paint;
import java.util.Locale;

/**
 * The colours of a Δ % heat map, on a symmetric logarithmic scale of the ratio right/left:
 * white at 0, greener as the right tuning wins, redder as it loses, with a halving (−50 %) as red
 * as a doubling (+100 %) is green; full colour at a factor of {@value #SATURATION_FACTOR} either
 * way (−90 %, +900 %); grey where there is no value. A linear scale saturating at ±100 % drew
 * +150 % and +2,500 % alike, and made −50 % look half as bad as +100 % looks good.
 */
public final class DeltaPaintScale implements PaintScale {

    static {
        Headless.ensure();
    }

    /** The factor right/left (or left/right) at which the colour saturates. */
    public static final double SATURATION_FACTOR = 10;

    /** The colour of a cell without a value (a failed run). */
    public static final Color NO_VALUE = new Color(0xcc, 0xcc, 0xcc);

    /** The scale's position of {@code deltaPercent}: ln(1 + Δ/100) / ln(factor), within [−1, 1]. */
    public static double position(double deltaPercent) {
        double ratio = 1 + deltaPercent / 100;
        if (ratio <= 0) {
            return -1;
        }
        return Math.max(-1, Math.min(1, Math.log(ratio) / Math.log(SATURATION_FACTOR)));
    }

    @Override
    public double getLowerBound() {
        return -1;
    }

    @Override
    public double getUpperBound() {
        return 1;
    }

    /** The colour at scale position {@code position} (see {@link #position}); the legend draws these. */
    @Override
    public Paint getPaint(double position) {
        if (Double.isNaN(position)) {
            return NO_VALUE;
        }
        return colorAt(Math.max(-1, Math.min(1, position)));
    }

    /** The colour of {@code deltaPercent}; +∞ (the left tuning scored 0) is full green. */
    public static Color colorOf(double deltaPercent) {
        if (Double.isNaN(deltaPercent)) {
            return NO_VALUE;
        }
        return colorAt(position(deltaPercent));
    }

    private static Color colorAt(double t) {
        int fade = (int) Math.round(255 * (1 - Math.abs(t)));
        return t >= 0 ? new Color(fade, 255, fade) : new Color(255, fade, fade);
    }

    /** The colour of {@code deltaPercent} as {@code #rrggbb}. */
    public static String hex(double deltaPercent) {
        Color c = colorOf(deltaPercent);
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }
}
