package io.spinlab.model.platform;

import java.util.function.LongSupplier;

/**
 * The seam between the primitives and whatever runs them: every primitive goes through a
 * {@code Platform} for everything that touches time, the processor or the scheduler.
 *
 * <p>Production code gets the hardware implementation, whose calls are monomorphic and inline
 * away. The simulator supplies one that runs the same primitives on virtual processors in
 * virtual time, so a PAUSE can cost 10 cycles, 140 cycles or nothing at all.
 *
 * <p>Contract for implementations:
 * <ul>
 *   <li>{@link #park} may return spuriously; callers re-check their condition in a loop.</li>
 *   <li>An {@link #unpark} that precedes the matching {@link #park} makes that park return
 *       immediately (a permit, as {@code LockSupport}).</li>
 *   <li>The blocker passed to park is what traces and deadlock reports show as the thing waited on.</li>
 *   <li>{@link #beginSpinWait}/{@link #endSpinWait} attribute waiting without parking the same
 *       way; they are facts for metrics only and change nothing else.</li>
 *   <li>{@link #nextRandom} is the only source of randomness a primitive may use for decisions
 *       (back-off jitter), so that a simulated run is reproducible from its seed.</li>
 * </ul>
 */
public interface Platform {

    /** The number of logical processors the primitives should assume. */
    int processorCount();

    /** A monotonic clock in nanoseconds; only differences are meaningful. */
    long nanoTime();

    /** Issues {@code count} PAUSE instructions (x86 {@code pause}); {@code count <= 0} does nothing. */
    void pause(int count);

    /** Offers the processor to another ready thread ({@code SwitchToThread}, {@code sched_yield}). */
    void yieldThread();

    /**
     * Sleeps the calling thread. {@code 0} gives up the rest of the time slice (Windows
     * {@code Sleep(0)}); a positive value sleeps at least that long, rounded up to the
     * platform's timer granularity. Interruption is not reported here; callers check it.
     */
    void sleep(long nanos);

    /**
     * Blocks the calling thread until unparked, interrupted or spuriously woken.
     *
     * @param blocker the object being waited on, for traces and deadlock reports
     */
    void park(Object blocker);

    /**
     * As {@link #park(Object)}, returning after at most about {@code nanos}; {@code nanos <= 0}
     * returns at once.
     */
    void parkNanos(Object blocker, long nanos);

    /**
     * The calling thread begins waiting for {@code blocker} without parking: it will spin, yield
     * or sleep until it can proceed (a contended spin lock). Paired with {@link #endSpinWait} on
     * the same thread; such waits do not nest. Like the blocker of {@link #park}, this is for
     * metrics and traces only: it costs nothing and is not a scheduling point, and a platform
     * that keeps no such metrics ignores it (the default, and the hardware's).
     *
     * @param blocker the object being waited for, as it would be passed to {@link #park}
     */
    default void beginSpinWait(Object blocker) {
    }

    /** The calling thread's wait begun by {@link #beginSpinWait} with {@code blocker} is over. */
    default void endSpinWait(Object blocker) {
    }

    /**
     * A measuring harness announces that it counts what happens between {@code startNanos} and
     * {@code endNanos} of {@link #nanoTime()}, before that window opens, so that a platform that
     * keeps metrics can report the processor time spent inside it (what each counted operation
     * cost) apart from the warm-up and the shutdown. Like {@link #beginSpinWait}, a fact for
     * metrics only: it costs nothing, is not a scheduling point, and the hardware ignores it.
     */
    default void measuredWindow(long startNanos, long endNanos) {
    }

    /**
     * As {@link #measuredWindow(long, long)}, and {@code counted} tells how many operations the
     * harness has counted in the window so far. A platform that keeps metrics may read it at
     * instants of its own choosing, outside the measured code's time and order (the simulator
     * reads it once, at the window's midpoint, to see whether the rate still changes); it must
     * cost nothing and be no scheduling point. By default the same as the two-argument call.
     */
    default void measuredWindow(long startNanos, long endNanos, LongSupplier counted) {
        measuredWindow(startNanos, endNanos);
    }

    /** Makes {@code thread}'s current or next park return; null is ignored. */
    void unpark(Thread thread);

    /** Starts a new platform-managed thread running {@code task}. */
    Thread startThread(String name, Runnable task);

    /** A uniformly distributed int in {@code [0, bound)}; {@code bound} must be positive. */
    int nextRandom(int bound);
}
