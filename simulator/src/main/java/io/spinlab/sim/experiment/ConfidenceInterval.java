package io.spinlab.sim.experiment;

import java.util.Locale;

/**
 * A 95 % confidence interval for a figure that {@code calibrate} computes from a sample: Spearman's ρ over
 * its points and the share of its tuning pairs ordered alike. A ρ of 0.77 over 41 points and one of 0.77 over
 * 8 say very different things about the simulator; the interval says how different.
 *
 * @param low  the lower end; NaN when no interval can be given
 * @param high the upper end; NaN when no interval can be given
 */
public record ConfidenceInterval(double low, double high) {

    /** The standard normal quantile of a two-sided 95 % interval. */
    static final double Z95 = 1.959963984540054;

    /**
     * Fieller, Hartley and Pearson's variance of Fisher's z-transform of Spearman's ρ, times (n − 3): 1.06
     * where Pearson's coefficient has 1 ("Tests for rank correlation coefficients. I", Biometrika 44, 1957).
     */
    static final double SPEARMAN_Z_VARIANCE = 1.06;

    /** An interval that could not be computed. */
    public static final ConfidenceInterval NONE = new ConfidenceInterval(Double.NaN, Double.NaN);

    public ConfidenceInterval {
        if (!Double.isNaN(low) || !Double.isNaN(high)) {
            if (Double.isNaN(low) || Double.isNaN(high) || low > high) {
                throw new IllegalArgumentException("interval [" + low + ", " + high + "]; allowed low <= high, or "
                        + "both NaN");
            }
        }
    }

    /**
     * The 95 % interval of Spearman's {@code rho} over {@code n} pairs: atanh ρ ± 1.96 √(1.06 / (n − 3)),
     * transformed back. It takes the pairs as independent, as the test does; {@link #NONE} when ρ is NaN or
     * {@code n} is below 4 (the variance needs n − 3 > 0).
     */
    public static ConfidenceInterval spearman(double rho, int n) {
        if (Double.isNaN(rho) || n < 4) {
            return NONE;
        }
        if (rho < -1 || rho > 1) {
            throw new IllegalArgumentException("rho = " + rho + "; allowed -1 to 1");
        }
        double z = atanh(rho);
        double half = Z95 * Math.sqrt(SPEARMAN_Z_VARIANCE / (n - 3));
        return new ConfidenceInterval(Math.tanh(z - half), Math.tanh(z + half));
    }

    /**
     * Wilson's score interval of the share {@code successes} / {@code trials}, in [0, 1]: unlike the normal
     * approximation it stays inside [0, 1] and is not empty at 0 of n or n of n. It takes the trials as
     * independent; {@link #NONE} when there are none.
     */
    public static ConfidenceInterval wilson(int successes, int trials) {
        if (trials < 0 || successes < 0 || successes > trials) {
            throw new IllegalArgumentException(successes + " of " + trials + "; allowed 0 <= successes <= trials");
        }
        if (trials == 0) {
            return NONE;
        }
        double n = trials;
        double p = successes / n;
        double z2 = Z95 * Z95;
        double denominator = 1 + z2 / n;
        double centre = (p + z2 / (2 * n)) / denominator;
        double half = Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator;
        // At 0 of n the lower end is 0 and at n of n the upper end 1, exactly: there centre and half are equal in
        // exact arithmetic, and their rounded difference can land a few ulps beyond the share.
        double low = successes == 0 ? 0 : Math.max(0, centre - half);
        double high = successes == trials ? 1 : Math.min(1, centre + half);
        return new ConfidenceInterval(low, high);
    }

    /** Whether the interval was computed. */
    public boolean known() {
        return !Double.isNaN(low);
    }

    /** "0.589–0.874" to three decimals, or "–" when not known. */
    public String format() {
        return known() ? String.format(Locale.ROOT, "%.3f–%.3f", low, high) : "–";
    }

    /** "36–78 %" for a share, or "–" when not known. */
    public String formatPercent() {
        return known() ? String.format(Locale.ROOT, "%.0f–%.0f %%", 100 * low, 100 * high) : "–";
    }

    private static double atanh(double x) {
        return 0.5 * Math.log((1 + x) / (1 - x));
    }
}
