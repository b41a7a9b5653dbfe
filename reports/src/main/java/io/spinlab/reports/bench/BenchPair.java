package io.spinlab.reports.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spinlab benchmark and its JDK peer, measured in the same run, and their ratio
 * (spinlab / peer: higher is better for spinlab when scores are throughputs).
 *
 * <p>Either side may be missing when a filter selected only the other one, never both.
 *
 * @param label {@code Class.scenario} (see {@link BenchName})
 * @param params the parameter values both sides ran with, as in {@link BenchScore#params()}
 * @param spinlab the spinlab side, or null
 * @param peer the peer side, or null
 */
public record BenchPair(String label, String params, BenchScore spinlab, BenchScore peer) {

    public BenchPair {
        if (spinlab == null && peer == null) {
            throw new IllegalArgumentException("pair " + label + " has neither a spinlab nor a peer score");
        }
    }

    /**
     * Pairs scores by the {@link BenchName} convention: within a class, scenario and parameter
     * set, each spinlab score with the one peer score. Pairs come in the order in which their
     * first score appears; a key's spinlab scores keep their order.
     *
     * @throws IllegalArgumentException if a name breaks the convention, one key has two peers, or the
     *         two sides of a pair have different units
     */
    public static List<BenchPair> pairAll(List<BenchScore> scores) {
        Map<String, List<BenchScore>> spinlabByKey = new LinkedHashMap<>();
        Map<String, BenchScore> peerByKey = new LinkedHashMap<>();
        Map<String, String> labelByKey = new LinkedHashMap<>();
        Map<String, String> paramsByKey = new LinkedHashMap<>();
        for (BenchScore score : scores) {
            BenchName name = score.name();
            String key = name.pairLabel() + "\u0000" + score.params();
            labelByKey.putIfAbsent(key, name.pairLabel());
            paramsByKey.putIfAbsent(key, score.params());
            if (name.side() == BenchName.Side.SPINLAB) {
                spinlabByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(score);
            } else {
                BenchScore previous = peerByKey.putIfAbsent(key, score);
                if (previous != null) {
                    throw new IllegalArgumentException("two peers for " + describe(name.pairLabel(), score.params())
                            + ": " + previous.benchmark() + " and " + score.benchmark() + "; keep one per scenario");
                }
            }
        }
        List<BenchPair> pairs = new ArrayList<>();
        for (Map.Entry<String, String> entry : labelByKey.entrySet()) {
            String key = entry.getKey();
            BenchScore peer = peerByKey.get(key);
            List<BenchScore> spinlabs = spinlabByKey.getOrDefault(key, List.of());
            if (spinlabs.isEmpty()) {
                pairs.add(new BenchPair(entry.getValue(), paramsByKey.get(key), null, peer));
            }
            for (BenchScore spinlab : spinlabs) {
                if (peer != null && !peer.unit().equals(spinlab.unit())) {
                    throw new IllegalArgumentException("units differ in " + describe(entry.getValue(), spinlab.params())
                            + ": " + spinlab.benchmark() + " in " + spinlab.unit() + ", " + peer.benchmark() + " in "
                            + peer.unit() + "; a ratio needs one unit");
                }
                pairs.add(new BenchPair(entry.getValue(), paramsByKey.get(key), spinlab, peer));
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
     * The error of {@link #ratio()}: the two sides' relative errors added in quadrature,
     * {@code ratio × sqrt((e_s / s)² + (e_p / p)²)}. NaN when a side or an error is missing.
     */
    public double ratioError() {
        if (spinlab == null || peer == null) {
            return Double.NaN;
        }
        double relativeSpinlab = spinlab.error() / spinlab.score();
        double relativePeer = peer.error() / peer.score();
        return ratio() * Math.sqrt(relativeSpinlab * relativeSpinlab + relativePeer * relativePeer);
    }
}
