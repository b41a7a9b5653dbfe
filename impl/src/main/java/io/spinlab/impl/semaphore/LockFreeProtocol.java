package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * {@code semaphore=lock-free}, a what-if that no runtime shipped: {@code Wait} and {@code Release}
 * are one CAS each while nobody is blocked, as in {@code java.util.concurrent.Semaphore}; an
 * acquirer that finds no permit spins the {@code spinonce} spin (140 SpinOnce iterations, never
 * Sleep(1)) and only then takes the internal Monitor to block; a release takes the Monitor only
 * when the state word shows blocked waiters. This was spinlab's SemaphoreSlim before the
 * {@code semaphore} knob; it is kept unchanged so that the cost of .NET's lock per call can be
 * measured against it.
 */
final class LockFreeProtocol implements SemaphoreProtocol {
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
     * Why not simpler: .NET takes the monitor for every Wait and Release (MonitorProtocol). Packing
     * the waiter count beside the permits lets the uncontended paths skip the lock (one CAS each,
     * as java.util.concurrent.Semaphore) without a lost wake-up.
     */

    static final long COUNT_MASK = 0xFFFF_FFFFL;
    static final int WAITERS_SHIFT = 32;
    static final long WAITER_ONE = 1L << WAITERS_SHIFT;

    private final SpinContext context;
    private final int maxCount;
    private final MonitorLock lock;
    private volatile long state;
    /** Waiters pulsed but not yet run; guarded by the lock. */
    private int waitersPulsedToWake;

    LockFreeProtocol(SpinContext context, int initialCount, int maxCount, Object blocker) {
        this.context = context;
        this.maxCount = maxCount;
        this.lock = new MonitorLock(context, blocker);
        this.state = initialCount;
    }

    @Override
    public int currentCount() {
        return count(state);
    }

    /** Threads blocked (or about to block) in acquire; spinning acquirers are not counted. */
    @Override
    public int waiterCount() {
        return waiters(state);
    }

    @Override
    public MonitorLock monitor() {
        return lock;
    }

    @Override
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

    @Override
    public boolean acquire(long timeoutNanos) throws InterruptedException {
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
        for (int i = 0; i < SemaphoreSlim.SPIN_ITERATIONS; i++) {
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

    @Override
    public int release(int releaseCount) {
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
            throw SemaphoreProtocol.full(releaseCount, before, maxCount);
        }
        return before;
    }

    private static int count(long s) {
        return (int) (s & COUNT_MASK);
    }

    private static int waiters(long s) {
        return (int) (s >>> WAITERS_SHIFT);
    }

    // VarHandle mechanics
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(LockFreeProtocol.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
