package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.MonitorPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * CoreCLR's AwareLock since dotnet/coreclr #14216 ({@code monitor=barging}, .NET Core 2.1 to
 * .NET 8): arriving threads may take a free lock even while others wait, so a worker keeps its
 * time slice instead of forming a convoy; spinners register (at most 7) and spin with
 * exponential back-off; a releaser wakes at most one waiter, none while a spinner is registered
 * or a woken waiter has not yet run; a woken waiter spins a little, and if it loses it waits
 * again behind every other waiter; a waiter starved for 100 ms stops the barging until a waiter
 * gets the lock.
 */
final class BargingAwareLock extends CompetingEntryProtocol {
    /*
     * Implementation notes.
     *
     * Source: dotnet/runtime src/coreclr/vm/syncblk.inl @ 16b19ca7a3c2c6fb2a8d8f5bc4fd3f0576ddb224
     * (AwareLock::LockState: InterlockedTryLock, InterlockedUnlock,
     * InterlockedTrySetShouldNotPreemptWaitersIfNecessary, InterlockedTry_LockOrRegisterSpinner,
     * InterlockedTry_LockAndUnregisterSpinner, InterlockedUnregisterSpinner_TryLock,
     * InterlockedTryLock_Or_RegisterWaiter, InterlockedUnregisterWaiter,
     * InterlockedTry_LockAndUnregisterWaiterAndObserveWakeSignal,
     * InterlockedObserveWakeSignal_Try_LockAndUnregisterWaiter, Record/ResetWaiterStarvationStartTime,
     * ShouldStopPreemptingWaiters) and the PR's description (dotnet/coreclr #14216). 100 ms and a
     * 3-bit spinner count are read in syncblk.h @ 2be465e02fb972a55cb195464adcea45941d9038 (before
     * 3.0), and the PR says it cut the count to 3 bits (2017-10-12); no stored copy has the one
     * second of its 2017-11-16 comment. Not read at a 2.1 commit (neither the merge nor a
     * release/2.1 copy was found), so 2.1's values are the best reading, not verified. spinlab uses
     * 100 ms and 3 bits for every barging generation; impl/GENERATION-SOURCES.md §4c.
     *
     * State word, the layout of AwareLock::LockState:
     *   bit 0       LOCKED
     *   bit 1       SHOULD_NOT_PREEMPT_WAITERS: set once a waiter has starved for 100 ms; while set,
     *               arriving threads and spinners do not take the lock (only a woken waiter does)
     *   bits 2..4   spinner count, at most 7
     *   bit 5       WAITER_SIGNALED: a waiter has been dequeued and woken and has not yet acquired
     *               or gone back to the queue
     *   bits 6..31  waiter count
     *
     * Invariants (at every release of the queue's guard): waiters == queue.size + (WAITER_SIGNALED
     * ? 1 : 0); SHOULD_NOT_PREEMPT_WAITERS implies waiters > 0 (the last waiter to leave clears it).
     *
     * Linearization points: enter at the CAS that sets LOCKED; exit at the getAndAdd that clears it.
     *
     * Lost wake-ups: a releaser clears LOCKED and reads the waiter bits in one atomic step; a waiter
     * registers (under the guard) with a CAS that fails if the lock has become free to it. A spinner
     * never unregisters without trying the lock in the same step, because releasers do not wake
     * waiters while spinners exist; that unregistering attempt ignores SHOULD_NOT_PREEMPT_WAITERS,
     * as in CoreCLR, so a lock released to spinners is always taken by one.
     *
     * Starvation clock: CoreCLR reads GetTickCount (milliseconds); here the platform clock in whole
     * milliseconds, 0 meaning "not recorded" (a recorded 0 becomes -1, as CoreCLR does). The field
     * is a plain word in CoreCLR; here opaque, read and written without ordering.
     *
     * Spin: 30 iterations of YieldProcessorWithBackOffNormalized (1, 2, 4, 8 normalized yields,
     * then ~272 ns), ~8 µs at most (g_SpinConstants.dwMonitorSpinCount = 30); none on one processor.
     */

