package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.MonitorPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Who gets a {@link MonitorLock} next: the state word, the spin before waiting, the entry queue
 * and the wake policy of one shipped Monitor algorithm. {@link MonitorLock} keeps what every
 * algorithm shares (owner, recursion, condition queue) and delegates the rest here, chosen once
 * from the {@code monitor} knob.
 *
 * <p>Package-private machinery of {@link MonitorLock}; not reentrant (the lock handles recursion).
 */
abstract sealed class EntryProtocol permits CompetingEntryProtocol, ConvoyAwareLock {
    /*
     * Implementation notes.
     *
     * Every algorithm keeps bit 0 of `state` as LOCKED and changes the word only by CAS or atomic
     * add; the other bits are the algorithm's. Waiter registration changes the waiter count and
     * the queue together under the queue's guard, which is what keeps each algorithm's invariant
     * between the count and the queue (stated in each subclass).
     */

    static final int LOCKED = 1;
    static final long NO_DEADLINE = Long.MAX_VALUE;

    final SpinContext context;
    /** What waiters are reported as waiting on (traces, deadlock reports). */
    final Object blocker;
    final WaitQueue queue;

    volatile int state;

    EntryProtocol(SpinContext context, Object blocker) {
        this.context = context;
        this.blocker = blocker;
        this.queue = new WaitQueue(context.platform());
    }

    /** The algorithm the tuning's {@code monitor} knob names. */
    static EntryProtocol of(SpinContext context, Object blocker) {
        return switch (context.tuning().monitor()) {
            case BARGING -> new BargingAwareLock(context, blocker);
            case CONVOY -> new ConvoyAwareLock(context, blocker);
            case CORERT_LOCK -> new CoreRtLock(context, blocker);
        };
    }

    abstract MonitorPolicy policy();

    /** One attempt that never waits ({@code Monitor.TryEnter(obj)}); true if the lock is now held. */
    abstract boolean tryLock();

    /**
     * The contended path after a failed {@link #tryLock()}: spin, then wait in the entry queue until
     * the lock is held or the deadline passes.
     *
     * @return true if the lock is now held, false if the deadline passed first
     * @throws InterruptedException if {@code interruptible} and the thread was interrupted while
     *         waiting (the lock is not held then)
     */
    abstract boolean acquire(long deadline, boolean interruptible) throws InterruptedException;

    /** Releases the lock, held by the caller, and wakes a waiter if the algorithm says so. */
    abstract void release();

    /** Threads blocked (or woken and not yet owners) waiting to enter; a snapshot. */
    abstract int waiterCount();

    /** Threads registered as spinners; a snapshot, 0 where the algorithm counts none. */
    int spinnerCount() {
        return 0;
    }

    final boolean isLocked() {
        return (state & LOCKED) != 0;
    }

    final boolean deadlinePassed(long deadline) {
        return deadline != NO_DEADLINE && context.platform().nanoTime() - deadline >= 0;
    }

    /** Refuses a registration that would take the waiter count past {@code max}. */
    static void checkWaiterRoom(int waiters, int max) {
        if (waiters == max) {
            throw new IllegalStateException("too many waiters: at most " + max + " threads may wait");
        }
    }

    /** Parks {@code me}, queued in the entry queue, until signaled, the deadline or an interrupt. */
    final WaitQueue.Wake await(WaitQueue.Waiter me, long deadline, boolean interruptible) {
        return queue.await(me, blocker, deadline, interruptible);
    }

    // VarHandle mechanics (package-private: the subclasses' CASes go through it directly)
    static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(EntryProtocol.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
