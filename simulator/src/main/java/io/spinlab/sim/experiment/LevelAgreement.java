package io.spinlab.sim.experiment;

import java.util.Collection;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * How the simulated left scores of a set of rows compare with the published left scores, over the
 * rows that have both ({@link ExperimentRow#leftOverPublished()}): their number, and the median,
 * lowest and highest ratio of simulated to published. Where only the "before" side of a table could be
 * read, this is the only absolute check of the simulator the table allows.
 *
 * @param rows   rows with a ratio
 * @param median the median ratio (of an even count, the geometric mean of the middle two); NaN when {@code rows} is 0
 * @param lowest the lowest ratio; NaN when {@code rows} is 0
 * @param highest the highest ratio; NaN when {@code rows} is 0
 */
public record LevelAgreement(int rows, double median, double lowest, double highest) {

    /** The agreement of {@code results}. */
    public static LevelAgreement of(Collection<ExperimentRow> results) {
        double[] ratios = results.stream().map(ExperimentRow::leftOverPublished).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        int n = ratios.length;
        if (n == 0) {
            return new LevelAgreement(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double median = n % 2 == 1 ? ratios[n / 2] : Math.sqrt(ratios[n / 2 - 1] * ratios[n / 2]);
        return new LevelAgreement(n, median, ratios[0], ratios[n - 1]);
    }

    /**
     * In words: {@code simulated left scores ×6.1 the published ones (median over 38 rows; ×0.62 to
     * ×144)}, or {@code no published left score measured}.
     */
    public String describe() {
        if (rows == 0) {
            return "no published left score measured";
        }
        return String.format(Locale.ROOT, "simulated left scores ×%s the published ones (median over %d row%s; ×%s to ×%s)",
                ratio(median), rows, rows == 1 ? "" : "s", ratio(lowest), ratio(highest));
    }

    private static String ratio(double r) {
        return r >= 10 ? String.format(Locale.ROOT, "%.0f", r)
                : String.format(Locale.ROOT, r >= 1 ? "%.2f" : "%.3f", r);
    }
}
