package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A counting semaphore that spins before it blocks: the equivalent of .NET's
 * {@code SemaphoreSlim} (synchronous waits). An acquirer that finds no permit spins up to
 * 35 × 4 = 140 SpinOnce iterations (Sleep(1) never), then blocks on an internal
 * {@link MonitorLock}; {@link #release(int)} wakes one blocked waiter per permit, counting the
 * waiters already woken so that it never wakes more than there are permits for.
 *
 * <p>Not fair: an arriving thread may take a permit before a woken waiter runs, as in .NET.
 * Thread-safe. Acquire and release without waiters are single CAS operations; with waiters,
 * release takes the lock. Misuse is rejected: a release beyond the maximum count throws and
 * leaves the count unchanged.
 */
public final class SemaphoreSlim {
    /*
     * Implementation notes.
     *
     * State word (one long):
     *   bits 0..31   permits available (0..maxCount)
     *   bits 32..62  waiters registered under the lock (blocked or about to block)
     * waitersPulsedToWake (plain int) is guarded by the lock.
     *
     * Lost wake-ups: a waiter registers (under the lock) with a CAS that fails if a permit has
     * appeared, so it either takes the permit or is counted; the lock-free release path only
     * applies when the same word shows no waiters. A release that sees waiters takes the lock,
     * which it gets only once the waiter has joined the condition queue.
     *
     * Linearization points: acquire at the CAS that lowers the count; release at the CAS that raises it.
     *
     * Why not simpler: .NET takes the monitor for every Wait and Release. Packing the waiter count
     * beside the permits lets the uncontended paths skip the lock (one CAS each, as
     * java.util.concurrent.Semaphore) without a lost wake-up.
     */

    static final long COUNT_MASK = 0xFFFF_FFFFL;
    static final int WAITERS_SHIFT = 32;
    static final long WAITER_ONE = 1L << WAITERS_SHIFT;
    /** Spin iterations before blocking: SpinWait's 35, times 4 because blocking here costs more. */
    public static final int SPIN_ITERATIONS = SpinWait.SPIN_COUNT_FOR_SPIN_BEFORE_WAIT * 4;

    private final SpinContext context;
    private final int maxCount;
    private final MonitorLock lock;
    private volatile long state;
    /** Waiters pulsed but not yet run; guarded by the lock. */
    private int waitersPulsedToWake;

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
        this.context = context;
        this.maxCount = maxCount;
        this.lock = new MonitorLock(context, this);
        this.state = initialCount;
    }

    /** Permits available now. */
    public int currentCount() {
        return count(state);
    }

    public int maxCount() {
        return maxCount;
    }

    /** Threads blocked (or about to block) in acquire; spinning acquirers are not counted. */
    public int waiterCount() {
        return waiters(state);
    }

    /** Takes a permit if one is available now. */
    public boolean tryAcquire() {
        for (;;) {
            long s = state;
            if (count(s) == 0) {
                return false;
            }
            // LP: the CAS that takes a permit.
            if (STATE.compareAndSet(this, s, s - 1)) {
                return true;
            }
        }
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
        if (tryAcquire()) {
            return true;
        }
        if (timeoutNanos == 0) {
            return false;
        }
        Platform platform = context.platform();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        if (spinForPermit()) {
            return true;
        }
        lock.enter();
        try {
            if (!registerWaiterOrTake()) {
                return true;
            }
            boolean registered = true;
            try {
                for (;;) {
                    long remaining = Long.MAX_VALUE;
                    if (timeoutNanos > 0) {
                        remaining = timeoutNanos - (platform.nanoTime() - start);
                        if (remaining <= 0) {
                            registered = !takeAsWaiter();
                            return !registered;
                        }
                    }
                    if (remaining == Long.MAX_VALUE) {
                        lock.await();
                    } else {
                        lock.await(remaining, TimeUnit.NANOSECONDS);
                    }
                    if (waitersPulsedToWake > 0) {
                        waitersPulsedToWake--;
                    }
                    if (takeAsWaiter()) {
                        registered = false;
                        return true;
                    }
                }
            } catch (InterruptedException e) {
                // A permit beats the interrupt, as in .NET; the interrupt status is kept.
                if (takeAsWaiter()) {
                    registered = false;
                    Thread.currentThread().interrupt();
                    return true;
                }
                throw e;
            } finally {
                if (registered) {
                    unregisterWaiter();
                }
            }
        } finally {
            lock.exit();
        }
    }

    private boolean spinForPermit() {
        SpinWait spinner = new SpinWait(context);
        for (int i = 0; i < SPIN_ITERATIONS; i++) {
            spinner.spinOnce(-1);
            if (count(state) != 0 && tryAcquire()) {
                return true;
            }
        }
        return false;
    }

    /** Under the lock: true if now counted as a waiter, false if a permit was taken instead. */
    private boolean registerWaiterOrTake() {
        for (;;) {
            long s = state;
            if (count(s) > 0) {
                if (STATE.compareAndSet(this, s, s - 1)) {
                    return false;
                }
            } else if (STATE.compareAndSet(this, s, s + WAITER_ONE)) {
                return true;
            }
        }
    }

    /** Under the lock: takes a permit and unregisters in one CAS; false if there is no permit. */
    private boolean takeAsWaiter() {
        for (;;) {
            long s = state;
            if (count(s) == 0) {
                return false;
            }
            // LP: a woken waiter takes its permit.
            if (STATE.compareAndSet(this, s, s - 1 - WAITER_ONE)) {
                return true;
            }
        }
    }

    private void unregisterWaiter() {
        STATE.getAndAdd(this, -WAITER_ONE);
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
        for (;;) {
            long s = state;
            if (waiters(s) != 0) {
                return releaseWithWaiters(releaseCount);
            }
            int before = checkRoom(s, releaseCount);
            // LP: the CAS that adds permits (no waiters).
            if (STATE.compareAndSet(this, s, s + releaseCount)) {
                return before;
            }
        }
    }

    private int releaseWithWaiters(int releaseCount) {
        lock.enter();
        try {
            long s;
            int before;
            for (;;) {
                s = state;
                before = checkRoom(s, releaseCount);
                // LP: the CAS that adds permits (waiters present).
                if (STATE.compareAndSet(this, s, s + releaseCount)) {
                    break;
                }
            }
            int waiters = waiters(s);
            int toWake = Math.min(before + releaseCount, waiters) - waitersPulsedToWake;
            toWake = Math.max(0, Math.min(toWake, releaseCount));
            waitersPulsedToWake += toWake;
            for (int i = 0; i < toWake; i++) {
                lock.pulse();
            }
            return before;
        } finally {
            lock.exit();
        }
    }

    private int checkRoom(long s, int releaseCount) {
        int before = count(s);
        if (maxCount - before < releaseCount) {
            throw new IllegalStateException("release(" + releaseCount + ") would raise the count " + before
                    + " above maxCount " + maxCount);
        }
        return before;
    }

    private static int count(long s) {
        return (int) (s & COUNT_MASK);
    }

    private static int waiters(long s) {
        return (int) (s >>> WAITERS_SHIFT);
    }

    @Override
    public String toString() {
        long s = state;
        return "SemaphoreSlim[count=" + count(s) + ", max=" + maxCount + ", waiters=" + waiters(s) + "]";
    }

    // VarHandle mechanics
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SemaphoreSlim.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
