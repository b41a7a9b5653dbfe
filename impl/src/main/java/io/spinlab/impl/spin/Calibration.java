package io.spinlab.impl.spin;

/**
 * One published result of a PAUSE measurement: immutable, so a reader sees a consistent pair of
 * derived values through a single volatile read.
 *
 * @param nsPerPause the established cost of one PAUSE
 * @param yieldsPerNormalizedYield PAUSEs per normalized yield
 * @param optimalMaxNormalizedYieldsPerSpinIteration normalized yields per full spin iteration
 * @param measuredAtNanos platform clock at the measurement (meaningless for the default)
 * @param measured false for the defaults used before any measurement
 */
record Calibration(double nsPerPause, int yieldsPerNormalizedYield, int optimalMaxNormalizedYieldsPerSpinIteration,
                   long measuredAtNanos, boolean measured) {

    static final Calibration DEFAULT = new Calibration(PauseNormalizer.TARGET_NS_PER_NORMALIZED_YIELD,
            PauseNormalizer.DEFAULT_YIELDS_PER_NORMALIZED_YIELD,
            PauseNormalizer.DEFAULT_OPTIMAL_MAX_NORMALIZED_YIELDS_PER_SPIN_ITERATION, 0L, false);

    static Calibration of(double nsPerPause, long measuredAtNanos) {
        int yields = PauseNormalizer.yieldsFor(nsPerPause);
        return new Calibration(nsPerPause, yields, PauseNormalizer.optimalMaxFor(yields, nsPerPause),
                measuredAtNanos, true);
    }
}
