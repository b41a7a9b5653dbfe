package io.spinlab.impl.pool;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.model.tuning.ThreadRequestPolicy;

/**
 * {@code thread-requests=per-item}: one worker request per queued item while fewer than the
 * processor count are outstanding (.NET Core 2.0 to .NET 6, coreclr {@code ThreadPool.cs}
 * {@code EnsureThreadRequested} with {@code numOutstandingThreadRequests}, capped at the
 * processor count since coreclr #13431). Every generation spinlab models ships it. Lock-free.
 */
final class PerItemThreadRequests implements ThreadRequests {
    /*
     * Implementation notes.
     *
     * Invariants: `outstanding` counts requests that have not yet started scanning; it never
     * exceeds the processor count (read from the platform at each call) and never goes below
     * zero. A woken worker decrements it
     * (MarkThreadRequestSatisfied) before it scans, and requests once more when it finds an
     * item (so that the next item, if any, gets its own worker), or when its scan lost a steal
     * race.
     */

    private final ThreadPool pool;
    private final PaddedLong outstanding = new PaddedLong(0);

    PerItemThreadRequests(ThreadPool pool) {
        this.pool = pool;
    }

    @Override
    public ThreadRequestPolicy policy() {
        return ThreadRequestPolicy.PER_ITEM;
    }

    @Override
    public void ensureRequested() {
        int limit = pool.platform.processorCount();
        for (;;) {
            long n = outstanding.value;
            if (n >= limit) {
                return;
            }
            if (outstanding.compareAndSet(n, n + 1)) {
                pool.requestWorker();
                return;
            }
        }
    }

    @Override
    public Runnable firstItem(PoolWorker worker, WorkStealingQueue.MissedSteal missed) {
        markThreadRequestSatisfied();
        Runnable item = worker.dequeue(missed);
        if (item == null) {
            if (missed.missed()) {
                ensureRequested();
            }
            return null;
        }
        ensureRequested();
        return item;
    }

    private void markThreadRequestSatisfied() {
        for (;;) {
            long n = outstanding.value;
            if (n <= 0 || outstanding.compareAndSet(n, n - 1)) {
                return;
            }
        }
    }
}
