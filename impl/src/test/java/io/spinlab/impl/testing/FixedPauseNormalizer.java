package io.spinlab.impl.testing;

import io.spinlab.impl.spin.PauseNormalizer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A normalizer that never measures: fixed yields per normalized yield and per-iteration cap. It counts
 * the chances it was given to re-measure ({@link #refreshes()}).
 */
public final class FixedPauseNormalizer implements PauseNormalizer {
    private final int yields;
    private final int optimalMax;
    private final AtomicInteger refreshes = new AtomicInteger();

    /** One PAUSE per normalized yield, at most 7 per iteration (the defaults before any measurement). */
    public FixedPauseNormalizer() {
        this(DEFAULT_YIELDS_PER_NORMALIZED_YIELD, DEFAULT_OPTIMAL_MAX_NORMALIZED_YIELDS_PER_SPIN_ITERATION);
    }

    public FixedPauseNormalizer(int yields, int optimalMax) {
        this.yields = yields;
        this.optimalMax = optimalMax;
    }

    @Override
    public int yieldsPerNormalizedYield() {
        return yields;
    }

    @Override
    public int optimalMaxNormalizedYieldsPerSpinIteration() {
        return optimalMax;
    }

    @Override
    public double nsPerPause() {
        return (double) TARGET_NS_PER_NORMALIZED_YIELD / yields;
    }

    @Override
    public void refreshIfDue() {
        refreshes.incrementAndGet();
    }

    /** How many times {@link #refreshIfDue} was called: the spin loops begun under a normalized PAUSE. */
    public int refreshes() {
        return refreshes.get();
    }
}
