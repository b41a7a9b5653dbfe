package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A mutual-exclusion lock that never blocks in the kernel: contenders spin, yield and at worst
 * sleep 1 ms. The equivalent of .NET's {@code System.Threading.SpinLock}; for very short
 * critical sections.
 *
 * <p>Two modes, as in .NET: <em>thread-tracking</em> (records the owner, rejects recursion and
 * exit by a non-owner) and <em>anonymous</em> (one int: held bit plus a count of waiting
 * threads; cheapest). In anonymous mode the slow path follows the {@code spinlock} knob:
 * {@code spinwait} (current: one SpinWait loop, Sleep(1) from the 40th iteration; a thread
 * whose turn is beyond the processor count starts yielding at once) or {@code spinning-factor}
 * (before .NET Core 3.0: a staged spin of {@code (turn + i) × 100 × processFactor} PAUSEs while
 * the turn is below the processor count, then a yield loop with Sleep(1) every 40th and
 * Sleep(0) every 10th yield).
 *
 * <p>Not reentrant. {@link #enter()} is not interruptible; {@link #tryEnter(long, TimeUnit)}
 * is. Progress: blocking (a preempted holder stalls everyone).
 */
public final class SpinLock {
    /*
     * Implementation notes.
     *
     * Anonymous state word `owner`:
     *   bit 31      ID_DISABLED: anonymous mode (constant for the lock's life)
     *   bits 1..30  waiter count × 2
     *   bit 0       HELD
     * Tracking mode uses `ownerThread` instead (null = free) and leaves `owner` at 0.
     *
     * Linearization points: acquisition at the CAS that sets HELD (or installs ownerThread);
     * release at the getAndAdd(-1) that clears HELD (or the store of null).
     *
     * Invariants: a waiter that acquires removes itself from the count in the same CAS, unless
     * the count is already 0 (a concurrent exit(false) plain store may have lost an increment).
     * A waiter that gives up leaves the count, whether it timed out or was interrupted. The
     * interruptible timed wait is this class's own (Java's InterruptedException). .NET's
     * ContinueTryEnter checks for no interrupt and has no try/finally around its spin loop, so a
     * ThreadInterruptedException from SpinWait's Sleep(1) leaves the count incremented there
     * (dotnet/runtime src/libraries/System.Private.CoreLib/src/System/Threading/SpinLock.cs
     * @0f1ae4d7); only the count's value differs, which the turn order reads.
     *
     * Metrics: a contended acquisition is bracketed by Platform.beginSpinWait/endSpinWait with
     * `blocker` (in anonymous mode from the waiter registration to the acquisition or timeout),
     * so a simulator can count the threads waiting on this lock over time. Free on hardware
     * (an empty default method) and only on the slow path.
     */

    static final int ID_DISABLED = 0x8000_0000;
    static final int HELD = 1;
    static final int WAITER_ONE = 2;
    static final int WAITERS_MASK = 0x7FFF_FFFE;
    static final int ID_DISABLED_AND_HELD = ID_DISABLED | HELD;
    /** Current slow path: Sleep(1) from this SpinWait count on. */
    static final int SLEEP_ONE_FREQUENCY = 40;
    /** Legacy slow path: a Sleep(0) every this many yields. */
    static final int SLEEP_ZERO_FREQUENCY = 10;
    /** Timeouts are checked every this many iterations. */
    static final int TIMEOUT_CHECK_FREQUENCY = 10;
    /** Legacy slow path spin scale. */
    static final int SPINNING_FACTOR = 100;

    private final SpinContext context;
    private final SpinLockSlowPath slowPath;
    private final Object blocker;
    private volatile int owner;
    private volatile Thread ownerThread;

    /** A thread-tracking spin lock. */
    public SpinLock(SpinContext context) {
        this(context, true);
    }

    /**
     * @param trackOwner true for thread-tracking mode, false for anonymous mode
     */
    public SpinLock(SpinContext context, boolean trackOwner) {
        this(context, trackOwner, null);
    }

    /**
     * @param trackOwner true for thread-tracking mode, false for anonymous mode
     * @param blocker    what a contended acquisition is reported waiting for
     *                   ({@link Platform#beginSpinWait}): the object that owns this lock, so that
     *                   metrics name it; null for this lock itself
     */
    public SpinLock(SpinContext context, boolean trackOwner, Object blocker) {
        this.context = context;
        this.slowPath = SpinLockSlowPath.of(context.tuning().spinLock());
        this.blocker = blocker != null ? blocker : this;
        this.owner = trackOwner ? 0 : ID_DISABLED;
    }

    /** True in thread-tracking mode. */
    public boolean isThreadOwnerTrackingEnabled() {
        return (owner & ID_DISABLED) == 0;
    }

    /**
     * Acquires the lock, spinning as long as it takes.
     *
     * @throws IllegalStateException in tracking mode, if the calling thread already holds it
     */
    public void enter() {
        int o = owner;
        if ((o & ID_DISABLED_AND_HELD) == ID_DISABLED && OWNER.compareAndSet(this, o, o | HELD)) {
            return;
        }
        try {
            boolean acquired = continueTryEnter(-1, false);
            assert acquired;
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible enter reported an interrupt", e);
        }
    }

    /** Acquires the lock only if it is free now. */
    public boolean tryEnter() {
        int o = owner;
        if ((o & ID_DISABLED) != 0) {
            return (o & HELD) == 0 && OWNER.compareAndSet(this, o, o | HELD);
        }
        checkNotRecursive();
        return ownerThread == null && OWNER_THREAD.compareAndSet(this, null, Thread.currentThread());
    }

    /**
     * Acquires the lock if it can be had within {@code timeout}, checking for interruption
     * every few iterations.
     */
    public boolean tryEnter(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        if (timeout == 0) {
            return tryEnter();
        }
        int o = owner;
        if ((o & ID_DISABLED_AND_HELD) == ID_DISABLED && OWNER.compareAndSet(this, o, o | HELD)) {
            return true;
        }
        return continueTryEnter(unit.toNanos(timeout), true);
    }

    private boolean continueTryEnter(long timeoutNanos, boolean interruptible) throws InterruptedException {
        if (isThreadOwnerTrackingEnabled()) {
            return enterTracking(timeoutNanos, interruptible);
        }
        return enterAnonymous(timeoutNanos, interruptible);
    }

    private boolean enterTracking(long timeoutNanos, boolean interruptible) throws InterruptedException {
        checkNotRecursive();
        Platform platform = context.platform();
        Thread me = Thread.currentThread();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        SpinWait spinner = new SpinWait(context);
        if (tryAcquireTracking(me)) {
            return true;
        }
        // Waiting from the first failed attempt to the acquisition (or timeout).
        platform.beginSpinWait(blocker);
        try {
            for (;;) {
                spinner.spinOnce();
                if (spinner.nextSpinWillYield() && expiredOrInterrupted(start, timeoutNanos, interruptible)) {
                    return false;
                }
                if (tryAcquireTracking(me)) {
                    return true;
                }
            }
        } finally {
            platform.endSpinWait(blocker);
        }
    }

    private boolean tryAcquireTracking(Thread me) {
        // LP: acquisition in tracking mode.
        return ownerThread == null && OWNER_THREAD.compareAndSet(this, null, me);
    }

    private boolean enterAnonymous(long timeoutNanos, boolean interruptible) throws InterruptedException {
        Platform platform = context.platform();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        int turn = registerWaiter();
        if (turn < 0) {
            return true;
        }
        // Waiting from the registration to the acquisition (or timeout): what waiterCount() counts.
        platform.beginSpinWait(blocker);
        try {
            return slowPath.await(this, context, turn, start, timeoutNanos, interruptible);
        } finally {
            platform.endSpinWait(blocker);
        }
    }

    /**
     * Anonymous mode: takes a free lock (returns −1) or joins the waiters and returns this
     * thread's turn (its position among them).
     */
    private int registerWaiter() {
        for (;;) {
            int o = owner;
            if ((o & HELD) == 0) {
                if (OWNER.compareAndSet(this, o, o | HELD)) {
                    return -1;
                }
            } else if ((o & WAITERS_MASK) == WAITERS_MASK) {
                return WAITERS_MASK >>> 1; // saturated: spin without being counted
            } else if (OWNER.compareAndSet(this, o, o + WAITER_ONE)) {
                return ((o + WAITER_ONE) & WAITERS_MASK) >>> 1;
            }
        }
    }

    /** Anonymous mode, a registered waiter: takes a free lock and leaves the count in one CAS. */
    boolean tryAcquireAsWaiter() {
        int o = owner;
        if ((o & HELD) != 0) {
            return false;
        }
        int next = (o & WAITERS_MASK) == 0 ? o | HELD : (o - WAITER_ONE) | HELD;
        // LP: acquisition by a waiting thread.
        return OWNER.compareAndSet(this, o, next);
    }

    /** Anonymous mode: a registered waiter gives up. */
    void decrementWaiters() {
        for (;;) {
            int o = owner;
            if ((o & WAITERS_MASK) == 0 || OWNER.compareAndSet(this, o, o - WAITER_ONE)) {
                return;
            }
        }
    }

    private boolean expiredOrInterrupted(long start, long timeoutNanos, boolean interruptible)
            throws InterruptedException {
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException();
        }
        return timeoutNanos >= 0 && context.platform().nanoTime() - start >= timeoutNanos;
    }

    /**
     * Anonymous mode, a registered waiter: true (and unregistered) if the timeout, counted from
     * {@code start}, has passed ({@code timeoutNanos} < 0: never); throws (unregistered as well) if interrupted.
     */
    boolean giveUp(long start, long timeoutNanos, boolean interruptible) throws InterruptedException {
        boolean expired;
        try {
            expired = expiredOrInterrupted(start, timeoutNanos, interruptible);
        } catch (InterruptedException e) {
            decrementWaiters(); // an interrupted waiter leaves too: else it stays counted for good
            throw e;
        }
        if (expired) {
            decrementWaiters();
            return true;
        }
        return false;
    }

    private void checkNotRecursive() {
        if (ownerThread == Thread.currentThread()) {
            throw new IllegalStateException("SpinLock is not reentrant: " + Thread.currentThread().getName()
                    + " already holds it");
        }
    }

    /** Releases the lock with a full fence. */
    public void exit() {
        exit(true);
    }

    /**
     * Releases the lock; {@code useMemoryBarrier = false} uses a release store instead of an
     * atomic decrement in anonymous mode (cheaper; a concurrent waiter registration may be lost
     * from the count, which the acquire path tolerates).
     *
     * @throws IllegalMonitorStateException if the lock is not held (anonymous) or not held by the caller (tracking)
     */
    public void exit(boolean useMemoryBarrier) {
        int o = owner;
        if ((o & ID_DISABLED) == 0) {
            if (ownerThread != Thread.currentThread()) {
                throw new IllegalMonitorStateException("exit by " + Thread.currentThread().getName()
                        + ", which does not hold the SpinLock");
            }
            // LP: release in tracking mode; .NET: Interlocked.Exchange with the barrier, a volatile
            // field's release store without it (SpinLock.ExitSlowPath)
            if (useMemoryBarrier) {
                ownerThread = null;
            } else {
                OWNER_THREAD.setRelease(this, null);
            }
            return;
        }
        if ((o & HELD) == 0) {
            throw new IllegalMonitorStateException("exit of a SpinLock that is not held");
        }
        if (!useMemoryBarrier) {
            OWNER.setRelease(this, o & ~HELD);
            return;
        }
        // A CAS rather than .NET's decrement: of two racing exits only one may succeed (a second
        // decrement would clear the anonymous-mode bit).
        for (;;) {
            // LP: release in anonymous mode.
            if (OWNER.compareAndSet(this, o, o & ~HELD)) {
                return;
            }
            o = owner;
            if ((o & HELD) == 0) {
                throw new IllegalMonitorStateException("exit of a SpinLock that is not held");
            }
        }
    }

    /** True if some thread holds the lock (a snapshot). */
    public boolean isHeld() {
        return isThreadOwnerTrackingEnabled() ? ownerThread != null : (owner & HELD) != 0;
    }

    /**
     * True if the calling thread holds the lock.
     *
     * @throws IllegalStateException in anonymous mode, which does not know its owner
     */
    public boolean isHeldByCurrentThread() {
        if (!isThreadOwnerTrackingEnabled()) {
            throw new IllegalStateException("isHeldByCurrentThread needs thread-tracking mode");
        }
        return ownerThread == Thread.currentThread();
    }

    /** Threads counted as waiting (anonymous mode; a snapshot). */
    public int waiterCount() {
        return (owner & WAITERS_MASK) >>> 1;
    }

    @Override
    public String toString() {
        return "SpinLock[" + (isThreadOwnerTrackingEnabled() ? "tracking" : "anonymous") + ", "
                + (isHeld() ? "held" : "free") + "]";
    }

    // VarHandle mechanics
    private static final VarHandle OWNER;
    private static final VarHandle OWNER_THREAD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(SpinLock.class, "owner", int.class);
            OWNER_THREAD = lookup.findVarHandle(SpinLock.class, "ownerThread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
