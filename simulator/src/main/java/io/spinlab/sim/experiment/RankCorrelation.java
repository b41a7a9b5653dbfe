package io.spinlab.sim.experiment;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/** Spearman's rank correlation: the Pearson correlation of the two samples' ranks (ties get their mean rank). */
public final class RankCorrelation {

    private RankCorrelation() {
    }

    /**
     * Spearman's ρ of paired samples {@code x} and {@code y}, in [−1, 1]; NaN when either has
     * no spread (every value ranks the same).
     *
     * @throws IllegalArgumentException if the lengths differ, fewer than two pairs are given, or a value is NaN
     */
    public static double spearman(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("need two samples of equal length >= 2; got " + x.length + " and "
                    + y.length);
        }
        return pearson(ranks(x), ranks(y));
    }

    /** Ranks from 1; tied values share the mean of their ranks. */
    static double[] ranks(double[] values) {
        for (double v : values) {
            if (Double.isNaN(v)) {
                throw new IllegalArgumentException("NaN cannot be ranked: " + Arrays.toString(values));
            }
        }
        Integer[] order = IntStream.range(0, values.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
        double[] ranks = new double[values.length];
        int i = 0;
        while (i < order.length) {
            int j = i;
            while (j + 1 < order.length && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            double mean = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = mean;
            }
            i = j + 1;
        }
        return ranks;
    }

    private static double pearson(double[] a, double[] b) {
        double ma = Arrays.stream(a).average().orElseThrow();
        double mb = Arrays.stream(b).average().orElseThrow();
        double cov = 0;
        double va = 0;
        double vb = 0;
        for (int i = 0; i < a.length; i++) {
            cov += (a[i] - ma) * (b[i] - mb);
            va += (a[i] - ma) * (a[i] - ma);
            vb += (b[i] - mb) * (b[i] - mb);
        }
        if (va == 0 || vb == 0) {
            return Double.NaN;
        }
        return cov / Math.sqrt(va * vb);
    }
}
