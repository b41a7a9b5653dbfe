package io.spinlab.impl.lock;

import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A FIFO queue of parked threads, the one place in spinlab where threads block. The list is
 * guarded by a tiny test-and-set guard that is held only for a few pointer updates, never
 * while parking; contenders PAUSE briefly and then yield, so a preempted holder costs a
 * yield, not a deadlock.
 *
 * <p>Package-private machinery of {@link MonitorLock}.
 */
final class WaitQueue {
    /*
     * Implementation notes.
     *
     * Invariants (under the guard): head..tail is a doubly linked list of the nodes whose
     * `queued` flag is set; size counts them. A node is signaled at most once per enqueue.
     *
     * Memory ordering: the guard's CAS acquires and its release store publishes the list; a
     * waiter sees its signal through the volatile `status`, written before the unpark.
     */

    /** PAUSEs spent on a busy guard before yielding the processor. */
    static final int GUARD_SPINS_BEFORE_YIELD = 16;

    private final Platform platform;
    private volatile int guard;
    private Waiter head;
    private Waiter tail;
    private int size;

    WaitQueue(Platform platform) {
        this.platform = platform;
    }

    /** A thread's place in a wait queue. */
    static final class Waiter {
        static final int WAITING = 0;
        static final int SIGNALED = 1;

        final Thread thread;
        volatile int status;
        Waiter prev;
        Waiter next;
        boolean queued;

        Waiter(Thread thread) {
            this.thread = thread;
        }

        boolean signaled() {
            return status == SIGNALED;
        }
    }

    /** Outcome of {@link #await}. */
    enum Wake { SIGNALED, TIMED_OUT, INTERRUPTED }

    void lockGuard() {
        if (GUARD.compareAndSet(this, 0, 1)) {
            return;
        }
        int spins = 0;
        while (guard != 0 || !GUARD.compareAndSet(this, 0, 1)) {
            if (spins < GUARD_SPINS_BEFORE_YIELD) {
                platform.pause(1);
                spins++;
            } else {
                platform.yieldThread();
            }
        }
    }

    void unlockGuard() {
        GUARD.setRelease(this, 0);
    }

    /** Appends {@code w}; the guard must be held. */
    void addLast(Waiter w) {
        assert guard == 1 && !w.queued;
        STATUS.setRelease(w, Waiter.WAITING); // only its own thread reads it; the guard orders it
        w.prev = tail;
        w.next = null;
        if (tail == null) {
            head = w;
        } else {
            tail.next = w;
        }
        tail = w;
        w.queued = true;
        size++;
    }

    /** Removes and returns the first waiter, or null; the guard must be held. */
    Waiter pollFirst() {
        assert guard == 1;
        Waiter w = head;
        if (w != null) {
            unlink(w);
        }
        return w;
    }

    /** Removes {@code w} if it is still queued; the guard must be held. */
    boolean remove(Waiter w) {
        assert guard == 1;
        if (!w.queued) {
            return false;
        }
        unlink(w);
        return true;
    }

    private void unlink(Waiter w) {
        Waiter p = w.prev;
        Waiter n = w.next;
        if (p == null) {
            head = n;
        } else {
            p.next = n;
        }
        if (n == null) {
            tail = p;
        } else {
            n.prev = p;
        }
        w.prev = null;
        w.next = null;
        w.queued = false;
        size--;
    }

    /** Number of queued waiters; the guard must be held. */
    int size() {
        assert guard == 1;
        return size;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Marks a dequeued waiter signaled and unparks it. Call without the guard. */
    void signal(Waiter w) {
        w.status = Waiter.SIGNALED;
        platform.unpark(w.thread);
    }

    /**
     * Parks until {@code w} is signaled, the deadline passes, or (if {@code interruptible}) the
     * thread is interrupted. An uninterruptible wait keeps parking through interrupts and
     * re-asserts the interrupt status before it returns.
     *
     * @param deadlineNanos platform clock deadline, or {@link Long#MAX_VALUE} for none
     */
    Wake await(Waiter w, Object blocker, long deadlineNanos, boolean interruptible) {
        boolean interrupted = false;
        try {
            while (!w.signaled()) {
                if (Thread.interrupted()) {
                    if (interruptible) {
                        return Wake.INTERRUPTED;
                    }
                    interrupted = true;
                    continue;
                }
                if (deadlineNanos == Long.MAX_VALUE) {
                    platform.park(blocker);
                } else {
                    long remaining = deadlineNanos - platform.nanoTime();
                    if (remaining <= 0) {
                        return w.signaled() ? Wake.SIGNALED : Wake.TIMED_OUT;
                    }
                    platform.parkNanos(blocker, remaining);
                }
            }
            return Wake.SIGNALED;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // VarHandle mechanics
    private static final VarHandle GUARD;
    private static final VarHandle STATUS;

    static {
        try {
            GUARD = MethodHandles.lookup().findVarHandle(WaitQueue.class, "guard", int.class);
            STATUS = MethodHandles.lookup().findVarHandle(Waiter.class, "status", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
