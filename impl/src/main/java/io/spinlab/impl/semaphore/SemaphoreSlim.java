package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.tuning.SemaphorePolicy;

import java.util.concurrent.TimeUnit;

/**
 * A counting semaphore that spins before it blocks: the equivalent of .NET's
 * {@code SemaphoreSlim} (synchronous waits), with its spin and lock use chosen by the
 * {@code semaphore} knob ({@link SemaphorePolicy}):
 *
 * <ul>
 *   <li>{@code spinonce} (.NET Core 2.1 and later, the {@code current} tuning): an acquirer that
 *       finds no permit spins up to 35 × 4 = 140 SpinOnce iterations (Sleep(1) never); then every
 *       acquire takes an internal {@link MonitorLock}, even one whose spin saw a permit, and
 *       takes the permit under it or waits on it; every release takes the lock and pulses one
 *       blocked waiter per permit, counting the waiters already pulsed so that it never wakes more
 *       than there are permits for;</li>
 *   <li>{@code until-yield} (.NET Core 2.0): the spin is SpinOnce until the next one would yield
 *       (8,188 raw PAUSEs with 2.0's SpinWait, no yield); the lock as above; a release pulses
 *       min(permits released, waiters) without counting the waiters already pulsed;</li>
 *   <li>{@code lock-free} (a what-if, no runtime): the {@code spinonce} spin, with acquire and
 *       release single CAS operations while nobody is blocked; the lock only to block and to
 *       wake.</li>
 * </ul>
 *
 * <p>Not fair: an arriving thread may take a permit before a woken waiter runs, as in .NET.
 * Thread-safe; blocking. Misuse is rejected: a release beyond the maximum count throws and
 * leaves the count unchanged. An interrupt ends a wait (a permit that is there by then is still
 * taken, the interrupt status kept), as a cancellation does in .NET.
 */
public final class SemaphoreSlim {
    /*
     * Implementation notes.
     *
     * This class validates arguments and delegates to its SemaphoreProtocol, chosen once from the
     * tuning, which owns the state: MonitorProtocol (.NET's, the count under the lock; its two
     * nested variants differ in the spin and in how many waiters a release pulses) or
     * LockFreeProtocol (packed count and waiters in one CAS'd word). Invariants, linearization
     * points and memory ordering are in each protocol's notes.
     */

    /** Spin iterations before blocking ({@code spinonce}, {@code lock-free}): SpinWait's 35, times 4. */
    public static final int SPIN_ITERATIONS = SpinWait.SPIN_COUNT_FOR_SPIN_BEFORE_WAIT * 4;

    private final int maxCount;
    private final SemaphorePolicy policy;
    private final SemaphoreProtocol protocol;

    /** A semaphore with no upper bound (Integer.MAX_VALUE). */
    public SemaphoreSlim(SpinContext context, int initialCount) {
        this(context, initialCount, Integer.MAX_VALUE);
    }

    /**
     * @param initialCount permits available at the start, 0..maxCount
     * @param maxCount the most permits the semaphore may hold, 1 or more
     */
    public SemaphoreSlim(SpinContext context, int initialCount, int maxCount) {
        if (maxCount < 1) {
            throw new IllegalArgumentException("maxCount = " + maxCount + " is out of range; allowed 1.."
                    + Integer.MAX_VALUE);
        }
        if (initialCount < 0 || initialCount > maxCount) {
            throw new IllegalArgumentException("initialCount = " + initialCount + " is out of range; allowed 0.."
                    + maxCount + " (maxCount)");
        }
        this.maxCount = maxCount;
        this.policy = context.tuning().semaphore();
        this.protocol = SemaphoreProtocol.of(context, initialCount, maxCount, this);
    }

    /** Permits available now. */
    public int currentCount() {
        return protocol.currentCount();
    }

    public int maxCount() {
        return maxCount;
    }

    /**
     * Threads blocked (or about to block) in acquire; spinning acquirers are not counted. Under
     * {@code until-yield} and {@code spinonce} this is .NET's {@code m_waitCount}: it also counts,
     * for the moment it holds the lock, an acquirer that takes a permit without blocking.
     */
    public int waiterCount() {
        return protocol.waiterCount();
    }

    /** The policy this semaphore was made with. */
    public SemaphorePolicy policy() {
        return policy;
    }

    /**
     * Takes a permit if one is available now ({@code Wait(0)}). Under {@code until-yield} and
     * {@code spinonce} a permit seen outside the lock is taken under it, so this may wait for the
     * internal lock (and spin, if the permit is gone by then), never for a permit.
     */
    public boolean tryAcquire() {
        return protocol.tryAcquire();
    }

    /** Takes a permit, waiting as long as it takes. */
    public void acquire() throws InterruptedException {
        boolean acquired = acquireNanos(-1);
        assert acquired;
    }

    /**
     * Takes a permit if one becomes available within {@code timeout}; a zero timeout only tries.
     * A permit that is there when the timeout passes is still taken.
     */
    public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        return acquireNanos(unit.toNanos(timeout));
    }

    private boolean acquireNanos(long timeoutNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return protocol.acquire(timeoutNanos);
    }

    /** Returns one permit; see {@link #release(int)}. */
    public int release() {
        return release(1);
    }

    /**
     * Returns {@code releaseCount} permits and wakes up to that many blocked waiters.
     *
     * @return the count before the release
     * @throws IllegalArgumentException if {@code releaseCount} is below 1
     * @throws IllegalStateException if the count would exceed {@link #maxCount()} (nothing is released)
     */
    public int release(int releaseCount) {
        if (releaseCount < 1) {
            throw new IllegalArgumentException("releaseCount = " + releaseCount + " is out of range; allowed 1 or more");
        }
        return protocol.release(releaseCount);
    }

    /** The internal Monitor, for tests in this package. */
    MonitorLock monitor() {
        return protocol.monitor();
    }

    @Override
    public String toString() {
        return "SemaphoreSlim[count=" + currentCount() + ", max=" + maxCount + ", waiters=" + waiterCount() + "]";
    }
}
