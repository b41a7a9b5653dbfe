package io.spinlab.sim.trace;

/**
 * Waiting on one blocker (the object passed to {@code Platform.park}), over a run.
 *
 * @param name           a stable description: the blocker's class and its order of first use,
 *                       e.g. {@code ManualResetEvent#2}
 * @param waits          parks on it that blocked (a park that consumed a permit is not a wait)
 * @param totalWaitPicos time threads spent parked on it, wake-up latency included
 * @param maxWaiters     most threads parked on it at the same time
 */
public record BlockerMetrics(String name, long waits, long totalWaitPicos, int maxWaiters) {
}
