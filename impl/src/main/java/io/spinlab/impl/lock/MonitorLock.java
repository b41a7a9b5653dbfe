package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.MonitorPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A reentrant mutual-exclusion lock with a condition queue (wait/pulse): the equivalent of a
 * .NET {@code Monitor} on an object, with its handoff policy chosen by the {@code monitor} knob.
 *
 * <ul>
 *   <li>{@code barging} (current, dotnet/coreclr #14216): a released lock can be taken by any
 *       arriving thread; arriving threads register as spinners (at most 7) and spin with
 *       exponential back-off; a releaser wakes at most one waiter, and none while a spinner is
 *       registered or a woken waiter has not yet run. A woken waiter spins briefly, and if it
 *       loses the race it goes back to the front of the queue.</li>
 *   <li>{@code convoy} (legacy): while any thread waits, no arriving thread may take the lock;
 *       release hands ownership straight to the first waiter, so every handoff pays a wake-up
 *       — the lock convoy of dotnet/coreclr #13978.</li>
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
     * State word (one int, CAS'd), the layout of CoreCLR's AwareLock:
     *   bit 0       LOCKED
     *   bits 2..4   spinner count (barging only), at most 7
     *   bit 5       WAITER_SIGNALED: a waiter has been dequeued and woken and has not yet acquired
     *               or gone back to the queue (barging only)
     *   bits 6..31  waiter count
     *
     * Invariants (at every release of the wait-queue guard):
     *   barging: waiters == queue.size + (WAITER_SIGNALED ? 1 : 0)
     *   convoy:  waiters == queue.size, and waiters > 0 implies LOCKED
     * Waiter registration changes the count and the queue together under the guard.
     *
     * Linearization points: enter at the CAS that sets LOCKED (or, convoy, at the releaser's
     * handoff, which leaves LOCKED set); exit at the CAS/getAndAdd that clears LOCKED (or the
     * handoff).
     *
     * Lost wake-ups: a releaser clears LOCKED and then reads the waiter bits in one atomic
     * step; a waiter registers (under the guard) with a CAS that fails if LOCKED is clear. Both
     * act on the same word, so either the waiter sees the lock free or the releaser sees it.
     * A spinner never unregisters without trying the lock in the same CAS, because releasers do
     * not wake waiters while spinners exist.
     *
     * Spin/wait policy: 30 spin iterations with exponential back-off (1, 2, 4, 8 normalized
     * yields, then ~272 ns), ~8 µs at most; no spinning on a single processor.
     *
     * Not done: CoreCLR's 100 ms waiter-starvation guard (ShouldNotPreemptWaiters).
     */

    static final int LOCKED = 1;
    static final int SPINNER_SHIFT = 2;
    static final int SPINNER_ONE = 1 << SPINNER_SHIFT;
    static final int SPINNER_MASK = 7 << SPINNER_SHIFT;
    static final int WAITER_SIGNALED = 1 << 5;
    static final int WAITER_SHIFT = 6;
    static final int WAITER_ONE = 1 << WAITER_SHIFT;
    static final int MAX_WAITERS = -1 >>> WAITER_SHIFT;
    /** Spin iterations before waiting (CoreCLR {@code Monitor_SpinCount}). */
    public static final int SPIN_COUNT = 30;

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final SpinContext context;
    private final boolean barging;
    private final Object blocker;
    private final WaitQueue entryQueue;

    private volatile int state;
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
        this.barging = context.tuning().monitor() == MonitorPolicy.BARGING;
        this.blocker = blocker == null ? this : blocker;
        this.entryQueue = new WaitQueue(context.platform());
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
        int s = state;
        if (barging) {
            return (s & LOCKED) == 0 && STATE.compareAndSet(this, s, s | LOCKED);
        }
        return s == 0 && STATE.compareAndSet(this, 0, LOCKED);
    }

    private boolean acquireSlow(long deadline, boolean interruptible) throws InterruptedException {
        if (!context.singleProcessor()) {
            boolean acquired = barging ? spinAsSpinner() : spinWhileNoWaiters();
            if (acquired) {
                return true;
            }
        }
        return barging ? waitBarging(deadline, interruptible) : waitConvoy(deadline, interruptible);
    }

    /** Barging: register as a spinner (or take a free lock), spin, then unregister trying the lock. */
    private boolean spinAsSpinner() {
        for (;;) {
            int s = state;
            if ((s & LOCKED) == 0) {
                if (STATE.compareAndSet(this, s, s | LOCKED)) {
                    return true;
                }
            } else if ((s & SPINNER_MASK) == SPINNER_MASK) {
                return false;
            } else if (STATE.compareAndSet(this, s, s + SPINNER_ONE)) {
                break;
            }
        }
        context.beginSpinLoop();
        for (int i = 0; i < SPIN_COUNT; i++) {
            context.spinWithBackoff(i);
            int s = state;
            // LP: acquisition by a spinner, which unregisters in the same CAS.
            if ((s & LOCKED) == 0 && STATE.compareAndSet(this, s, (s - SPINNER_ONE) | LOCKED)) {
                return true;
            }
        }
        for (;;) {
            int s = state;
            if ((s & LOCKED) == 0) {
                if (STATE.compareAndSet(this, s, (s - SPINNER_ONE) | LOCKED)) {
                    return true;
                }
            } else if (STATE.compareAndSet(this, s, s - SPINNER_ONE)) {
                return false;
            }
        }
    }

    /** Convoy: spin only while nobody waits; a waiter's presence forbids taking the lock. */
    private boolean spinWhileNoWaiters() {
        context.beginSpinLoop();
        for (int i = 0; i < SPIN_COUNT; i++) {
            int s = state;
            if (s == 0 && STATE.compareAndSet(this, 0, LOCKED)) {
                return true;
            }
            if (s >= WAITER_ONE) {
                return false;
            }
            context.spinWithBackoff(i);
        }
        return false;
    }

    private boolean waitBarging(long deadline, boolean interruptible) throws InterruptedException {
        WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread());
        entryQueue.lockGuard();
        try {
            for (;;) {
                int s = state;
                if ((s & LOCKED) == 0) {
                    if (STATE.compareAndSet(this, s, s | LOCKED)) {
                        return true;
                    }
                } else {
                    checkWaiterRoom(s);
                    if (STATE.compareAndSet(this, s, s + WAITER_ONE)) {
                        break;
                    }
                }
            }
            entryQueue.addLast(me);
        } finally {
            entryQueue.unlockGuard();
        }
        for (;;) {
            WaitQueue.Wake wake = entryQueue.await(me, blocker, deadline, interruptible);
            if (wake == WaitQueue.Wake.SIGNALED) {
                if (spinAsWokenWaiter() || requeueOrAcquire(me)) {
                    return true;
                }
                continue;
            }
            if (abandonBargingWait(me)) {
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

    /** A woken waiter competes with barging threads for a short while. */
    private boolean spinAsWokenWaiter() {
        int spins = context.singleProcessor() ? 1 : SPIN_COUNT;
        for (int i = 0; i < spins; i++) {
            if (tryLockAsSignaledWaiter()) {
                return true;
            }
            context.spinWithBackoff(i);
        }
        return false;
    }

    private boolean tryLockAsSignaledWaiter() {
        int s = state;
        // LP: acquisition by the woken waiter: unregister and clear WAITER_SIGNALED in the same CAS.
        return (s & LOCKED) == 0 && STATE.compareAndSet(this, s, ((s | LOCKED) - WAITER_ONE) & ~WAITER_SIGNALED);
    }

    /** The woken waiter lost the race: back to the front of the queue, unless the lock is free now. */
    private boolean requeueOrAcquire(WaitQueue.Waiter me) {
        entryQueue.lockGuard();
        try {
            for (;;) {
                if (tryLockAsSignaledWaiter()) {
                    return true;
                }
                int s = state;
                if ((s & LOCKED) != 0 && STATE.compareAndSet(this, s, s & ~WAITER_SIGNALED)) {
                    entryQueue.addFirst(me);
                    return false;
                }
            }
        } finally {
            entryQueue.unlockGuard();
        }
    }

    /**
     * Timeout or interrupt: leave the queue. If a releaser dequeued this waiter meanwhile, it owns
     * the wake-up: take the lock if free (true), else give the wake-up back (the current holder's
     * exit will wake someone).
     */
    private boolean abandonBargingWait(WaitQueue.Waiter me) {
        entryQueue.lockGuard();
        try {
            if (entryQueue.remove(me)) {
                STATE.getAndAdd(this, -WAITER_ONE);
                return false;
            }
        } finally {
            entryQueue.unlockGuard();
        }
        for (;;) {
            if (tryLockAsSignaledWaiter()) {
                return true;
            }
            int s = state;
            if ((s & LOCKED) != 0 && STATE.compareAndSet(this, s, (s - WAITER_ONE) & ~WAITER_SIGNALED)) {
                return false;
            }
        }
    }

    private boolean waitConvoy(long deadline, boolean interruptible) throws InterruptedException {
        WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread());
        entryQueue.lockGuard();
        try {
            for (;;) {
                int s = state;
                if (s == 0) {
                    if (STATE.compareAndSet(this, 0, LOCKED)) {
                        return true;
                    }
                } else {
                    checkWaiterRoom(s);
                    if (STATE.compareAndSet(this, s, s + WAITER_ONE)) {
                        break;
                    }
                }
            }
            entryQueue.addLast(me);
        } finally {
            entryQueue.unlockGuard();
        }
        WaitQueue.Wake wake = entryQueue.await(me, blocker, deadline, interruptible);
        if (wake == WaitQueue.Wake.SIGNALED) {
            return true; // ownership was handed over with LOCKED still set
        }
        boolean removed;
        entryQueue.lockGuard();
        try {
            removed = entryQueue.remove(me);
            if (removed) {
                STATE.getAndAdd(this, -WAITER_ONE);
            }
        } finally {
            entryQueue.unlockGuard();
        }
        if (!removed) {
            // The handoff raced with the timeout: the lock is ours.
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

    private static void checkWaiterRoom(int s) {
        if ((s >>> WAITER_SHIFT) == MAX_WAITERS) {
            throw new IllegalStateException("too many waiters: at most " + MAX_WAITERS + " threads may wait");
        }
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
        if (barging) {
            // LP: the release.
            int s = (int) STATE.getAndAdd(this, -LOCKED) - LOCKED;
            if (needToSignalWaiter(s)) {
                signalOneWaiter();
            }
        } else {
            releaseConvoy();
        }
    }

    private static boolean needToSignalWaiter(int s) {
        return s >= WAITER_ONE && (s & (SPINNER_MASK | WAITER_SIGNALED)) == 0;
    }

    private void signalOneWaiter() {
        WaitQueue.Waiter next;
        entryQueue.lockGuard();
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
            next = entryQueue.pollFirst();
            assert next != null : "waiter count says a waiter is queued";
        } finally {
            entryQueue.unlockGuard();
        }
        entryQueue.signal(next);
    }

    private void releaseConvoy() {
        for (;;) {
            int s = state;
            if (s == LOCKED) {
                // LP: the release when nobody waits.
                if (STATE.compareAndSet(this, LOCKED, 0)) {
                    return;
                }
                continue;
            }
            WaitQueue.Waiter next;
            entryQueue.lockGuard();
            try {
                if (state == LOCKED) {
                    continue; // the last waiter timed out meanwhile
                }
                next = entryQueue.pollFirst();
                assert next != null : "waiter count says a waiter is queued";
                // LP: ownership passes to `next`; LOCKED stays set.
                STATE.getAndAdd(this, -WAITER_ONE);
            } finally {
                entryQueue.unlockGuard();
            }
            entryQueue.signal(next);
            return;
        }
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
            wake = entryQueue.await(node, blocker, untilPulsed ? NO_DEADLINE : deadline, true);
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
        entryQueue.signal(w);
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
        return (state & LOCKED) != 0;
    }

    /** Threads blocked waiting to enter (a snapshot; excludes condition waiters). */
    public int waiterCount() {
        return state >>> WAITER_SHIFT;
    }

    /** Threads registered as spinners (a snapshot; always 0 with {@code monitor=convoy}). */
    public int spinnerCount() {
        return (state & SPINNER_MASK) >>> SPINNER_SHIFT;
    }

    /** The handoff policy in use. */
    public MonitorPolicy policy() {
        return barging ? MonitorPolicy.BARGING : MonitorPolicy.CONVOY;
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
        int s = state;
        return "MonitorLock[" + policy() + (isLocked() ? ", locked by " + owner() : ", free") + ", waiters="
                + (s >>> WAITER_SHIFT) + ", spinners=" + ((s & SPINNER_MASK) >>> SPINNER_SHIFT) + "]";
    }

    private Thread owner() {
        return (Thread) OWNER.getOpaque(this);
    }

    private void setOwner(Thread thread) {
        OWNER.setOpaque(this, thread);
    }

    // VarHandle mechanics
    private static final VarHandle STATE;
    private static final VarHandle OWNER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(MonitorLock.class, "state", int.class);
            OWNER = lookup.findVarHandle(MonitorLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
