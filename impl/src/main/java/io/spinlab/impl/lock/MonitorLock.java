package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.MonitorPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A reentrant mutual-exclusion lock with a condition queue (wait/pulse): the equivalent of a
 * .NET {@code Monitor} on an object, with its algorithm chosen by the {@code monitor} knob.
 *
 * <ul>
 *   <li>{@code barging} (.NET Core 2.1 to .NET 8, dotnet/coreclr #14216): a released lock can be
 *       taken by any arriving thread; arriving threads register as spinners (at most 7) and spin
 *       with exponential back-off (~8 µs); a releaser wakes at most one waiter, and none while a
 *       spinner is registered or a woken waiter has not yet run. A woken waiter spins briefly, and
 *       if it loses the race it waits again behind the others; a waiter starved for 100 ms stops
 *       the barging until a waiter gets the lock.</li>
 *   <li>{@code convoy} (.NET Core 2.0): raw PAUSE back-off of 50 × 3^k while at most 20,000 ×
 *       processors, once and then in ten rounds ending in {@code SwitchToThread}; while any thread
 *       waits no arriving thread may take the lock, and release hands ownership straight to the
 *       first waiter, so every handoff pays a wake-up: the lock convoy of dotnet/coreclr #13978.</li>
 *   <li>{@code corert-lock} (CoreRT, dotnet/corert {@code Lock.cs}): barging, spins of
 *       {@code Thread.SpinWait(1, 2, 4, … 8192)}, one waiter woken at a time.</li>
 * </ul>
 *
 * <p>Progress: blocking. {@link #enter()} is uninterruptible (as {@code Monitor.Enter});
 * {@link #enterInterruptibly()}, {@link #tryEnter(long, TimeUnit)} and {@link #await} respond
 * to interruption. Waiting on the condition queue is FIFO; {@link #pulse()} and
 * {@link #pulseAll()} require ownership, as {@code Monitor.Pulse}.
 */
public final class MonitorLock {
    /*
     * Implementation notes.
     *
     * The entry protocol (state word, spin, entry queue, wake policy) is the algorithm's, in one
     * EntryProtocol subclass per shipped Monitor: BargingAwareLock, ConvoyAwareLock, CoreRtLock,
     * each with its sources, invariants and linearization points. This class keeps what they share:
     * the owner, the recursion count and the condition queue, which only the owner touches.
     *
     * Monitor.Wait releases the lock completely and re-acquires it through the same protocol, with
     * the recursion depth restored; its waiters park in the protocol's queue machinery but are
     * never entry waiters until pulsed and re-acquiring.
     *
     * Pulse and PulseAll wake the waiters; they do not move them to the entry queue. CoreCLR's
     * SyncBlock::Pulse and SyncBlock::PulseAll (dotnet/coreclr src/vm/syncblk.cpp @ 0768db25)
     * dequeue each waiter's WaitEventLink and set its wait event, one Set per waiter; the woken
     * thread returns from Thread::Block and re-enters through the lock's ordinary entry (AwareLock),
     * spinning and blocking again if the pulser still holds it. That is what signal() then
     * reacquireAfterWait do here: each pulse is an unpark, and a pulsed waiter runs and competes.
     * (HotSpot's notifyAll instead moves its waiters to the monitor's entry list unwoken.)
     */

    /** Spin iterations before waiting of the barging Monitor (CoreCLR {@code Monitor_SpinCount}). */
    public static final int SPIN_COUNT = BargingAwareLock.SPIN_COUNT;

    private static final long NO_DEADLINE = EntryProtocol.NO_DEADLINE;

    private final SpinContext context;
    private final EntryProtocol entry;
    private final Object blocker;

    /**
     * The owning thread, written only by it (opaque: no fence). Only the owner's own comparison
     * depends on it, and a thread always sees its own last write, so a stale value read by
     * another thread can never equal that thread.
     */
    private Thread owner;
    /** Re-entries beyond the first; owner only. */
    private int recursions;
    /** Condition queue: touched only by the owner. */
    private WaitQueue.Waiter conditionHead;
    private WaitQueue.Waiter conditionTail;

    /** A lock whose waiters are reported as waiting on the lock itself. */
    public MonitorLock(SpinContext context) {
        this(context, null);
    }

    /**
     * A lock whose waiters are reported (traces, deadlock reports) as waiting on {@code blocker},
     * e.g. the event or semaphore that uses this lock internally; null means the lock itself.
     */
    public MonitorLock(SpinContext context, Object blocker) {
        this.context = context;
        this.blocker = blocker == null ? this : blocker;
        this.entry = EntryProtocol.of(context, this.blocker);
    }

    // ---------------------------------------------------------------- entering

    /** Acquires the lock, waiting as long as it takes; interruption is deferred until acquired. */
    public void enter() {
        Thread me = Thread.currentThread();
        if (reenter(me) || tryLockFast()) {
            setOwner(me);
            return;
        }
        try {
            acquireSlow(NO_DEADLINE, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire reported an interrupt", e);
        }
        setOwner(me);
    }

    /** Acquires the lock unless the thread is interrupted first. */
    public void enterInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread me = Thread.currentThread();
        if (reenter(me) || tryLockFast() || acquireSlow(NO_DEADLINE, true)) {
            setOwner(me);
        }
    }

    /** Acquires the lock only if that needs no waiting at all. */
    public boolean tryEnter() {
        Thread me = Thread.currentThread();
        if (reenter(me) || tryLockFast()) {
            setOwner(me);
            return true;
        }
        return false;
    }

    /**
     * Acquires the lock if it can be had within {@code timeout}.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public boolean tryEnter(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread me = Thread.currentThread();
        if (reenter(me) || tryLockFast()) {
            setOwner(me);
            return true;
        }
        if (timeout == 0) {
            return false;
        }
        long deadline = deadlineAfter(unit.toNanos(timeout));
        if (acquireSlow(deadline, true)) {
            setOwner(me);
            return true;
        }
        return false;
    }

    private boolean reenter(Thread me) {
        if (owner() != me) {
            return false;
        }
        if (recursions == Integer.MAX_VALUE) {
            throw new IllegalStateException("lock re-entered " + Integer.MAX_VALUE + " times: recursion count overflow");
        }
        recursions++;
        return true;
    }

    private boolean tryLockFast() {
        return entry.tryLock();
    }

    private boolean acquireSlow(long deadline, boolean interruptible) throws InterruptedException {
        return entry.acquire(deadline, interruptible);
    }

    // ---------------------------------------------------------------- exiting

    /**
     * Releases one level of ownership.
     *
     * @throws IllegalMonitorStateException if the calling thread does not own the lock
     */
    public void exit() {
        checkOwner("exit");
        if (recursions > 0) {
            recursions--;
            return;
        }
        release();
    }

    private void release() {
        setOwner(null);
        entry.release();
    }

    // ---------------------------------------------------------------- condition queue

    /** Waits until pulsed; see {@link #await(long, TimeUnit)}. */
    public void await() throws InterruptedException {
        awaitNanos(NO_DEADLINE, true);
    }

    /**
     * Releases the lock completely, waits until pulsed or the timeout passes, then re-acquires
     * the lock (uninterruptibly) with the same recursion depth ({@code Monitor.Wait}).
     *
     * @return true if pulsed, false if the timeout passed first
     * @throws IllegalMonitorStateException if the calling thread does not own the lock
     * @throws InterruptedException if interrupted before being pulsed (the lock is re-acquired first)
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        return awaitNanos(deadlineAfter(unit.toNanos(timeout)), false);
    }

    private boolean awaitNanos(long deadline, boolean untilPulsed) throws InterruptedException {
        checkOwner("await");
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread me = Thread.currentThread();
        WaitQueue.Waiter node = new WaitQueue.Waiter(me);
        if (conditionTail == null) {
            conditionHead = node;
        } else {
            conditionTail.next = node;
        }
        conditionTail = node;
        int savedRecursions = recursions;
        recursions = 0;
        release();
        WaitQueue.Wake wake;
        try {
            wake = entry.queue.await(node, blocker, untilPulsed ? NO_DEADLINE : deadline, true);
        } catch (RuntimeException | Error e) {
            // The platform failed the wait (a simulator aborting its run, say): still hand the
            // lock back to the caller, whose finally blocks expect to own it.
            reacquireAfterWait(me, savedRecursions);
            removeConditionWaiter(node);
            throw e;
        }
        reacquireAfterWait(me, savedRecursions);
        boolean pulsed = node.signaled();
        if (!pulsed) {
            removeConditionWaiter(node);
        }
        if (wake == WaitQueue.Wake.INTERRUPTED) {
            if (!pulsed) {
                throw new InterruptedException();
            }
            me.interrupt();
        }
        return pulsed;
    }

    private void reacquireAfterWait(Thread me, int savedRecursions) {
        if (!tryLockFast()) {
            try {
                acquireSlow(NO_DEADLINE, false);
            } catch (InterruptedException e) {
                throw new AssertionError("uninterruptible acquire reported an interrupt", e);
            }
        }
        setOwner(me);
        recursions = savedRecursions;
    }

    private void removeConditionWaiter(WaitQueue.Waiter node) {
        WaitQueue.Waiter prev = null;
        for (WaitQueue.Waiter w = conditionHead; w != null; prev = w, w = w.next) {
            if (w == node) {
                if (prev == null) {
                    conditionHead = w.next;
                } else {
                    prev.next = w.next;
                }
                if (conditionTail == w) {
                    conditionTail = prev;
                }
                w.next = null;
                return;
            }
        }
    }

    /**
     * Wakes the longest-waiting thread of the condition queue, if any.
     *
     * @return true if a thread was woken
     * @throws IllegalMonitorStateException if the calling thread does not own the lock
     */
    public boolean pulse() {
        checkOwner("pulse");
        WaitQueue.Waiter w = conditionHead;
        if (w == null) {
            return false;
        }
        conditionHead = w.next;
        if (conditionHead == null) {
            conditionTail = null;
        }
        w.next = null;
        entry.queue.signal(w);
        return true;
    }

    /**
     * Wakes every thread of the condition queue.
     *
     * @return the number of threads woken
     * @throws IllegalMonitorStateException if the calling thread does not own the lock
     */
    public int pulseAll() {
        checkOwner("pulseAll");
        int woken = 0;
        while (pulse()) {
            woken++;
        }
        return woken;
    }

    // ---------------------------------------------------------------- queries

    /** True if the calling thread owns the lock. */
    public boolean isHeldByCurrentThread() {
        return owner() == Thread.currentThread();
    }

    /** True if some thread owns the lock (a snapshot). */
    public boolean isLocked() {
        return entry.isLocked();
    }

    /** Threads blocked waiting to enter (a snapshot; excludes condition waiters). */
    public int waiterCount() {
        return entry.waiterCount();
    }

    /** Threads registered as spinners (a snapshot; always 0 unless {@code monitor=barging}). */
    public int spinnerCount() {
        return entry.spinnerCount();
    }

    /** The algorithm in use. */
    public MonitorPolicy policy() {
        return entry.policy();
    }

    private void checkOwner(String operation) {
        if (owner() != Thread.currentThread()) {
            throw new IllegalMonitorStateException(operation + " by " + Thread.currentThread().getName()
                    + ", which does not own the lock");
        }
    }

    private long deadlineAfter(long nanos) {
        long now = context.platform().nanoTime();
        long deadline = now + nanos;
        return deadline - now < 0 || deadline == NO_DEADLINE ? NO_DEADLINE - 1 : deadline;
    }

    @Override
    public String toString() {
        return "MonitorLock[" + policy() + (isLocked() ? ", locked by " + owner() : ", free") + ", waiters="
                + waiterCount() + ", spinners=" + spinnerCount() + "]";
    }

    private Thread owner() {
        return (Thread) OWNER.getOpaque(this);
    }

    private void setOwner(Thread thread) {
        OWNER.setOpaque(this, thread);
    }

    // VarHandle mechanics
    private static final VarHandle OWNER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(MonitorLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
