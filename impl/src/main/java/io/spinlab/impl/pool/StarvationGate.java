package io.spinlab.impl.pool;

import io.spinlab.model.platform.Platform;

/**
 * Starvation injection, as .NET's gate thread: every gate interval, if worker requests wait
 * and no worker started an item since the last look (all of them blocked), the pool's goal
 * rises by one (up to its maximum) and one more worker is woken or created. The gate thread
 * starts with the pool's first worker request and exits once the pool is drained. Internal to
 * {@link ThreadPool}.
 */
final class StarvationGate {
    /*
     * Implementation notes.
     *
     * state (one long): GATE_NOT_STARTED → GATE_RUNNING (one CAS, by the first request) →
     * GATE_STOPPED (by the gate thread as it exits, or at once if the pool was drained before
     * the thread started). The pool terminates only while the state is not GATE_RUNNING, and
     * the gate checks termination after it stops, so whichever of the gate and the last worker
     * finishes second sets TERMINATED.
     *
     * Wake-up: the drainer publishes the drained state and then reads thread (wake); the gate
     * stores thread and then reads the drained state (run), both volatile, so one of them sees
     * the other. The starter's own store of the same Thread after startThread returns is
     * redundant but kept, so that thread() is non-null as soon as ensureRunning returns.
     *
     * Progress signal: the sum of the workers' started counters (single-writer, release stores); a retiring
     * worker takes its count along, so an interval can look busy when stalled, or stalled when busy where the
     * two cancel out (one injection too many). .NET's gate asks how long ago an item was last dequeued.
     *
     * Not done: hill climbing (the goal moves only by starvation injection and idle
     * timeouts).
     */

    static final long GATE_NOT_STARTED = 0;
    static final long GATE_RUNNING = 1;
    static final long GATE_STOPPED = 2;

    private final ThreadPool pool;
    private final Platform platform;
    private final long intervalNanos;
    private final Object blocker = new Object();
    private final PaddedLong state = new PaddedLong(GATE_NOT_STARTED);
    private volatile Thread thread;

    StarvationGate(ThreadPool pool, long intervalNanos) {
        this.pool = pool;
        this.platform = pool.platform;
        this.intervalNanos = intervalNanos;
    }

    /** Starts the gate thread unless it was started before. */
    void ensureRunning() {
        if (state.value != GATE_NOT_STARTED || !state.compareAndSet(GATE_NOT_STARTED, GATE_RUNNING)) {
            return;
        }
        if (pool.drained()) {
            state.value = GATE_STOPPED;
            pool.maybeTerminate();
            return;
        }
        thread = platform.startThread(pool.name() + "-gate", this::run);
    }

    /** True while the gate thread is (about to be) alive. */
    boolean isRunning() {
        return state.value == GATE_RUNNING;
    }

    /** The gate thread, or null before it started. */
    Thread thread() {
        return thread;
    }

    /** Ends the gate's current wait early (the pool is drained). */
    void wake() {
        Thread gate = thread;
        if (gate != null) {
            platform.unpark(gate);
        }
    }

    /** Every gate interval: if requests wait and no worker started an item since, add a worker. */
    private void run() {
        // Published here before the first look at drained(), not only by the starter after startThread
        // returns: a drain between this thread's first park and the starter's store would otherwise wake
        // nobody and leave the pool running until the interval ends (a lost wake-up the simulator found).
        thread = Thread.currentThread();
        try {
            long lastStarted = -1;
            while (!pool.drained()) {
                platform.parkNanos(blocker, intervalNanos);
                long started = itemsStarted();
                if (pool.hasRequests() && started == lastStarted) {
                    injectWorker();
                }
                lastStarted = started;
            }
        } finally {
            state.value = GATE_STOPPED;
            pool.maybeTerminate();
        }
    }

    private void injectWorker() {
        pool.counts.raiseGoal(pool.maxWorkers);
        pool.maybeAddWorkingWorker();
    }

    private long itemsStarted() {
        long n = 0;
        for (PoolWorker w : pool.workers()) {
            n += w.started;
        }
        return n;
    }
}
