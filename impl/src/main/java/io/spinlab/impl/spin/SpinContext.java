package io.spinlab.impl.spin;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.Tuning;

import java.util.Objects;

/**
 * What every primitive is built with: the {@link Platform} it runs on, the {@link Tuning} that
 * selects old or new heuristics, and the {@link PauseNormalizer} that measured the platform's
 * PAUSE. Also the home of {@code Thread.SpinWait}'s equivalent, {@link #spinWait(int)}.
 *
 * <p>Immutable and thread-safe. Share one context among all primitives of a run so they share
 * one PAUSE measurement, as a process shares one in .NET.
 */
public final class SpinContext {

    /** {@code Thread.SpinWait} caps a single call so that count × 370 PAUSEs cannot overflow. */
    static final int MAX_NORMALIZED_SPIN = Integer.MAX_VALUE / PauseNormalizer.MAX_YIELDS_PER_NORMALIZED_YIELD;
    /** Exponential back-off doubles at most this many times before the per-iteration cap. */
    static final int MAX_BACKOFF_SHIFT = 3;

    private static final SpinContext HARDWARE = new SpinContext(HardwarePlatform.INSTANCE, Tuning.current(),
            new SampledPauseNormalizer(HardwarePlatform.INSTANCE));

    private final Platform platform;
    private final Tuning tuning;
    private final PauseNormalizer normalizer;
    private final boolean normalized;
    /** Read once, as .NET caches Environment.ProcessorCount: spin loops ask on every iteration. */
    private final int processorCount;

    private SpinContext(Platform platform, Tuning tuning, PauseNormalizer normalizer) {
        this.platform = Objects.requireNonNull(platform, "platform");
        this.tuning = Objects.requireNonNull(tuning, "tuning");
        this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
        this.normalized = tuning.pause() == PauseMode.NORMALIZED;
        this.processorCount = platform.processorCount();
        if (processorCount < 1) {
            throw new IllegalArgumentException("platform " + platform + " reports " + processorCount
                    + " processors; need 1 or more");
        }
    }

    /** The production default: real hardware, the {@code current} tuning, one shared measurement. */
    public static SpinContext hardware() {
        return HARDWARE;
    }

    /** A context with the current (sampled) PAUSE normalization. */
    public static SpinContext of(Platform platform, Tuning tuning) {
        return new SpinContext(platform, tuning, new SampledPauseNormalizer(platform));
    }

    /** A context with an explicit normalizer (e.g. {@link OneShotPauseNormalizer} for the 2.x scheme). */
    public static SpinContext of(Platform platform, Tuning tuning, PauseNormalizer normalizer) {
        return new SpinContext(platform, tuning, normalizer);
    }

    /** This context with another tuning, sharing the platform and its PAUSE measurement. */
    public SpinContext withTuning(Tuning newTuning) {
        return new SpinContext(platform, newTuning, normalizer);
    }

    public Platform platform() {
        return platform;
    }

    public Tuning tuning() {
        return tuning;
    }

    public PauseNormalizer normalizer() {
        return normalizer;
    }

    /** True when spin counts are normalized yields ({@code pause=normalized}). */
    public boolean normalized() {
        return normalized;
    }

    /**
     * {@code Thread.SpinWait(iterations)}: with {@code pause=normalized} each iteration is one
     * normalized yield (~37 ns on any CPU); with {@code pause=raw} it is one PAUSE instruction.
     */
    public void spinWait(int iterations) {
        if (iterations <= 0) {
            return;
        }
        if (normalized) {
            int capped = Math.min(iterations, MAX_NORMALIZED_SPIN);
            platform.pause(capped * normalizer.yieldsPerNormalizedYield());
        } else {
            platform.pause(iterations);
        }
    }

    /**
     * Exponential back-off for spin iteration {@code spinIteration}: 1, 2, 4, 8 normalized yields,
     * then the ~272 ns cap ({@code YieldProcessorWithBackOffNormalized}); raw PAUSE counts of the
     * same shape with {@code pause=raw}.
     */
    public void spinWithBackoff(int spinIteration) {
        int cap = normalizer.optimalMaxNormalizedYieldsPerSpinIteration();
        int n = cap;
        if (spinIteration <= MAX_BACKOFF_SHIFT && (1 << spinIteration) < cap) {
            n = 1 << spinIteration;
        }
        spinWait(n);
    }

    /** Starts a normalized spin loop: lets the normalizer measure if a measurement is due. */
    public void beginSpinLoop() {
        if (normalized) {
            normalizer.refreshIfDue();
        }
    }

    /** True on a single-processor platform, where spinning only delays the thread being waited for. */
    public boolean singleProcessor() {
        return processorCount == 1;
    }

    /** The platform's processor count, read when this context was made. */
    public int processorCount() {
        return processorCount;
    }

    @Override
    public String toString() {
        return "SpinContext[" + platform + ", " + tuning + ", " + normalizer + "]";
    }
}
