package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.MonitorPolicy;

/**
 * CoreRT's managed Monitor lock ({@code monitor=corert-lock}; dotnet/corert
 * {@code System/Threading/Lock.cs}, 2019): a contended thread tries the lock, then spins
 * {@code Thread.SpinWait(1)}, {@code (2)}, {@code (4)}, … up to 8,192 (16,383 iterations in all),
 * trying after each, and then waits on an auto-reset event. The lock may be taken by any thread
 * while others wait (CoreRT counted on the OS's wake-up priority boost against starvation); a
 * releaser wakes one waiter at a time, and a woken waiter that finds the lock taken waits again
 * behind the others.
 */
final class CoreRtLock extends CompetingEntryProtocol {
    /*
     * Implementation notes.
     *
     * Source: dotnet/corert src/System.Private.CoreLib/src/System/Threading/Lock.cs
     * @ 055239f1ec1f00797de8db3afe88000655213902 (impl/GENERATION-SOURCES.md §4d): state bits
     * Locked = 1, WaiterWoken = 2, WaiterCountIncrement = 4; MaxSpinningValue 10,000 (spinning off
     * on one processor); spins start at 1 and double while at most 10,000; RhSpinWait(spins), which
     * is Thread.SpinWait and so follows the `pause` knob (raw before dotnet/corert #7569, scaled by
     * yields per normalized yield / 8 after it). Not confirmed: that 055239f1 is byte-identical to
     * the June 2019 file the experiment measured.
     *
     * State word: bit 0 LOCKED, bit 1 WAITER_WOKEN (a waiter has been dequeued and woken and has
     * not yet acquired or gone back to the queue), bits 2..31 waiter count.
     * Invariant (at every release of the queue's guard): waiters == queue.size + (WAITER_WOKEN ? 1 : 0).
     * CoreRT registers a waiter with a CAS and waits on an AutoResetEvent, whose set state keeps a
     * wake-up that comes before the wait; here registration and queueing happen together under the
     * queue's guard, and the registering CAS fails if the lock has become free, so a release either
     * sees the waiter or the waiter sees the lock free.
     *
     * Linearization points: enter at the CAS that sets LOCKED; exit at the getAndAdd that clears it.
     */

    static final int WAITER_WOKEN = 1 << 1;
    static final int WAITER_SHIFT = 2;
    static final int WAITER_ONE = 1 << WAITER_SHIFT;
    static final int MAX_WAITERS = -1 >>> WAITER_SHIFT;
    /** {@code MaxSpinningValue}: spins double from 1 while at most this. */
    static final int MAX_SPIN = 10_000;

    CoreRtLock(SpinContext context, Object blocker) {
        super(context, blocker);
    }

    @Override
    MonitorPolicy policy() {
        return MonitorPolicy.CORERT_LOCK;
    }

    @Override
    boolean tryLock() {
        int s = state;
        return (s & LOCKED) == 0 && STATE.compareAndSet(this, s, s | LOCKED);
    }

    @Override
    boolean acquire(long deadline, boolean interruptible) throws InterruptedException {
        int maxSpin = context.singleProcessor() ? -1 : MAX_SPIN;
        if (maxSpin > 0) {
            context.beginSpinLoop();
        }
        for (int spins = 1; spins <= maxSpin; spins *= 2) {
            context.spinWait(spins);
            if (tryLock()) {
                return true;
            }
        }
        return waitForLock(deadline, interruptible);
    }

    private boolean waitForLock(long deadline, boolean interruptible) throws InterruptedException {
        WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread());
        queue.lockGuard();
        try {
            for (;;) {
                int s = state;
                if ((s & LOCKED) == 0) {
                    if (STATE.compareAndSet(this, s, s | LOCKED)) {
                        return true;
                    }
                } else {
                    checkWaiterRoom(s >>> WAITER_SHIFT, MAX_WAITERS);
                    if (STATE.compareAndSet(this, s, s + WAITER_ONE)) {
                        break;
                    }
                }
            }
            queue.addLast(me);
        } finally {
            queue.unlockGuard();
        }
        return waitInQueue(me, deadline, interruptible);
    }

    /** The woken waiter: take a free lock, or clear WAITER_WOKEN and queue again at the back. */
    @Override
    boolean wokenWaiterTakesLock(WaitQueue.Waiter me) {
        queue.lockGuard();
        try {
            for (;;) {
                if (tryLockAsWokenWaiter()) {
                    return true;
                }
                int s = state;
                if ((s & LOCKED) != 0 && STATE.compareAndSet(this, s, s & ~WAITER_WOKEN)) {
                    queue.addLast(me);
                    return false;
                }
            }
        } finally {
            queue.unlockGuard();
        }
    }

    private boolean tryLockAsWokenWaiter() {
        int s = state;
        // LP: acquisition by the woken waiter, which unregisters and clears WAITER_WOKEN in the same CAS.
        return (s & LOCKED) == 0 && STATE.compareAndSet(this, s, ((s | LOCKED) - WAITER_ONE) & ~WAITER_WOKEN);
    }

    /** A releaser that dequeued this waiter meanwhile left WAITER_WOKEN set: clear it when giving up. */
    @Override
    boolean abandonWait(WaitQueue.Waiter me) {
        queue.lockGuard();
        try {
            if (queue.remove(me)) {
                STATE.getAndAdd(this, -WAITER_ONE);
                return false;
            }
        } finally {
            queue.unlockGuard();
        }
        for (;;) {
            if (tryLockAsWokenWaiter()) {
                return true;
            }
            int s = state;
            if ((s & LOCKED) != 0 && STATE.compareAndSet(this, s, (s - WAITER_ONE) & ~WAITER_WOKEN)) {
                return false;
            }
        }
    }

    @Override
    void release() {
        // LP: the release.
        int s = (int) STATE.getAndAdd(this, -LOCKED) - LOCKED;
        if (needToWakeWaiter(s)) {
            wakeOneWaiter();
        }
    }

    private static boolean needToWakeWaiter(int s) {
        return (s >>> WAITER_SHIFT) != 0 && (s & WAITER_WOKEN) == 0;
    }

    private void wakeOneWaiter() {
        WaitQueue.Waiter next;
        queue.lockGuard();
        try {
            for (;;) {
                int s = state;
                if (!needToWakeWaiter(s)) {
                    return;
                }
                if (STATE.compareAndSet(this, s, s | WAITER_WOKEN)) {
                    break;
                }
            }
            next = queue.pollFirst();
            assert next != null : "waiter count says a waiter is queued";
        } finally {
            queue.unlockGuard();
        }
        queue.signal(next);
    }

    @Override
    int waiterCount() {
        return state >>> WAITER_SHIFT;
    }
}
