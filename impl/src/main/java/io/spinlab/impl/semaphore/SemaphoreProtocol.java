package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;

/**
 * How a {@link SemaphoreSlim} keeps its count, spins before it blocks and uses its internal
 * Monitor: one class per value of the {@code semaphore} knob, chosen once when the semaphore is
 * made. Each owns the semaphore's state; {@link SemaphoreSlim} validates arguments and delegates.
 *
 * <ul>
 *   <li>{@code until-yield} ({@link MonitorProtocol.UntilYield}): .NET Core 2.0;</li>
 *   <li>{@code spinonce} ({@link MonitorProtocol.SpinOnce}): .NET Core 2.1 and later;</li>
 *   <li>{@code lock-free} ({@link LockFreeProtocol}): no runtime, a what-if with one-CAS fast paths.</li>
 * </ul>
 */
interface SemaphoreProtocol {

    /** Permits available now (a snapshot). */
    int currentCount();

    /** Threads that {@link SemaphoreSlim#waiterCount()} reports (a snapshot). */
    int waiterCount();

    /** {@code Wait(0)}: takes a permit if there is one, never blocking on the count. */
    boolean tryAcquire();

    /**
     * Takes a permit, waiting up to {@code timeoutNanos} (−1 = as long as it takes, 0 = only try).
     * The caller has already rejected an interrupted thread.
     */
    boolean acquire(long timeoutNanos) throws InterruptedException;

    /**
     * Adds {@code releaseCount} (1 or more, checked by the caller) permits and wakes waiters.
     *
     * @return the count before
     * @throws IllegalStateException if the count would exceed the maximum (nothing is released)
     */
    int release(int releaseCount);

    /** The internal Monitor (for tests in this package: who holds it decides who may proceed). */
    MonitorLock monitor();

    /** The protocol of the context's {@code semaphore} knob, its waits attributed to {@code blocker}. */
    static SemaphoreProtocol of(SpinContext context, int initialCount, int maxCount, Object blocker) {
        return switch (context.tuning().semaphore()) {
            case UNTIL_YIELD -> new MonitorProtocol.UntilYield(context, initialCount, maxCount, blocker);
            case SPINONCE -> new MonitorProtocol.SpinOnce(context, initialCount, maxCount, blocker);
            case LOCK_FREE -> new LockFreeProtocol(context, initialCount, maxCount, blocker);
        };
    }

    /** The message of a release that would raise {@code before} above {@code maxCount}. */
    static IllegalStateException full(int releaseCount, int before, int maxCount) {
        return new IllegalStateException("release(" + releaseCount + ") would raise the count " + before
                + " above maxCount " + maxCount);
    }
}
