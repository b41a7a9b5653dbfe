package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;

/**
 * An entry protocol whose woken waiter is not handed the lock but must take it against arriving
 * and spinning threads, and waits again if it loses ({@link BargingAwareLock}, {@link CoreRtLock}).
 * Holds the wait loop both share; each algorithm says how a woken waiter takes the lock and how a
 * waiter leaves the queue on a timeout or an interrupt.
 */
abstract sealed class CompetingEntryProtocol extends EntryProtocol permits BargingAwareLock, CoreRtLock {

    CompetingEntryProtocol(SpinContext context, Object blocker) {
        super(context, blocker);
    }

    /**
     * Waits in the entry queue, where {@code me} is already queued and counted, until the lock is
     * held (true) or the deadline passes (false).
     *
     * @throws InterruptedException if {@code interruptible} and the thread was interrupted while
     *         waiting and did not get the lock
     */
    final boolean waitInQueue(WaitQueue.Waiter me, long deadline, boolean interruptible)
            throws InterruptedException {
        for (;;) {
            WaitQueue.Wake wake = await(me, deadline, interruptible);
            if (wake == WaitQueue.Wake.SIGNALED) {
                if (wokenWaiterTakesLock(me)) {
                    return true;
                }
                continue;
            }
            if (abandonWait(me)) {
                if (wake == WaitQueue.Wake.INTERRUPTED) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
            if (wake == WaitQueue.Wake.INTERRUPTED) {
                throw new InterruptedException();
            }
            return false;
        }
    }

    /** The signaled waiter {@code me}: true if it took the lock, false if it queued itself again. */
    abstract boolean wokenWaiterTakesLock(WaitQueue.Waiter me);

    /**
     * A timeout or interrupt: leave the queue; if a releaser dequeued {@code me} meanwhile, it owns
     * the wake-up, so take the lock if free (true) or give the wake-up back (false).
     */
    abstract boolean abandonWait(WaitQueue.Waiter me);
}
