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
    /**
     * CoreRT's {@code Thread.OptimalMaxSpinWaitsPerSpinIteration}, a constant 64 "from CoreCLR
     * defaults" (dotnet/corert {@code Thread.CoreRT.cs} @ 01275c61), before and after corert #7569.
     */
    public static final int FIXED_OPTIMAL_MAX_SPIN_WAITS_PER_SPIN_ITERATION = 64;
    /** {@code YieldProcessorNormalizedForPreSkylakeCount}'s divisor (dotnet/coreclr #21586, corert #7569). */
    static final int PRESKYLAKE_COUNT_DIVISOR = 8;

    private static final SpinContext HARDWARE = new SpinContext(HardwarePlatform.INSTANCE, Tuning.current(),
            new SampledPauseNormalizer(HardwarePlatform.INSTANCE));

    private final Platform platform;
    private final Tuning tuning;
    private final PauseNormalizer normalizer;
    private final PauseMode pause;
    /** Read once, as .NET caches Environment.ProcessorCount: spin loops ask on every iteration. */
    private final int processorCount;

    private SpinContext(Platform platform, Tuning tuning, PauseNormalizer normalizer) {
        this.platform = Objects.requireNonNull(platform, "platform");
        this.tuning = Objects.requireNonNull(tuning, "tuning");
        this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
        this.pause = tuning.pause();
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

    /**
     * A context with the PAUSE measurement of the tuning's {@code pause} mode: the re-sampled one
     * of .NET 6 for {@code normalized}, the one-shot 10 ms one of .NET Core 2.1 to .NET 5 (and of
     * CoreRT after corert #7569) for the others. Call {@link #measurePauseAtStartUp()} before the
     * program's first spin, as the runtime measured at start-up.
     */
    public static SpinContext of(Platform platform, Tuning tuning) {
        PauseNormalizer normalizer = tuning.pause() == PauseMode.NORMALIZED
                ? new SampledPauseNormalizer(platform) : new OneShotPauseNormalizer(platform);
        return new SpinContext(platform, tuning, normalizer);
    }

    /** A context with an explicit normalizer (e.g. a fixed calibration for a model checker). */
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

    /**
     * {@code Thread.SpinWait(iterations)}, as the {@code pause} mode defines it: one normalized
     * yield (~37 ns on any CPU) per iteration ({@code normalized}, {@code normalized-once}); one
     * PAUSE instruction ({@code raw}); or max(1, iterations × yields-per-normalized-yield / 8)
     * PAUSEs in all ({@code preskylake-scaled}, CoreRT's {@code RhSpinWait} after corert #7569).
     */
    public void spinWait(int iterations) {
        if (iterations <= 0) {
            return;
        }
        switch (pause) {
            case RAW -> platform.pause(iterations);
            case PRESKYLAKE_SCALED -> {
                long scaled = (long) iterations * normalizer.yieldsPerNormalizedYield() / PRESKYLAKE_COUNT_DIVISOR;
                platform.pause((int) Math.max(1, Math.min(Integer.MAX_VALUE, scaled)));
            }
            case NORMALIZED_ONCE, NORMALIZED -> {
                int capped = Math.min(iterations, MAX_NORMALIZED_SPIN);
                platform.pause(capped * normalizer.yieldsPerNormalizedYield());
            }
        }
    }

    /**
     * {@code Thread.OptimalMaxSpinWaitsPerSpinIteration}: the measured ~272 ns in normalized yields
     * when counts are normalized; CoreRT's constant 64 for {@code raw} and {@code preskylake-scaled}.
     *
     * <p>Read afresh every time, which is exact for every generation: .NET Core 2.1 to .NET 5 cached
     * the first read in managed code ({@code s_optimalMaxSpinWaitsPerSpinIteration}, dotnet/runtime
     * {@code Thread.CoreCLR.cs} @ 04da5a17), but that read waited for the runtime's one measurement,
     * which never changed afterwards ({@link OneShotPauseNormalizer}, measured before the first
     * spin); .NET 6 re-measures and reads the native value each time ({@code [InternalCall] get} @
     * 57f00ec6; removed with dotnet/runtime #55295 as far as the stored copies show, the diff itself
     * was not found).
     */
    public int optimalMaxSpinWaitsPerSpinIteration() {
        return pause.normalizedYields() ? normalizer.optimalMaxNormalizedYieldsPerSpinIteration()
                : FIXED_OPTIMAL_MAX_SPIN_WAITS_PER_SPIN_ITERATION;
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

    /** Starts a spin loop: lets the normalizer measure if a measurement is due and the mode uses one. */
    public void beginSpinLoop() {
        if (pause != PauseMode.RAW) {
            normalizer.refreshIfDue();
        }
    }

    /**
     * What the runtime did before the program's first spin: the one-shot PAUSE measurement of
     * {@code normalized-once} and {@code preskylake-scaled}, which CoreCLR ran on the finalizer
     * thread at start-up (dotnet/coreclr #14058) and CoreRT likewise (corert #7569, #7574). Without
     * it the first spinner of a run would pay the 10 ms. Nothing for {@code raw}; for
     * {@code normalized} (.NET 6) the first spin loop takes the short samples, as there.
     */
    public void measurePauseAtStartUp() {
        if (pause == PauseMode.NORMALIZED_ONCE || pause == PauseMode.PRESKYLAKE_SCALED) {
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