    static final int SHOULD_NOT_PREEMPT_WAITERS = 1 << 1;
    static final int SPINNER_SHIFT = 2;
    static final int SPINNER_ONE = 1 << SPINNER_SHIFT;
    static final int SPINNER_MASK = 7 << SPINNER_SHIFT;
    static final int WAITER_SIGNALED = 1 << 5;
    static final int WAITER_SHIFT = 6;
    static final int WAITER_ONE = 1 << WAITER_SHIFT;
    static final int MAX_WAITERS = -1 >>> WAITER_SHIFT;
    /** Spin iterations before waiting (CoreCLR {@code Monitor_SpinCount}). */
    static final int SPIN_COUNT = 30;
    /** {@code WaiterStarvationDurationMsBeforeStoppingPreemptingWaiters}. */
    static final long STARVATION_MS = 100;

    private enum SpinResult { ENTERED, CONTENTION, USE_SLOW_PATH }

    /** Milliseconds on the platform clock when waiters last made progress; 0 = none recorded. */
    private long waiterStarvationStartMs;

    BargingAwareLock(SpinContext context, Object blocker) {
        super(context, blocker);
    }

    @Override
    MonitorPolicy policy() {
        return MonitorPolicy.BARGING;
    }

    private static boolean nonWaiterMayAcquire(int s) {
        return (s & (LOCKED | SHOULD_NOT_PREEMPT_WAITERS)) == 0;
    }

    private static boolean hasWaiters(int s) {
        return s >= WAITER_ONE || s < 0;
    }

    @Override
    boolean tryLock() {
        int s = state;
        return nonWaiterMayAcquire(s) && STATE.compareAndSet(this, s, s | LOCKED);
    }

    @Override
    boolean acquire(long deadline, boolean interruptible) throws InterruptedException {
        if (!context.singleProcessor() && spin() == SpinResult.ENTERED) {
            return true;
        }
        return waitForLock(deadline, interruptible);
    }

    // ---------------------------------------------------------------- spinning

    private SpinResult spin() {
        int s = state;
        if (trySetShouldNotPreemptWaitersIfNecessary(s)) {
            return SpinResult.USE_SLOW_PATH;
        }
        for (;;) {
            if (nonWaiterMayAcquire(s)) {
                if (STATE.compareAndSet(this, s, s | LOCKED)) {
                    return SpinResult.ENTERED;
                }
            } else if ((s & SHOULD_NOT_PREEMPT_WAITERS) != 0 || (s & SPINNER_MASK) == SPINNER_MASK) {
                return SpinResult.USE_SLOW_PATH;
            } else if (STATE.compareAndSet(this, s, s + SPINNER_ONE)) {
                break;
            }
            s = state;
        }
        context.beginSpinLoop();
        for (int i = 0; i < SPIN_COUNT; i++) {
            context.spinWithBackoff(i);
            SpinResult result = tryLockAndUnregisterSpinner();
            if (result == SpinResult.ENTERED) {
                return result;
            }
            if (result == SpinResult.USE_SLOW_PATH) {
                break;
            }
        }
        return unregisterSpinnerAndTryLock() ? SpinResult.ENTERED : SpinResult.USE_SLOW_PATH;
    }

    /** Inside the spin: unregister if and only if the lock is taken. */
    private SpinResult tryLockAndUnregisterSpinner() {
        int s = state;
        for (;;) {
            if (!nonWaiterMayAcquire(s)) {
                return (s & SHOULD_NOT_PREEMPT_WAITERS) != 0 ? SpinResult.USE_SLOW_PATH : SpinResult.CONTENTION;
            }
            // LP: acquisition by a spinner, which unregisters in the same CAS.
            if (STATE.compareAndSet(this, s, (s - SPINNER_ONE) | LOCKED)) {
                return SpinResult.ENTERED;
            }
            s = state;
        }
    }

