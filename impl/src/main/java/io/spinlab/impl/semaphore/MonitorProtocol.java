package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * SemaphoreSlim's synchronous {@code Wait} and {@code Release} as .NET shipped them: the count is
 * only ever changed under the internal Monitor. {@code Wait} fails at once when it may not wait
 * and sees no permit; otherwise it spins while the count is zero (the spin is the variant's),
 * then takes the Monitor <em>on every call</em>, even when the spin saw a permit, counts itself
 * in {@code m_waitCount}, waits on the Monitor while the count is zero, and takes a permit under
 * the lock. {@code Release} always takes the Monitor, adds the permits, pulses waiters (how many
 * is the variant's), then publishes the new count.
 *
 * <p>Read at: .NET Core 2.0 — a copy of dotnet/coreclr {@code v2.0.6}
 * {@code src/mscorlib/src/System/Threading/SemaphoreSlim.cs} (stored index id 14067190510), the
 * same Wait at dotnet/runtime {@code 85ff1e3b} (older history); .NET Core 2.1 and later —
 * dotnet/coreclr {@code src/System.Private.CoreLib/shared/System/Threading/SemaphoreSlim.cs} @
 * {@code d9ef0ec8}, ahsonkhan/coreclr {@code src/mscorlib/src/...} @ {@code 7b75348b} (the 2.1
 * code). See {@code impl/GENERATION-SOURCES.md} Q5. Not modelled: {@code WaitAsync} and the
 * asynchronous waiters a synchronous {@code Wait} queues behind, the lazily made wait handle,
 * cancellation tokens (an interrupt plays the cancellation: a permit still beats it).
 */
abstract sealed class MonitorProtocol implements SemaphoreProtocol
        permits MonitorProtocol.UntilYield, MonitorProtocol.SpinOnce {
    /*
     * Implementation notes.
     *
     * Invariants: count (m_currentCount) is in 0..maxCount and written only under the lock;
     * waitCount (m_waitCount) is the number of threads inside acquire between lock.enter() and
     * lock.exit(): since each holds the lock except while in lock.await(), a releaser (which
     * holds it) sees exactly the threads waiting on the condition queue or woken from it and not
     * yet back in their loop.
     *
     * Linearization points: a successful acquire at the write of count under the lock; a failed
     * one at the read that found zero (outside the lock for the fail-fast, else under it);
     * release at the write of the new count under the lock (after its pulses, as .NET: the woken
     * waiters cannot run before the releaser exits).
     *
     * Memory ordering: count is volatile because the fail-fast check and the spin read it without
     * the lock; waitCount is volatile only for waiterCount(), which reads it without the lock.
     * Both are written under the lock with release stores, as .NET writes m_currentCount (a
     * volatile field) and m_waitCount (volatile in 2.0, plain under the lock from 2.1): dotnet/
     * coreclr src/System.Private.CoreLib/shared/System/Threading/SemaphoreSlim.cs @
     * d9ef0ec89ba127dfde3d1eaee03b34a339bd9fac. No read after them needs a fence; the lock orders
     * everything else.
     *
     * Spin/wait policy: the variant's spin, then MonitorLock.enter() (its own spin, then park),
     * then MonitorLock.await() (park), each wake re-checking the count under the lock.
     *
     * Why not simpler: LockFreeProtocol is the simpler-to-run one; this is the one .NET measured.
     */

    private final SpinContext context;
    private final int maxCount;
    private final MonitorLock lock;
    /** m_currentCount: written under the lock, read without it by the fail-fast check and the spin. */
    private volatile int count;
    /** m_waitCount: written under the lock; volatile only for {@link #waiterCount()}. */
    private volatile int waitCount;

    MonitorProtocol(SpinContext context, int initialCount, int maxCount, Object blocker) {
        this.context = context;
        this.maxCount = maxCount;
        this.lock = new MonitorLock(context, blocker);
        this.count = initialCount;
    }

    /** The spin before the Monitor, while the count reads zero. */
    abstract void spinWhileNoPermit(SpinContext context);

    /** Under the lock, in a release that raises the count to {@code countAfter}: how many waiters to pulse. */
    abstract int waitersToPulse(int releaseCount, int countAfter, int waitCount);

    /** Under the lock: a waiter has returned from {@link MonitorLock#await}, pulsed, timed out or interrupted. */
    abstract void waiterWoke();

    @Override
    public final int currentCount() {
        return count;
    }

    /** Threads inside a wait past its {@code Monitor.Enter} ({@code m_waitCount}); spinners are not counted. */
    @Override
    public final int waiterCount() {
        return waitCount;
    }

    @Override
    public final MonitorLock monitor() {
        return lock;
    }

    @Override
    public final boolean tryAcquire() {
        try {
            return acquire(0);
        } catch (InterruptedException e) {
            throw new AssertionError("a wait with a zero timeout never waits on the Monitor", e);
        }
    }

    @Override
    public final boolean acquire(long timeoutNanos) throws InterruptedException {
        // .NET: "Pessimistic fail fast", before the spin and the lock, only when it may not wait.
        if (timeoutNanos == 0 && count == 0) {
            // LP: a failed try that never takes the lock.
            return false;
        }
        Platform platform = context.platform();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        spinWhileNoPermit(context);
        // Taken on every Wait, even when the spin saw a permit: the count only changes under it.
        lock.enter();
        WAIT_COUNT.setRelease(this, waitCount + 1); // under the lock
        try {
            if (count == 0) {
                if (timeoutNanos == 0) {
                    return false;
                }
                try {
                    waitUntilCountOrTimeout(timeoutNanos, start);
                } catch (InterruptedException e) {
                    // A permit beats the interrupt, as in .NET a count beats the cancellation;
                    // the interrupt status is kept.
                    if (takePermit()) {
                        Thread.currentThread().interrupt();
                        return true;
                    }
                    throw e;
                }
            }
            // A permit that is there when the timeout passes is still taken, as in .NET.
            return takePermit();
        } finally {
            WAIT_COUNT.setRelease(this, waitCount - 1); // under the lock
            lock.exit();
        }
    }

    /** .NET's {@code WaitUntilCountOrTimeout}: waits on the Monitor while the count is zero. */
    private void waitUntilCountOrTimeout(long timeoutNanos, long start) throws InterruptedException {
        Platform platform = context.platform();
        while (count == 0) {
            long remaining = Long.MAX_VALUE;
            if (timeoutNanos > 0) {
                remaining = timeoutNanos - (platform.nanoTime() - start);
                if (remaining <= 0) {
                    return;
                }
            }
            boolean pulsed;
            try {
                if (remaining == Long.MAX_VALUE) {
                    lock.await();
                    pulsed = true;
                } else {
                    pulsed = lock.await(remaining, TimeUnit.NANOSECONDS);
                }
            } finally {
                waiterWoke();
            }
            if (!pulsed) {
                return;
            }
        }
    }

    /** Under the lock: takes a permit if there is one. */
    private boolean takePermit() {
        int c = count;
        if (c == 0) {
            return false;
        }
        // LP: a permit taken, under the lock.
        COUNT.setRelease(this, c - 1);
        return true;
    }

    @Override
    public final int release(int releaseCount) {
        lock.enter();
        try {
            int before = count;
            if (maxCount - before < releaseCount) {
                throw SemaphoreProtocol.full(releaseCount, before, maxCount);
            }
            int after = before + releaseCount;
            int toPulse = waitersToPulse(releaseCount, after, waitCount);
            for (int i = 0; i < toPulse; i++) {
                lock.pulse();
            }
            // LP: the new count, published under the lock after the pulses (as .NET).
            COUNT.setRelease(this, after);
            return before;
        } finally {
            lock.exit();
        }
    }

    /**
     * {@code semaphore=until-yield}, .NET Core 2.0 (dotnet/coreclr {@code v2.0.6}; the spin as at
     * dotnet/runtime {@code 85ff1e3b}): {@code SpinOnce()} while the count is zero and
     * {@code !NextSpinWillYield}, so the spin never yields: with 2.0's exponential SpinWait that
     * is 11 calls, 4 … 4,096 raw PAUSEs, 8,188 in all; none on one processor. Release pulses
     * {@code Math.Min(releaseCount, m_waitCount)} waiters (dotnet/coreclr #137, before 2.0),
     * counting neither the waiters already pulsed nor the count already there: a waiter pulsed
     * but not yet run is pulsed again by the next release.
     */
    static final class UntilYield extends MonitorProtocol {
        UntilYield(SpinContext context, int initialCount, int maxCount, Object blocker) {
            super(context, initialCount, maxCount, blocker);
        }

        @Override
        void spinWhileNoPermit(SpinContext context) {
            SpinWait spin = new SpinWait(context);
            while (currentCount() == 0 && !spin.nextSpinWillYield()) {
                spin.spinOnce();
            }
        }

        @Override
        int waitersToPulse(int releaseCount, int countAfter, int waitCount) {
            return Math.min(releaseCount, waitCount);
        }

        @Override
        void waiterWoke() {
            // 2.0 keeps no count of pulsed waiters.
        }
    }

    /**
     * {@code semaphore=spinonce}, .NET Core 2.1 and later: only if the count is zero,
     * {@code SpinCountforSpinBeforeWait * 4} = 140 SpinOnce iterations, breaking as soon as the
     * count is not zero, never Sleep(1) (2.1: {@code SpinOnce(Sleep1ThresholdForSpinBeforeWait * 4)}
     * = 160, a threshold 140 iterations never reach, coreclr #13766; 3.0: {@code SpinOnce(-1)},
     * coreclr #18204; the count check before the spin restored by coreclr #15002). Release pulses
     * {@code Math.Min(count, m_waitCount) - m_countOfWaitersPulsedToWake} waiters, at most
     * {@code releaseCount}, and adds them to that count; every return from the wait takes one off
     * (coreclr #13766, "Fix SemaphoreSlim throughput").
     */
    static final class SpinOnce extends MonitorProtocol {
        /** m_countOfWaitersPulsedToWake: guarded by the lock. */
        private int pulsedToWake;

        SpinOnce(SpinContext context, int initialCount, int maxCount, Object blocker) {
            super(context, initialCount, maxCount, blocker);
        }

        @Override
        void spinWhileNoPermit(SpinContext context) {
            if (currentCount() != 0) {
                return;
            }
            SpinWait spinner = new SpinWait(context);
            while (spinner.count() < SemaphoreSlim.SPIN_ITERATIONS) {
                spinner.spinOnce(-1);
                if (currentCount() != 0) {
                    return;
                }
            }
        }

        @Override
        int waitersToPulse(int releaseCount, int countAfter, int waitCount) {
            int toPulse = Math.min(countAfter, waitCount) - pulsedToWake;
            if (toPulse <= 0) {
                return 0;
            }
            // .NET: a woken thread cannot tell whether it was pulsed, so the count may lag the
            // pulses actually sent; hence the cap rather than an assert.
            toPulse = Math.min(toPulse, releaseCount);
            pulsedToWake += toPulse;
            return toPulse;
        }

        @Override
        void waiterWoke() {
            if (pulsedToWake != 0) {
                pulsedToWake--;
            }
        }
    }

    // VarHandle mechanics
    private static final VarHandle COUNT;
    private static final VarHandle WAIT_COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(MonitorProtocol.class, "count", int.class);
            WAIT_COUNT = MethodHandles.lookup().findVarHandle(MonitorProtocol.class, "waitCount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
