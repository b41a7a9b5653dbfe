package io.spinlab.reports.report;

import org.jfree.chart.renderer.PaintScale;

import java.awt.Color;
import java.awt.Paint;
import java.util.Locale;

/**
 * The colours of a Δ % heat map: white at 0, greener toward +100 % (the right tuning wins),
 * redder toward −100 % (it loses), saturating beyond; grey where there is no value.
 */
public final class DeltaPaintScale implements PaintScale {

    static {
        Headless.ensure();
    }

    /** The Δ % at which the colour saturates, either way. */
    public static final double SATURATION_PERCENT = 100;

    /** The colour of a cell without a value (a failed run). */
    public static final Color NO_VALUE = new Color(0xcc, 0xcc, 0xcc);

    @Override
    public double getLowerBound() {
        return -SATURATION_PERCENT;
    }

    @Override
    public double getUpperBound() {
        return SATURATION_PERCENT;
    }

    @Override
    public Paint getPaint(double deltaPercent) {
        return colorOf(deltaPercent);
    }

    /** The colour of {@code deltaPercent}; +∞ (the left tuning scored 0) is full green. */
    public static Color colorOf(double deltaPercent) {
        if (Double.isNaN(deltaPercent)) {
            return NO_VALUE;
        }
        double t = Math.max(-1, Math.min(1, deltaPercent / SATURATION_PERCENT));
        int fade = (int) Math.round(255 * (1 - Math.abs(t)));
        return t >= 0 ? new Color(fade, 255, fade) : new Color(255, fade, fade);
    }

    /** The colour of {@code deltaPercent} as {@code #rrggbb}. */
    public static String hex(double deltaPercent) {
        Color c = colorOf(deltaPercent);
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }
}
