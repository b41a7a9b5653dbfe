package io.spinlab.impl.spin;

import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The current (.NET 6+) PAUSE normalization: eight short samples (1 µs each, 4 µs when reading
 * the clock is slow), the established cost is the minimum of the last eight samples, and a new
 * sample replaces the oldest at most every 4 s, only while spin loops keep asking.
 *
 * <p>Thread-safe and lock-free: one thread at a time wins the right to measure (a CAS on a
 * flag); the others keep using the published values meanwhile.
 */
public final class SampledPauseNormalizer extends CalibratedPauseNormalizer {
    /*
     * Implementation notes.
     *
     * Invariants: samples[] and nextSample are touched only by the thread holding `measuring`;
     * calibration is replaced, never mutated.
     *
     * Memory ordering: the measuring thread writes samples[] and then publishes a new
     * Calibration with a volatile write; the CAS that releases `measuring` happens after it, so
     * the next measuring thread (which won the CAS) sees the samples written before.
     *
     * Why synchronous: .NET measures on the finalizer thread; here the first spinner that finds a
     * measurement due takes the sample itself (8–32 µs once, then ≤ 4 µs every 4 s). That keeps
     * the simulator deterministic and needs no background thread.
     */

    /** Samples kept; the established value is their minimum. */
    public static final int SAMPLE_COUNT = 8;
    /** Minimum spacing of re-measurements. */
    public static final long MEASUREMENT_PERIOD_NANOS = 4_000_000_000L;
    /** Short sample duration. */
    static final long SHORT_SAMPLE_NANOS = 1_000;
    /** Sample duration when two back-to-back clock reads cost at least a quarter of the short one. */
    static final long LONG_SAMPLE_NANOS = 4_000;
    /** Clamp of one sample: at least 0.1 ns per PAUSE. */
    static final double MIN_NS_PER_PAUSE = 0.1;
    /** Clamp of one sample: at most 272 / 1.5 + 1 ns per PAUSE. */
    static final double MAX_NS_PER_PAUSE = TARGET_MAX_NS_PER_SPIN_ITERATION / 1.5 + 1;
    /** PAUSEs per sample beyond which the result would be below the 0.1 ns clamp anyway (4 µs / 0.1 ns). */
    static final long MAX_PAUSES_PER_SAMPLE = (long) (LONG_SAMPLE_NANOS / MIN_NS_PER_PAUSE);

    private final Platform platform;
    private final double[] samples = new double[SAMPLE_COUNT];
    private int nextSample;
    private long sampleNanos;

    private volatile int measuring;

    public SampledPauseNormalizer(Platform platform) {
        super("sampled");
        this.platform = platform;
    }

    @Override
    public void refreshIfDue() {
        Calibration current = calibration();
        if (current.measured() && platform.nanoTime() - current.measuredAtNanos() < MEASUREMENT_PERIOD_NANOS) {
            return;
        }
        if (measuring != 0 || !MEASURING.compareAndSet(this, 0, 1)) {
            return;
        }
        try {
            measure(current.measured());
        } finally {
            MEASURING.setRelease(this, 0); // hands the samples to the next measuring thread
        }
    }

    private void measure(boolean alreadyInitialized) {
        double established;
        if (!alreadyInitialized) {
            sampleNanos = chooseSampleNanos();
            established = Double.MAX_VALUE;
            double estimate = TARGET_NS_PER_NORMALIZED_YIELD;
            for (int i = 0; i < SAMPLE_COUNT; i++) {
                double sample = sample(estimate);
                samples[i] = sample;
                established = Math.min(established, sample);
                estimate = established;
            }
            nextSample = 0;
        } else {
            samples[nextSample] = sample(calibration().nsPerPause());
            nextSample = (nextSample + 1) % SAMPLE_COUNT;
            established = Double.MAX_VALUE;
            for (double sample : samples) {
                established = Math.min(established, sample);
            }
        }
        publish(Calibration.of(established, platform.nanoTime()));
    }

    private long chooseSampleNanos() {
        long start = platform.nanoTime();
        long overhead = platform.nanoTime() - start;
        return overhead >= SHORT_SAMPLE_NANOS / 4 ? LONG_SAMPLE_NANOS : SHORT_SAMPLE_NANOS;
    }

    /**
     * One sample: PAUSE in growing batches until the sample duration has passed. A PAUSE that
     * costs (almost) nothing would never fill the sample; the PAUSE count is capped where the
     * result would be clamped anyway.
     */
    private double sample(double estimatedNsPerPause) {
        long target = sampleNanos;
        long count = Math.min(MAX_PAUSES_PER_SAMPLE, (long) (target / estimatedNsPerPause) + 1);
        long start = platform.nanoTime();
        platform.pause((int) count);
        long total = count;
        long elapsed = platform.nanoTime() - start;
        while (elapsed < target && total < MAX_PAUSES_PER_SAMPLE) {
            long next;
            if (elapsed <= 0) {
                next = Math.max(4, total / 4);
            } else {
                next = Math.max(4, total * (target - elapsed) / elapsed + 1);
            }
            next = Math.min(next, MAX_PAUSES_PER_SAMPLE - total);
            platform.pause((int) next);
            total += next;
            elapsed = platform.nanoTime() - start;
        }
        double nsPerPause = (double) elapsed / total;
        return Math.max(MIN_NS_PER_PAUSE, Math.min(MAX_NS_PER_PAUSE, nsPerPause));
    }

    // VarHandle mechanics
    private static final VarHandle MEASURING;

    static {
        try {
            MEASURING = MethodHandles.lookup().findVarHandle(SampledPauseNormalizer.class, "measuring", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
