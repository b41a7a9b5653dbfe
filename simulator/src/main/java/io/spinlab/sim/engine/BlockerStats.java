package io.spinlab.sim.engine;

import io.spinlab.sim.trace.BlockerMetrics;

/** Running totals for one blocker; the engine's, turned into {@link BlockerMetrics} at the end. */
final class BlockerStats {
    final int id;
    final String name;
    final Object blocker;
    long waits;
    long totalWaitPicos;
    int waiters;
    int maxWaiters;
    long spinWaits;
    long totalSpinWaitPicos;
    int spinWaiters;
    int maxSpinWaiters;

    BlockerStats(int id, String name, Object blocker) {
        this.id = id;
        this.name = name;
        this.blocker = blocker;
    }

    void parked() {
        waits++;
        waiters++;
        if (waiters > maxWaiters) {
            maxWaiters = waiters;
        }
    }

    void woke(long waitedPicos) {
        waiters--;
        totalWaitPicos += waitedPicos;
    }

    void spinWaitBegan() {
        spinWaits++;
        spinWaiters++;
        if (spinWaiters > maxSpinWaiters) {
            maxSpinWaiters = spinWaiters;
        }
    }

    void spinWaitEnded(long waitedPicos) {
        spinWaiters--;
        totalSpinWaitPicos += waitedPicos;
    }

    /** The totals, counting {@code openSpinWaitPicos} of spin waits still in progress. */
    BlockerMetrics metrics(long openSpinWaitPicos) {
        return new BlockerMetrics(name, waits, totalWaitPicos, maxWaiters, spinWaits,
                totalSpinWaitPicos + openSpinWaitPicos, maxSpinWaiters);
    }
}
