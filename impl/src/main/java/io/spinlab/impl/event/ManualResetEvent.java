package io.spinlab.impl.event;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinBeforeBlock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A manual-reset event: once {@link #set()}, every waiter passes until {@link #reset()}. The
 * equivalent of .NET's {@code ManualResetEventSlim}: a waiter first spins (the {@code spin} knob
 * decides how), then blocks on an internal {@link MonitorLock}.
 *
 * <p>Spin policies: {@code spinonce} (current: up to 35 × SpinOnce without Sleep(1)),
 * {@code proc-scaled} (.NET Core 2.0: {@code SpinWait(ProcessorCount × (4 << i))} for 10
 * iterations), {@code unscaled} (the same without the multiply), {@code none}.
 *
 * <p>Thread-safe; {@link #set()} and {@link #isSet()} are lock-free, {@link #await()} blocks.
 * {@link #reset()} racing with {@link #set()} resolves in some order, as in .NET. On a single
 * processor the spin count is 1 whatever was asked for.
 */
public final class ManualResetEvent {
    /*
     * Implementation notes.
     *
     * State word (one int), the layout of ManualResetEventSlim:
     *   bit 31      SIGNALED
     *   bits 19..29 spin count (0..2047), fixed at construction
     *   bits 0..18  waiters blocked (or about to block) in await, at most 524,287
     *
     * Lost wake-ups: a blocking waiter holds the lock, increments the waiter count (CAS, a full
     * fence) and only then re-reads SIGNALED before awaiting, which releases the lock atomically
     * with joining the condition queue. set() writes SIGNALED (CAS) and then reads the waiter
     * count; if it sees waiters it takes the lock, which it can only get after the waiter is
     * queued, and pulses all. Either the waiter sees SIGNALED or set() sees the waiter.
     *
     * Linearization points: set/reset at their CAS; await at the read of SIGNALED that returns true.
     */

    static final int SIGNALED = 0x8000_0000;
    static final int SPIN_COUNT_SHIFT = 19;
    static final int SPIN_COUNT_MASK = 0x3FF8_0000;
    static final int WAITERS_MASK = 0x0007_FFFF;
    /** Largest spin count the state word holds. */
    public static final int MAX_SPIN_COUNT = SPIN_COUNT_MASK >>> SPIN_COUNT_SHIFT;
    /** Most threads that may block at once. */
    public static final int MAX_WAITERS = WAITERS_MASK;

    private final SpinContext context;
    private final SpinBeforeBlock spinPolicy;
    private final MonitorLock lock;
    private volatile int state;

    /** An unset event with the spin policy's default spin count. */
    public ManualResetEvent(SpinContext context) {
        this(context, false);
    }

    /** An event with the spin policy's default spin count. */
    public ManualResetEvent(SpinContext context, boolean initiallySet) {
        this(context, initiallySet, SpinBeforeBlock.of(context.tuning().spin()).defaultSpinCount(context.platform()));
    }

    /**
     * @param spinCount spin iterations before blocking, 0..{@value #MAX_SPIN_COUNT}
     * @throws IllegalArgumentException if {@code spinCount} is out of range
     */
    public ManualResetEvent(SpinContext context, boolean initiallySet, int spinCount) {
        if (spinCount < 0 || spinCount > MAX_SPIN_COUNT) {
            throw new IllegalArgumentException("spinCount = " + spinCount + " is out of range; allowed 0.."
                    + MAX_SPIN_COUNT);
        }
        int effectiveSpin = context.singleProcessor() ? Math.min(spinCount, 1) : spinCount;
        this.context = context;
        this.spinPolicy = SpinBeforeBlock.of(context.tuning().spin());
        this.lock = new MonitorLock(context, this);
        this.state = (initiallySet ? SIGNALED : 0) | (effectiveSpin << SPIN_COUNT_SHIFT);
    }

    /** True if the event is set. */
    public boolean isSet() {
        return state < 0;
    }

    /** The spin iterations a waiter runs before blocking. */
    public int spinCount() {
        return (state & SPIN_COUNT_MASK) >>> SPIN_COUNT_SHIFT;
    }

    /** Threads blocked in {@link #await} (a snapshot; spinning waiters are not counted). */
    public int waiterCount() {
        return state & WAITERS_MASK;
    }

    /** Sets the event, releasing every waiter. */
    public void set() {
        // LP: the CAS that sets SIGNALED.
        int before = updateState(SIGNALED, SIGNALED);
        if ((before & WAITERS_MASK) != 0) {
            lock.enter();
            try {
                lock.pulseAll();
            } finally {
                lock.exit();
            }
        }
    }

    /** Resets the event so that waiters block again. */
    public void reset() {
        // LP: the CAS that clears SIGNALED.
        updateState(0, SIGNALED);
    }

    /** Waits until the event is set. */
    public void await() throws InterruptedException {
        awaitNanos(-1);
    }

    /**
     * Waits until the event is set or the timeout passes; a zero timeout only tests.
     *
     * @return true if the event was set
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        return awaitNanos(unit.toNanos(timeout));
    }

    /** @param timeoutNanos negative = no timeout */
    private boolean awaitNanos(long timeoutNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (isSet()) {
            return true;
        }
        if (timeoutNanos == 0) {
            return false;
        }
        Platform platform = context.platform();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        if (spinPolicy.spin(context, spinCount(), this, ManualResetEvent::isSet)) {
            return true;
        }
        lock.enter();
        try {
            while (!isSet()) {
                long remaining = Long.MAX_VALUE;
                if (timeoutNanos > 0) {
                    remaining = timeoutNanos - (platform.nanoTime() - start);
                    if (remaining <= 0) {
                        return false;
                    }
                }
                addWaiter(1);
                try {
                    if (isSet()) {
                        return true;
                    }
                    if (remaining == Long.MAX_VALUE) {
                        lock.await();
                    } else {
                        lock.await(remaining, TimeUnit.NANOSECONDS);
                    }
                } finally {
                    addWaiter(-1);
                }
            }
            return true;
        } finally {
            lock.exit();
        }
    }

    private void addWaiter(int delta) {
        for (;;) {
            int s = state;
            int waiters = (s & WAITERS_MASK) + delta;
            if (waiters > MAX_WAITERS) {
                throw new IllegalStateException("too many waiters: at most " + MAX_WAITERS + " threads may block");
            }
            assert waiters >= 0;
            if (STATE.compareAndSet(this, s, (s & ~WAITERS_MASK) | waiters)) {
                return;
            }
        }
    }

    /** Replaces the bits under {@code mask} with {@code bits}; returns the previous state. */
    private int updateState(int bits, int mask) {
        // Always a CAS, even when the bits are already so: its full fence keeps the caller's
        // later read of the waiter count from moving before it.
        for (;;) {
            int s = state;
            if (STATE.compareAndSet(this, s, (s & ~mask) | bits)) {
                return s;
            }
        }
    }

    @Override
    public String toString() {
        return "ManualResetEvent[" + (isSet() ? "set" : "unset") + ", waiters=" + waiterCount() + ", spin="
                + spinPolicy + "×" + spinCount() + "]";
    }

    // VarHandle mechanics
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ManualResetEvent.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
