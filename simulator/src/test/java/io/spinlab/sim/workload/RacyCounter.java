package io.spinlab.sim.workload;

/**
 * A guest fixture (its package is a guest package): a volatile counter incremented with a
 * separate read and write, so that two threads can lose an update between them.
 */
public final class RacyCounter implements Runnable {
    private volatile int count;
    private final int increments;

    public RacyCounter(int increments) {
        this.increments = increments;
    }

    @Override
    public void run() {
        for (int i = 0; i < increments; i++) {
            int seen = count;
            count = seen + 1;
        }
    }

    public int count() {
        return count;
    }
}
