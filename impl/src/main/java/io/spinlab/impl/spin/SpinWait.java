package io.spinlab.impl.spin;

import io.spinlab.model.platform.Platform;

import java.util.function.BooleanSupplier;

/**
 * Escalating spin-then-yield for a waiting loop: the .NET {@code SpinWait} struct. Not
 * thread-safe: one instance per waiting thread, normally a local variable.
 *
 * <p>The schedule follows the {@code spinwait} knob ({@link SpinOnceSchedule}): {@code capped}
 * (since .NET Core 2.1) spins 1, 2, 4 … up to the ~272 ns cap at counts 0–9, then alternates
 * yields and capped spins, every fifth yield a {@code Sleep(0)}, and from the Sleep(1) threshold
 * on sleeps 1 ms; {@code exponential} (.NET Core 2.0) spins {@code 4 << count} at counts 0–10
 * (4 … 4,096) and from 11 on yields every time: a Sleep(1) every 20th, a Sleep(0) every 5th. What
 * a spin count costs follows the {@code pause} knob ({@link SpinContext#spinWait(int)}). On a
 * single processor every iteration yields.
 */
public final class SpinWait {

    /** First count at which {@link #spinOnce()} may yield the thread. */
    public static final int YIELD_THRESHOLD = 10;
    /** Every this many yields one is a {@code Sleep(0)}. */
    public static final int SLEEP0_EVERY_HOW_MANY_YIELDS = 5;
    /** Count from which {@link #spinOnce()} sleeps 1 ms. */
    public static final int DEFAULT_SLEEP1_THRESHOLD = 20;
    /** Suggested spin iterations before a real wait on a multi-processor. */
    public static final int SPIN_COUNT_FOR_SPIN_BEFORE_WAIT = 35;
    /** One millisecond: {@code Sleep(1)}. */
    static final long SLEEP1_NANOS = 1_000_000L;

    private final SpinContext context;
    private final SpinOnceSchedule schedule;
    private int count;

    public SpinWait(SpinContext context) {
        this(context, 0);
    }

    /** Starts at {@code count} (e.g. {@link #YIELD_THRESHOLD} to skip straight to yielding). */
    public SpinWait(SpinContext context, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count = " + count + " is negative; allowed 0.." + Integer.MAX_VALUE);
        }
        this.context = context;
        this.schedule = SpinOnceSchedule.of(context.tuning().spinWait());
        this.count = count;
    }

    /** How many times {@link #spinOnce} has been called since construction or {@link #reset()}. */
    public int count() {
        return count;
    }

    /** True if the next {@link #spinOnce()} will give up the processor instead of PAUSEing. */
    public boolean nextSpinWillYield() {
        return schedule.yieldsAt(count, context.singleProcessor());
    }

    /** Starts over at count 0. */
    public void reset() {
        count = 0;
    }

    /** One iteration with the default Sleep(1) threshold of 20. */
    public void spinOnce() {
        spinOnceCore(DEFAULT_SLEEP1_THRESHOLD);
    }

    /**
     * One iteration. {@code sleep1Threshold} = −1 never sleeps 1 ms; 0–9 are raised to 10.
     *
     * @throws IllegalArgumentException if {@code sleep1Threshold} is below −1
     */
    public void spinOnce(int sleep1Threshold) {
        if (sleep1Threshold < -1) {
            throw new IllegalArgumentException("sleep1Threshold = " + sleep1Threshold
                    + " is out of range; allowed -1 (never sleep 1 ms) or 0.." + Integer.MAX_VALUE);
        }
        spinOnceCore(sleep1Threshold >= 0 && sleep1Threshold < YIELD_THRESHOLD ? YIELD_THRESHOLD : sleep1Threshold);
    }

    private void spinOnceCore(int sleep1Threshold) {
        if (count == 0) {
            context.beginSpinLoop();
        }
        schedule.spinOnce(context, count, sleep1Threshold);
        count = count == Integer.MAX_VALUE ? YIELD_THRESHOLD : count + 1;
    }

    /**
     * Spins until {@code condition} holds or {@code timeoutNanos} passes (negative = forever).
     * The clock is read only once yielding starts, to keep short spins cheap.
     *
     * @return true if the condition held, false on timeout
     */
    public static boolean spinUntil(SpinContext context, BooleanSupplier condition, long timeoutNanos) {
        Platform platform = context.platform();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        SpinWait spinner = new SpinWait(context);
        while (!condition.getAsBoolean()) {
            if (timeoutNanos == 0) {
                return false;
            }
            spinner.spinOnce();
            if (timeoutNanos > 0 && spinner.nextSpinWillYield() && platform.nanoTime() - start >= timeoutNanos) {
                return condition.getAsBoolean();
            }
        }
        return true;
    }
}
