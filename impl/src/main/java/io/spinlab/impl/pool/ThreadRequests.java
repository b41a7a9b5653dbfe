package io.spinlab.impl.pool;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.model.tuning.ThreadRequestPolicy;

/**
 * How queued work asks the pool for workers: the {@code thread-requests} knob
 * ({@link ThreadRequestPolicy}), one implementation per value, chosen once when the pool is
 * built ({@link #create}). A request is served by one worker ({@link ThreadPool#requestWorker});
 * a policy decides when an enqueue, or a worker that finds more work than it will run, adds one,
 * and how a woken worker takes its first item. Internal to {@link ThreadPool}.
 *
 * <p>Both policies promise the same thing: an item queued before a request's scan starts is
 * seen by that scan, so no item waits in a queue while every worker sleeps.
 */
interface ThreadRequests {
    /*
     * Implementation notes.
     *
     * Lost wake-ups: an enqueuer queues, then reads/updates the request state
     * (ensureRequested); a worker marks the request state, then scans the queues (firstItem).
     * All are volatile or CAS, so either the scan sees the item or the enqueuer sees the state
     * that makes it request.
     */

    /** The knob value this implements. */
    ThreadRequestPolicy policy();

    /**
     * After an item was queued (or a worker saw work it will not run itself): requests a worker
     * if the policy says one is needed.
     */
    void ensureRequested();

    /**
     * A woken worker serves one request: takes the first item through
     * {@link PoolWorker#dequeue}, and requests further workers as the policy says.
     *
     * @param missed cleared by the caller; records a steal that lost a race
     * @return the item, or null if the scan found none
     */
    Runnable firstItem(PoolWorker worker, WorkStealingQueue.MissedSteal missed);

    /** The implementation of {@code policy} for {@code pool}. */
    static ThreadRequests create(ThreadRequestPolicy policy, ThreadPool pool) {
        return switch (policy) {
            case PER_ITEM -> new PerItemThreadRequests(pool);
            case CASCADING -> new CascadingThreadRequests(pool);
        };
    }
}
