package io.spinlab.sim.experiment;

import java.util.List;

/**
 * The Mann–Whitney rank-sum test of two samples: whether the values of one rank above those of the
 * other by more than chance would give at a two-sided level of {@value #ALPHA}. It asks only for order,
 * not for a distribution: one run of a point far off the others (this host's real-thread runs have
 * them, a run at a fifth of its neighbours) weighs as one rank, where a mean and its interval would
 * follow it.
 */
final class RankSum {
    /*
     * Implementation notes
     *
     * U counts the pairs (x of a, y of b) with x > y, a tie as one half. Under the null hypothesis (both
     * samples from one distribution, no ties) every arrangement of the m + n values in rank order is
     * equally likely, and the number with U = u follows c(m, n, u) = c(m − 1, n, u − n) + c(m, n − 1, u)
     * (the largest value is a's, beating all n of b's, or b's): counted exactly while m × n is at most
     * EXACT_MAX_PAIRS, in doubles (C(200, 100) is about 9 × 10^58). Beyond that, or with ties, U is taken
     * as normal with the tie-corrected variance and a continuity correction of one half.
     */

    /** The two-sided level. */
    static final double ALPHA = 0.05;
    /** Largest m × n whose null distribution is counted exactly. */
    private static final int EXACT_MAX_PAIRS = 900;

    private RankSum() {
    }

    /** True if {@code a}'s values rank above {@code b}'s at the two-sided level {@value #ALPHA}. */
    static boolean above(List<Double> a, List<Double> b) {
        int m = a.size();
        int n = b.size();
        if (m == 0 || n == 0) {
            return false;
        }
        double u = u(a, b);
        return u > m * (double) n / 2 && twoSidedP(a, b, u) < ALPHA;
    }

    /** U of {@code a} against {@code b}: pairs with a's value above, ties counted as one half. */
    static double u(List<Double> a, List<Double> b) {
        double u = 0;
        for (double x : a) {
            for (double y : b) {
                u += x > y ? 1 : x == y ? 0.5 : 0;
            }
        }
        return u;
    }

    /** The two-sided p-value of {@code u} for samples {@code a} and {@code b}. */
    static double twoSidedP(List<Double> a, List<Double> b, double u) {
        int m = a.size();
        int n = b.size();
        double mean = m * (double) n / 2;
        double extreme = Math.max(u, m * (double) n - u); // the upper tail, by symmetry
        boolean ties = hasTies(a, b);
        if (!ties && m * n <= EXACT_MAX_PAIRS) {
            return Math.min(1, 2 * exactUpperTail(m, n, (int) Math.round(extreme)));
        }
        double variance = m * (double) n / 12 * ((m + n + 1) - tieCorrection(a, b) / ((m + n) * (double) (m + n - 1)));
        if (!(variance > 0)) {
            return 1; // every value equal
        }
        double z = (extreme - mean - 0.5) / Math.sqrt(variance);
        return Math.min(1, 2 * upperNormalTail(z));
    }

    /** P(U ≥ u) for samples of m and n without ties, counted over every arrangement. */
    static double exactUpperTail(int m, int n, int u) {
        int max = m * n;
        // counts[i][j][k]: arrangements of i values of a and j of b with U = k
        double[][][] counts = new double[m + 1][n + 1][];
        for (int i = 0; i <= m; i++) {
            for (int j = 0; j <= n; j++) {
                double[] c = new double[i * j + 1];
                if (i == 0 || j == 0) {
                    c[0] = 1;
                } else {
                    double[] aLast = counts[i - 1][j];
                    double[] bLast = counts[i][j - 1];
                    for (int k = 0; k <= i * j; k++) {
                        double fromA = k - j >= 0 && k - j < aLast.length ? aLast[k - j] : 0;
                        double fromB = k < bLast.length ? bLast[k] : 0;
                        c[k] = fromA + fromB;
                    }
                }
                counts[i][j] = c;
            }
        }
        double[] all = counts[m][n];
        double total = 0;
        double tail = 0;
        for (int k = 0; k <= max; k++) {
            total += all[k];
            if (k >= u) {
                tail += all[k];
            }
        }
        return tail / total;
    }

    private static boolean hasTies(List<Double> a, List<Double> b) {
        double[] all = sorted(a, b);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                return true;
            }
        }
        return false;
    }

    /** Σ (t³ − t) over the groups of t equal values among both samples. */
    private static double tieCorrection(List<Double> a, List<Double> b) {
        double[] all = sorted(a, b);
        double sum = 0;
        int i = 0;
        while (i < all.length) {
            int j = i;
            while (j + 1 < all.length && all[j + 1] == all[i]) {
                j++;
            }
            double t = j - i + 1;
            sum += t * t * t - t;
            i = j + 1;
        }
        return sum;
    }

    private static double[] sorted(List<Double> a, List<Double> b) {
        double[] all = new double[a.size() + b.size()];
        int k = 0;
        for (double x : a) {
            all[k++] = x;
        }
        for (double y : b) {
            all[k++] = y;
        }
        java.util.Arrays.sort(all);
        return all;
    }

    /** P(Z > z) for a standard normal Z (Abramowitz and Stegun 26.2.17, error below 7.5 × 10⁻⁸). */
    static double upperNormalTail(double z) {
        if (z < 0) {
            return 1 - upperNormalTail(-z);
        }
        double t = 1 / (1 + 0.2316419 * z);
        double density = Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
        double poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978
                + t * 1.330274429))));
        return density * poly;
    }
}
