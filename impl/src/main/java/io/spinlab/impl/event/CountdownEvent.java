package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A count that threads decrement with {@link #signal()}; waiters pass once it reaches zero.
 * Unlike {@code CountDownLatch} the count can grow again while positive ({@link #addCount}) and
 * the event can be {@link #reset}. The equivalent of .NET's {@code CountdownEvent}: waiting is a
 * {@link ManualResetEvent} wait, so it spins by the {@code spin} knob before blocking.
 *
 * <p>Thread-safe; signal and addCount are lock-free CAS loops with SpinWait back-off.
 * {@link #reset} racing with other operations is not atomic with respect to them, as in .NET.
 */
public final class CountdownEvent {
    /*
     * Implementation notes.
     *
     * Invariants: count >= 0; the event is set iff the count is 0, except transiently between
     * the CAS that reaches (or leaves) zero and the event update that follows it. addCount never
     * leaves zero (a set event stays set), so the only transition is positive -> 0 -> set().
     *
     * Linearization points: signal/addCount at their successful CAS; await at the event's.
     */

    private final SpinContext context;
    private final ManualResetEvent event;
    private volatile int count;
    private volatile int initialCount;

    /**
     * @param initialCount the count to start from, 0 or more (0 = already set)
     */
    public CountdownEvent(SpinContext context, int initialCount) {
        checkCount("initialCount", initialCount);
        this.context = context;
        this.count = initialCount;
        this.initialCount = initialCount;
        this.event = new ManualResetEvent(context, initialCount == 0);
    }

    /** The count left before waiters pass. */
    public int currentCount() {
        return count;
    }

    /** The count given at construction or at the last {@link #reset}. */
    public int initialCount() {
        return initialCount;
    }

    /** True once the count has reached zero. */
    public boolean isSet() {
        return count == 0;
    }

    /** Decrements the count by one; see {@link #signal(int)}. */
    public boolean signal() {
        return signal(1);
    }

    /**
     * Decrements the count by {@code signalCount}.
     *
     * @return true if this call brought the count to zero
     * @throws IllegalArgumentException if {@code signalCount} is below 1
     * @throws IllegalStateException if the count is smaller than {@code signalCount}
     */
    public boolean signal(int signalCount) {
        if (signalCount < 1) {
            throw new IllegalArgumentException("signalCount = " + signalCount + " is out of range; allowed 1 or more");
        }
        SpinWait spinner = new SpinWait(context);
        for (;;) {
            int c = count;
            if (c < signalCount) {
                throw new IllegalStateException("signal(" + signalCount + ") would take the count " + c
                        + " below zero");
            }
            // LP: the CAS that lowers the count.
            if (COUNT.compareAndSet(this, c, c - signalCount)) {
                if (c == signalCount) {
                    event.set();
                    return true;
                }
                return false;
            }
            spinner.spinOnce(-1);
        }
    }

    /**
     * Raises the count by one; see {@link #addCount(int)}.
     */
    public void addCount() {
        addCount(1);
    }

    /**
     * Raises the count by {@code signalCount}.
     *
     * @throws IllegalStateException if the count is already zero (the event is set) or would overflow
     */
    public void addCount(int signalCount) {
        if (!tryAddCount(signalCount)) {
            throw new IllegalStateException("addCount(" + signalCount + ") on an event whose count is already zero");
        }
    }

    /** Raises the count by one unless it is zero. */
    public boolean tryAddCount() {
        return tryAddCount(1);
    }

    /**
     * Raises the count by {@code signalCount} unless it is already zero.
     *
     * @return false if the count was zero
     * @throws IllegalArgumentException if {@code signalCount} is below 1
     * @throws IllegalStateException if the count would overflow
     */
    public boolean tryAddCount(int signalCount) {
        if (signalCount < 1) {
            throw new IllegalArgumentException("signalCount = " + signalCount + " is out of range; allowed 1 or more");
        }
        SpinWait spinner = new SpinWait(context);
        for (;;) {
            int c = count;
            if (c == 0) {
                return false;
            }
            if (c > Integer.MAX_VALUE - signalCount) {
                throw new IllegalStateException("addCount(" + signalCount + ") would overflow the count " + c);
            }
            // LP: the CAS that raises the count.
            if (COUNT.compareAndSet(this, c, c + signalCount)) {
                return true;
            }
            spinner.spinOnce(-1);
        }
    }

    /** Resets the count to the initial count. */
    public void reset() {
        reset(initialCount);
    }

    /**
     * Resets the count to {@code newCount} (and the initial count with it). Not atomic with
     * respect to concurrent signals.
     */
    public void reset(int newCount) {
        checkCount("newCount", newCount);
        // release stores, as .NET's (a volatile and a plain field there); the event's CAS follows
        COUNT.setRelease(this, newCount);
        INITIAL_COUNT.setRelease(this, newCount);
        if (newCount == 0) {
            event.set();
        } else {
            event.reset();
        }
    }

    /** Waits until the count reaches zero. */
    public void await() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (count != 0) {
            event.await();
        }
    }

    /**
     * Waits until the count reaches zero or the timeout passes; returns true if it reached zero.
     * The count is read first: the internal event is set only just after the count reaches zero.
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        // LP: the read of a zero count.
        return count == 0 || event.await(timeout, unit);
    }

    private static void checkCount(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " = " + value + " is negative; allowed 0.." + Integer.MAX_VALUE);
        }
    }

    @Override
    public String toString() {
        return "CountdownEvent[count=" + count + ", initial=" + initialCount + "]";
    }

    // VarHandle mechanics
    private static final VarHandle COUNT;
    private static final VarHandle INITIAL_COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(CountdownEvent.class, "count", int.class);
            INITIAL_COUNT = MethodHandles.lookup().findVarHandle(CountdownEvent.class, "initialCount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
