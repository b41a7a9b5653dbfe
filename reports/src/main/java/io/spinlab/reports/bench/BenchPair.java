package io.spinlab.reports.bench;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spinlab benchmark and one JDK peer, measured in the same run, and their ratio
 * (spinlab / peer: higher is better for spinlab when scores are throughputs) with its
 * confidence interval.
 *
 * <p>Either side may be missing when a filter selected only the other one, never both.
 *
 * @param label {@code Class.scenario} (see {@link BenchName})
 * @param params the parameter values both sides ran with, as in {@link BenchScore#params()}
 * @param spinlab the spinlab side, or null
 * @param peer the peer side, or null
 */
public record BenchPair(String label, String params, BenchScore spinlab, BenchScore peer) {

    /** Confidence level of {@link #ratioInterval()}. */
    public static final double CONFIDENCE = 0.99;

    /** What a ratio's interval says. */
    public enum Verdict {
        /** The whole interval is above 1. */
        FASTER("faster"),
        /** The whole interval is below 1. */
        SLOWER("slower"),
        /** The interval spans 1, or could not be computed: no difference shown. */
        INCONCLUSIVE("inconclusive");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        /** The word the table prints. */
        public String text() {
            return text;
        }
    }

    public BenchPair {
        if (spinlab == null && peer == null) {
            throw new IllegalArgumentException("pair " + label + " has neither a spinlab nor a peer score");
        }
    }

    /**
     * Pairs scores by the {@link BenchName} convention: within a class, scenario and parameter
     * set, each spinlab score with each peer score (a scenario may have several peers, e.g. a
     * fair and an unfair lock). Pairs come in the order in which their first score appears; a
     * key's spinlab scores keep their order, and for each of them its peers keep theirs.
     *
     * @throws IllegalArgumentException if a name breaks the convention, one benchmark appears twice, or
     *         the two sides of a pair have different units
     */
    public static List<BenchPair> pairAll(List<BenchScore> scores) {
        Map<String, List<BenchScore>> spinlabByKey = new LinkedHashMap<>();
        Map<String, List<BenchScore>> peersByKey = new LinkedHashMap<>();
        Map<String, String> labelByKey = new LinkedHashMap<>();
        Map<String, String> paramsByKey = new LinkedHashMap<>();
        for (BenchScore score : scores) {
            BenchName name = score.name();
            String key = name.pairLabel() + "\u0000" + score.params();
            labelByKey.putIfAbsent(key, name.pairLabel());
            paramsByKey.putIfAbsent(key, score.params());
            Map<String, List<BenchScore>> side = name.side() == BenchName.Side.SPINLAB ? spinlabByKey : peersByKey;
            List<BenchScore> sideScores = side.computeIfAbsent(key, k -> new ArrayList<>());
            for (BenchScore previous : sideScores) {
                if (previous.benchmark().equals(score.benchmark())) {
                    throw new IllegalArgumentException("two scores for " + score.benchmark() + " in "
                            + describe(name.pairLabel(), score.params()) + "; give each benchmark once");
                }
            }
            sideScores.add(score);
        }
        List<BenchPair> pairs = new ArrayList<>();
        for (Map.Entry<String, String> entry : labelByKey.entrySet()) {
            String key = entry.getKey();
            List<BenchScore> peers = peersByKey.getOrDefault(key, List.of());
            List<BenchScore> spinlabs = spinlabByKey.getOrDefault(key, List.of());
            if (spinlabs.isEmpty()) {
                for (BenchScore peer : peers) {
                    pairs.add(new BenchPair(entry.getValue(), paramsByKey.get(key), null, peer));
                }
            }
            for (BenchScore spinlab : spinlabs) {
                if (peers.isEmpty()) {
                    pairs.add(new BenchPair(entry.getValue(), paramsByKey.get(key), spinlab, null));
                }
                for (BenchScore peer : peers) {
                    if (!peer.unit().equals(spinlab.unit())) {
                        throw new IllegalArgumentException("units differ in "
                                + describe(entry.getValue(), spinlab.params()) + ": " + spinlab.benchmark() + " in "
                                + spinlab.unit() + ", " + peer.benchmark() + " in " + peer.unit()
                                + "; a ratio needs one unit");
                    }
                    pairs.add(new BenchPair(entry.getValue(), paramsByKey.get(key), spinlab, peer));
                }
            }
        }
        return pairs;
    }

    private static String describe(String label, String params) {
        return params.isEmpty() ? label : label + " [" + params + "]";
    }

    /** {@code Class.scenario}, with the parameters in brackets when there are any. */
    public String description() {
        return describe(label, params);
    }

    /** spinlab score / peer score; NaN when a side is missing. */
    public double ratio() {
        if (spinlab == null || peer == null) {
            return Double.NaN;
        }
        return spinlab.score() / peer.score();
    }

    /**
     * The {@value #CONFIDENCE} confidence interval of {@link #ratio()}, {@code {low, high}}, or
     * {@code {NaN, NaN}} when a side is missing or has fewer than two samples.
     *
     * <p>Computed on the log of the ratio, whose variance is about the sum of the two sides'
     * squared relative standard errors (the delta method), with Welch–Satterthwaite degrees of
     * freedom for Student's t; the interval is {@code ratio × exp(±t × se)}, so it never goes
     * below zero and is as wide in "times faster" as in "times slower". Each measurement
     * iteration of each fork is a sample, as in JMH's own error; iterations of one fork are not
     * fully independent, which is why the default runs three forks.
     */
    public double[] ratioInterval() {
        double[] none = {Double.NaN, Double.NaN};
        if (spinlab == null || peer == null || spinlab.samples() < 2 || peer.samples() < 2) {
            return none;
        }
        double relativeSpinlab = spinlab.standardError() / spinlab.score();
        double relativePeer = peer.standardError() / peer.score();
        double varianceSpinlab = relativeSpinlab * relativeSpinlab;
        double variancePeer = relativePeer * relativePeer;
        double variance = varianceSpinlab + variancePeer;
        if (!(variance >= 0) || Double.isInfinite(variance)) {
            return none;
        }
        double ratio = ratio();
        if (variance == 0) {
            return new double[] {ratio, ratio};
        }
        double degrees = variance * variance / (varianceSpinlab * varianceSpinlab / (spinlab.samples() - 1)
                + variancePeer * variancePeer / (peer.samples() - 1));
        double t = new TDistribution(null, degrees).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        double halfWidth = t * Math.sqrt(variance);
        return new double[] {ratio * Math.exp(-halfWidth), ratio * Math.exp(halfWidth)};
    }

    /** Faster or slower when the interval lies on one side of 1; inconclusive otherwise. */
    public Verdict verdict() {
        double[] interval = ratioInterval();
        if (interval[0] > 1) {
            return Verdict.FASTER;
        }
        if (interval[1] < 1) {
            return Verdict.SLOWER;
        }
        return Verdict.INCONCLUSIVE;
    }
}
