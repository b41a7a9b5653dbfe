package io.spinlab.impl.spin;

import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The legacy (.NET Core 2.x) PAUSE normalization: measured once, on first use, by PAUSEing
 * continuously for 10 ms in batches of 1,000 between clock reads. Never refreshed.
 *
 * <p>Thread-safe: the first caller of {@link #refreshIfDue()} measures; others use the
 * defaults until the result is published.
 */
public final class OneShotPauseNormalizer extends CalibratedPauseNormalizer {
    /*
     * Implementation notes.
     *
     * Why not simpler: .NET guarded this with a lock and later moved it to the finalizer thread
     * because the first caller paid 10 ms. Here the first spinner pays it; the state CAS
     * guarantees exactly one measurement without a lock.
     */

    /** Duration of the single measurement. */
    public static final long MEASURE_NANOS = 10_000_000L;
    /** PAUSEs between two clock reads. */
    static final int BATCH = 1_000;

    private static final int UNMEASURED = 0;
    private static final int MEASURING_NOW = 1;
    private static final int DONE = 2;

    private final Platform platform;
    private volatile int state;

    public OneShotPauseNormalizer(Platform platform) {
        super("one-shot");
        this.platform = platform;
    }

    @Override
    public void refreshIfDue() {
        if (state != UNMEASURED || !STATE.compareAndSet(this, UNMEASURED, MEASURING_NOW)) {
            return;
        }
        long start = platform.nanoTime();
        long count = 0;
        long elapsed;
        do {
            platform.pause(BATCH);
            count += BATCH;
            elapsed = platform.nanoTime() - start;
        } while (elapsed < MEASURE_NANOS && count < MEASURE_NANOS);
        // (More PAUSEs than nanoseconds means under 1 ns each: the floor applies, stop measuring.)
        double nsPerPause = Math.max(1.0, (double) elapsed / count);
        publish(Calibration.of(nsPerPause, platform.nanoTime()));
        STATE.setRelease(this, DONE); // .NET: a Volatile<bool> store, a release
    }

    // VarHandle mechanics
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(OneShotPauseNormalizer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
