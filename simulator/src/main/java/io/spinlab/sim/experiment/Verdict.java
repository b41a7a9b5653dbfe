package io.spinlab.sim.experiment;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** How a simulated row compares with what was published about it. */
public enum Verdict {
    /** The simulated direction is the published one. */
    AGREES,
    /** The simulated direction contradicts the published one (a finding to explain, never to tune away). */
    DISAGREES,
    /**
     * The seeds' spread does not decide: the 95 % interval of the per-seed Δ straddles the
     * published claim's threshold (see {@link Published#judge(double, double)}), so the row
     * neither confirms nor contradicts it.
     */
    NEUTRAL,
    /** Nothing was published about this row. */
    NO_CLAIM,
    /**
     * A side counted fewer than {@link ExperimentRow#MIN_OPERATIONS} operations in its window, or its
     * seeds' scores lie more than {@link ExperimentRow#SEED_SPREAD_LIMIT} times apart: its score says
     * nothing about the primitive, so the row is neither agreement nor disagreement;
     * {@link ExperimentRow#notMeasurable()} says which side and why.
     */
    NOT_MEASURABLE,
    /** A simulated run did not complete (deadlock, budget, failure); the row's failure says why. */
    FAILED;

    /** How many of {@code rows} have each verdict, in verdict order; verdicts without rows are left out. */
    public static Map<Verdict, Integer> count(Collection<ExperimentRow> rows) {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        rows.forEach(r -> counts.merge(r.verdict(), 1, Integer::sum));
        return Collections.unmodifiableMap(counts);
    }
}
