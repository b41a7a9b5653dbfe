package io.spinlab.impl.pool;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.model.tuning.ThreadRequestPolicy;

/**
 * {@code thread-requests=cascading}: at most one outstanding worker request, which each woken
 * worker passes on when it finds more work: .NET 9's three-stage scheme (dotnet/runtime #100506;
 * {@code QueueProcessingStage} in {@code ThreadPoolWorkQueue.cs} @ 003a8322, whose handshake
 * #121887 reverted in 2025); no generation spinlab models ships it, so it is a what-if. Lock-free.
 */
final class CascadingThreadRequests implements ThreadRequests {
    /*
     * Implementation notes.
     *
     * stage (one long): NOT_SCHEDULED, DETERMINING (a woken worker is scanning), SCHEDULED (a
     * request is out, or an enqueuer relies on the scanning worker).
     *
     * Invariants: stage SCHEDULED implies a request that has not started scanning, or a
     * scanning (DETERMINING) worker whose CAS back from DETERMINING will fail and who then
     * rescans or requests. So an item queued before a request's scan starts is seen by that
     * scan.
     *
     * Memory ordering: the worker's store of DETERMINING is volatile (a fence) and precedes its
     * scan's reads; the enqueuer's getAndSet follows its queue write. That is a store→load
     * handshake, and it needs the fence: .NET's code at 003a8322 stores Determining with a plain
     * store (queueProcessingStage is a plain int of CacheLineSeparated) and scans at once, so on
     * x86 the scan's reads can pass the buffered store; an enqueuer whose exchange lands before
     * that store commits sees SCHEDULED and requests nothing, the store then overwrites its
     * SCHEDULED, and the worker's CAS from DETERMINING succeeds with the item unseen. The port
     * keeps the fence rather than that window. The store of SCHEDULED before the cascade's
     * request is a release store, as .NET's plain store there ("I thought we might want to add a
     * MemoryBarrier here but not sure about it"); the request's own atomics follow it.
     */

    static final long NOT_SCHEDULED = 0;
    static final long DETERMINING = 1;
    static final long SCHEDULED = 2;

    private final ThreadPool pool;
    private final PaddedLong stage = new PaddedLong(NOT_SCHEDULED);

    CascadingThreadRequests(ThreadPool pool) {
        this.pool = pool;
    }

    @Override
    public ThreadRequestPolicy policy() {
        return ThreadRequestPolicy.CASCADING;
    }

    @Override
    public void ensureRequested() {
        if (stage.getAndSet(SCHEDULED) == NOT_SCHEDULED) {
            pool.requestWorker();
        }
    }

    @Override
    public Runnable firstItem(PoolWorker worker, WorkStealingQueue.MissedSteal missed) {
        stage.value = DETERMINING; // volatile (a fence): ordered before the scan's reads
        Runnable item;
        for (;;) {
            item = worker.dequeue(missed);
            if (item != null) {
                break;
            }
            long witness = stage.compareAndExchange(DETERMINING, NOT_SCHEDULED);
            if (witness != SCHEDULED) {
                if (missed.missed()) {
                    ensureRequested();
                }
                return null;
            }
            // An enqueuer saw DETERMINING and relied on this scan: scan again.
            stage.value = DETERMINING;
            missed.clear();
        }
        if (missed.missed() || worker.moreWorkLikely()) {
            stage.setRelease(SCHEDULED); // .NET: a plain store
            pool.requestWorker(); // cascade: one more worker, before running this item
        } else if (stage.compareAndExchange(DETERMINING, NOT_SCHEDULED) == SCHEDULED) {
            pool.requestWorker(); // an enqueuer relied on this worker; it will be busy running the item
        }
        return item;
    }
}
