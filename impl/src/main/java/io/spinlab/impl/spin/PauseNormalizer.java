package io.spinlab.impl.spin;

/**
 * Turns "spin for n normalized yields of about 37 ns" into a count of PAUSE instructions for
 * the processor at hand, by measuring how long one PAUSE takes through the {@code Platform}.
 * Run in the simulator, the same code measures the virtual PAUSE of the machine profile.
 *
 * <p>Two measurement schemes exist, as in the .NET runtime's history:
 * {@link SampledPauseNormalizer} (.NET 6+, eight short samples, lazily refreshed) and
 * {@link OneShotPauseNormalizer} (.NET Core 2.x, one 10 ms measurement).
 *
 * <p>Implementations are thread-safe; the values may change while threads spin.
 */
public interface PauseNormalizer {

    /** Duration one normalized yield aims at: about one Skylake PAUSE. */
    int TARGET_NS_PER_NORMALIZED_YIELD = 37;

    /** The longest one late spin iteration should PAUSE before yielding is better (~900 cycles). */
    int TARGET_MAX_NS_PER_SPIN_ITERATION = 272;

    /** Upper bound of {@link #yieldsPerNormalizedYield()}: 37 × 10. */
    int MAX_YIELDS_PER_NORMALIZED_YIELD = TARGET_NS_PER_NORMALIZED_YIELD * 10;

    /** Before any measurement: assume a Skylake-class PAUSE. */
    int DEFAULT_YIELDS_PER_NORMALIZED_YIELD = 1;

    /** Before any measurement: round(272 / 37). */
    int DEFAULT_OPTIMAL_MAX_NORMALIZED_YIELDS_PER_SPIN_ITERATION = 7;

    /** PAUSE instructions that make one normalized yield (≥ 1). */
    int yieldsPerNormalizedYield();

    /** Normalized yields that make one full-length (~272 ns) spin iteration (≥ 1). */
    int optimalMaxNormalizedYieldsPerSpinIteration();

    /** The established cost of one PAUSE in nanoseconds (37 before any measurement). */
    double nsPerPause();

    /**
     * Called once at the start of every normalized spin loop: measures if no measurement exists
     * yet or if the last one is old enough. Cheap when nothing is due.
     */
    void refreshIfDue();

    /** Derives yields per normalized yield from a measured PAUSE cost: max(1, round(37 / ns)). */
    static int yieldsFor(double nsPerPause) {
        long rounded = (long) (TARGET_NS_PER_NORMALIZED_YIELD / nsPerPause + 0.5);
        return (int) Math.max(1, Math.min(MAX_YIELDS_PER_NORMALIZED_YIELD, rounded));
    }

    /** Derives the spin-iteration cap: max(1, round(272 / (yields × ns))). */
    static int optimalMaxFor(int yieldsPerNormalizedYield, double nsPerPause) {
        long rounded = (long) (TARGET_MAX_NS_PER_SPIN_ITERATION / (yieldsPerNormalizedYield * nsPerPause) + 0.5);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, rounded));
    }
}
