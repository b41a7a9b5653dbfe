package io.spinlab.sim.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One figure over several seeds: every value, the median, the range and a 95 % confidence
 * interval of the mean (Student's t over the seeds; the range itself with fewer than two).
 */
public record Spread(List<Double> values, double median, double min, double max, double low95, double high95) {

    /** Two-sided 97.5 % quantiles of Student's t for 1 to 30 degrees of freedom. */
    private static final double[] T_975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    public Spread {
        values = List.copyOf(values);
    }

    /** The spread of {@code values} (at least one). */
    public static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a spread needs at least one value");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        double min = sorted.getFirst();
        double max = sorted.getLast();
        if (n < 2) {
            return new Spread(values, median, min, max, min, max);
        }
        double mean = 0;
        for (double v : sorted) {
            mean += v;
        }
        mean /= n;
        double squares = 0;
        for (double v : sorted) {
            squares += (v - mean) * (v - mean);
        }
        double halfWidth = t975(n - 1) * Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
        return new Spread(values, median, min, max, mean - halfWidth, mean + halfWidth);
    }

    /**
     * The spread of per-seed Δ % values (each right score against its left score, as
     * {@link Experiment#deltaPercent} writes it). Values, median and range are the Δ % themselves;
     * the 95 % interval is taken over the log ratios ln(1 + Δ/100) and mapped back to Δ %, since a
     * ratio of two scores is multiplicative: +100 % and −50 % are the same distance from a tie, and
     * Δ % is bounded below by −100 % but not above, so Student's t on the Δ % themselves gives an
     * interval that reaches below 0 for seeds that all gain several hundred per cent. With a Δ of
     * −100 % or less, or a non-finite one (a side that scored 0), the interval is taken over the
     * Δ % as {@link #of} does.
     */
    public static Spread ofDeltaPercents(List<Double> deltaPercents) {
        Spread plain = of(deltaPercents);
        if (deltaPercents.size() < 2 || deltaPercents.stream().anyMatch(d -> !(d > -100) || !Double.isFinite(d))) {
            return plain;
        }
        List<Double> logRatios = new ArrayList<>();
        for (double d : deltaPercents) {
            logRatios.add(Math.log1p(d / 100));
        }
        Spread logs = of(logRatios);
        return new Spread(plain.values, plain.median, plain.min, plain.max, Math.expm1(logs.low95) * 100,
                Math.expm1(logs.high95) * 100);
    }

    private static double t975(int degrees) {
        return degrees <= T_975.length ? T_975[degrees - 1] : 1.96;
    }

    /** True if this spread's whole interval lies above {@code other}'s: the difference is not noise. */
    public boolean clearlyAbove(Spread other) {
        return low95 > other.high95 && min > other.max;
    }

    /**
     * True if this spread's values rank above {@code other}'s beyond chance: the Mann–Whitney rank-sum test,
     * two-sided at 5 % ({@link RankSum}). Unlike {@link #clearlyAbove}, one value far off the rest of its
     * spread counts as one rank; it needs at least four values a side (four against four all above: 2.9 %).
     */
    public boolean rankedAbove(Spread other) {
        return RankSum.above(values, other.values);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.4g (median of %d; range %.4g to %.4g; 95%% CI %.4g to %.4g)", median,
                values.size(), min, max, low95, high95);
    }
}