    /** After the spin: always unregister, and take the lock if it is free (whatever the starvation bit). */
    private boolean unregisterSpinnerAndTryLock() {
        int before = (int) STATE.getAndAdd(this, -SPINNER_ONE);
        if ((before & LOCKED) != 0) {
            return false;
        }
        int s = before - SPINNER_ONE;
        do {
            if (STATE.compareAndSet(this, s, s | LOCKED)) {
                return true;
            }
            s = state;
        } while ((s & LOCKED) == 0);
        return false;
    }

    // ---------------------------------------------------------------- starvation guard

    private boolean trySetShouldNotPreemptWaitersIfNecessary(int s) {
        for (;;) {
            if (!hasWaiters(s)) {
                return false;
            }
            if ((s & SHOULD_NOT_PREEMPT_WAITERS) != 0) {
                return true;
            }
            if (!shouldStopPreemptingWaiters()) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s | SHOULD_NOT_PREEMPT_WAITERS)) {
                return true;
            }
            s = state;
        }
    }

    private boolean shouldStopPreemptingWaiters() {
        long start = (long) STARVATION_START.getOpaque(this);
        return start != 0 && nowMs() - start >= STARVATION_MS;
    }

    private void recordWaiterStarvationStart() {
        long now = nowMs();
        STARVATION_START.setOpaque(this, now == 0 ? -1L : now);
    }

    private void resetWaiterStarvationStart() {
        STARVATION_START.setOpaque(this, 0L);
    }

    private long nowMs() {
        return context.platform().nanoTime() / 1_000_000;
    }

    // ---------------------------------------------------------------- waiting

    private boolean waitForLock(long deadline, boolean interruptible) throws InterruptedException {
        WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread());
        queue.lockGuard();
        try {
            if (tryLockOrRegisterWaiter()) {
                return true;
            }
            queue.addLast(me);
        } finally {
            queue.unlockGuard();
        }
        return waitInQueue(me, deadline, interruptible);
    }

    @Override
    boolean wokenWaiterTakesLock(WaitQueue.Waiter me) {
        return spinAsWokenWaiter() || observeWakeSignalAndTryLock(me);
    }

    /** Guard held: take the lock if a non-waiter may, else count this thread as a waiter. */
    private boolean tryLockOrRegisterWaiter() {
        boolean startReset = false;
        for (;;) {
            int s = state;
            if (nonWaiterMayAcquire(s)) {
                if (STATE.compareAndSet(this, s, s | LOCKED)) {
                    return true;
                }
                continue;
            }
            checkWaiterRoom(s >>> WAITER_SHIFT, MAX_WAITERS);
            boolean first = !hasWaiters(s);
            if (first && !startReset) {
                // Another thread may read the start time as soon as this waiter is counted.
                startReset = true;
                resetWaiterStarvationStart();
            }
            if (STATE.compareAndSet(this, s, s + WAITER_ONE)) {
                if (first) {
                    recordWaiterStarvationStart();
                }
                return false;
            }
        }
    }

    /** A woken waiter competes with barging threads for a short while. */
    private boolean spinAsWokenWaiter() {
        if (context.singleProcessor()) {
            return false;
        }
        for (int i = 0; i < SPIN_COUNT; i++) {
            if (tryLockAsSignaledWaiter()) {
                return true;
            }
            context.spinWithBackoff(i);
        }
        return false;
    }

    /**
     * The woken waiter takes a free lock: unregister, clear WAITER_SIGNALED and the starvation bit,
     * and restart the starvation clock if waiters remain.
     */
    private boolean tryLockAsSignaledWaiter() {
        boolean recorded = false;
        int s = state;
        while ((s & LOCKED) == 0) {
            int next = ((s | LOCKED) - WAITER_ONE) & ~WAITER_SIGNALED;
            if ((next & SHOULD_NOT_PREEMPT_WAITERS) != 0) {
                next &= ~SHOULD_NOT_PREEMPT_WAITERS;
                if (hasWaiters(next) && !recorded) {
                    // Before the bit clears, or another thread could set it again from a stale time.
                    recorded = true;
                    recordWaiterStarvationStart();
                }
            }
            // LP: acquisition by the woken waiter.
            if (STATE.compareAndSet(this, s, next)) {
                if (hasWaiters(next) && !recorded) {
                    recordWaiterStarvationStart();
                }
                return true;
            }
            s = state;
        }
        return false;
    }

    /**
     * The woken waiter lost the race: take the lock if it is free now, else observe the wake signal
     * and wait again at the back of the queue (events release waiters in FIFO order).
     */
    private boolean observeWakeSignalAndTryLock(WaitQueue.Waiter me) {
        queue.lockGuard();
        try {
            for (;;) {
                if (tryLockAsSignaledWaiter()) {
                    return true;
                }
                int s = state;
                if ((s & LOCKED) != 0 && STATE.compareAndSet(this, s, s & ~WAITER_SIGNALED)) {
                    queue.addLast(me);
                    return false;
                }
            }
        } finally {
            queue.unlockGuard();
        }
    }

    /** A releaser that dequeued this waiter meanwhile left WAITER_SIGNALED set: clear it when giving up. */
    @Override
    boolean abandonWait(WaitQueue.Waiter me) {
        queue.lockGuard();
        try {
            if (queue.remove(me)) {
                unregisterWaiter(0);
                return false;
            }
        } finally {
            queue.unlockGuard();
        }
        for (;;) {
            if (tryLockAsSignaledWaiter()) {
                return true;
            }
            int s = state;
            if ((s & LOCKED) != 0) {
                int next = withoutWaiter(s, WAITER_SIGNALED);
                if (STATE.compareAndSet(this, s, next)) {
                    return false;
                }
            }
        }
    }

    /** Unregisters a waiter, clearing {@code alsoClear} and, with the last waiter, the starvation bit. */
    private void unregisterWaiter(int alsoClear) {
        for (;;) {
            int s = state;
            if (STATE.compareAndSet(this, s, withoutWaiter(s, alsoClear))) {
                return;
            }
        }
    }

    private static int withoutWaiter(int s, int alsoClear) {
        int next = (s - WAITER_ONE) & ~alsoClear;
        if (!hasWaiters(next)) {
            next &= ~SHOULD_NOT_PREEMPT_WAITERS;
        }
        return next;
    }

    // ---------------------------------------------------------------- releasing

    @Override
    void release() {
        // LP: the release.
        int s = (int) STATE.getAndAdd(this, -LOCKED) - LOCKED;
        if (needToSignalWaiter(s)) {
            signalOneWaiter();
        }
    }

    private static boolean needToSignalWaiter(int s) {
        return hasWaiters(s) && (s & (SPINNER_MASK | WAITER_SIGNALED)) == 0;
    }

    private void signalOneWaiter() {
        WaitQueue.Waiter next;
        queue.lockGuard();
        try {
            for (;;) {
                int s = state;
                if (!needToSignalWaiter(s)) {
                    return;
                }
                if (STATE.compareAndSet(this, s, s | WAITER_SIGNALED)) {
                    break;
                }
            }
            next = queue.pollFirst();
            assert next != null : "waiter count says a waiter is queued";
        } finally {
            queue.unlockGuard();
        }
        queue.signal(next);
        trySetShouldNotPreemptWaitersIfNecessary(state);
    }

    // ---------------------------------------------------------------- queries

    @Override
    int waiterCount() {
        return state >>> WAITER_SHIFT;
    }

    @Override
    int spinnerCount() {
        return (state & SPINNER_MASK) >>> SPINNER_SHIFT;
    }

    /** True while a starved waiter has stopped the barging (a snapshot). */
    boolean preemptingWaitersStopped() {
        return (state & SHOULD_NOT_PREEMPT_WAITERS) != 0;
    }

    // VarHandle mechanics
    private static final VarHandle STARVATION_START;

    static {
        try {
            STARVATION_START = MethodHandles.lookup().findVarHandle(BargingAwareLock.class, "waiterStarvationStartMs",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
