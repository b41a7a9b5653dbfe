package io.spinlab.sim.trace;

/**
 * Waiting on one blocker, over a run: parked (the object passed to {@code Platform.park}) and
 * spin-waiting without parking (the object passed to {@code Platform.beginSpinWait}, e.g. by a
 * contended spin lock).
 *
 * @param name               a stable description: the blocker's class and its order of first use,
 *                           e.g. {@code ManualResetEvent#2}
 * @param waits              parks on it that blocked (a park that consumed a permit is not a wait)
 * @param totalWaitPicos     time threads spent parked on it, wake-up latency included
 * @param maxWaiters         most threads parked on it at the same time
 * @param spinWaits          waits on it without parking (spinning, yielding, sleeping)
 * @param totalSpinWaitPicos time threads spent in those waits, summed over threads (whether running
 *                           or waiting for a processor): divided by a span of time, the mean number
 *                           of spin-waiters over it
 * @param maxSpinWaiters     most threads spin-waiting on it at the same time
 */
public record BlockerMetrics(String name, long waits, long totalWaitPicos, int maxWaiters, long spinWaits,
                             long totalSpinWaitPicos, int maxSpinWaiters) {

    /** Parks only: no spin waits. */
    public BlockerMetrics(String name, long waits, long totalWaitPicos, int maxWaiters) {
        this(name, waits, totalWaitPicos, maxWaiters, 0, 0, 0);
    }
}
