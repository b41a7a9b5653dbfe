package io.spinlab.sim.experiment;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * How close a set of rows comes to the published figures: over the rows with an
 * {@linkplain ExperimentRow#errorFactor() error factor}, their number, the median factor and how
 * many are within 2×.
 *
 * @param rows      rows with an error factor
 * @param median    the median error factor; NaN when {@code rows} is 0
 * @param withinTwo rows whose factor is at most 2 (to a relative 1e-9: a ratio of 1 against a published
 *                  2× is a factor of 2 exactly, whatever the last bit of the logarithms says)
 */
public record Fidelity(int rows, double median, int withinTwo) {

    private static final double TWO = 2 * (1 + 1e-9);

    /** The fidelity of {@code results}. */
    public static Fidelity of(Collection<ExperimentRow> results) {
        double[] factors = results.stream().map(ExperimentRow::errorFactor).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        if (factors.length == 0) {
            return new Fidelity(0, Double.NaN, 0);
        }
        int n = factors.length;
        double median = n % 2 == 1 ? factors[n / 2] : (factors[n / 2 - 1] + factors[n / 2]) / 2;
        int within = (int) Arrays.stream(factors).filter(f -> f <= TWO).count();
        return new Fidelity(n, median, within);
    }

    /**
     * In words: {@code median error ×2.00 over 15 published figures, 9 within 2×}, or
     * {@code no published figure measured}.
     */
    public String describe() {
        if (rows == 0) {
            return "no published figure measured";
        }
        return String.format(Locale.ROOT, "median error ×%.2f over %d published figure%s, %d within 2×", median, rows,
                rows == 1 ? "" : "s", withinTwo);
    }
}
