package io.spinlab.impl.pool;

/**
 * The pool's worker counts in one CAS'd word, as .NET's {@code ThreadCounts}: how many workers
 * hold a wake-up ({@code processing}), how many worker threads are alive ({@code existing}) and
 * the target of processing ({@code goal}, between the pool's minimum and maximum). Each method
 * is one atomic transition of the word; what the pool does around it (signalling the
 * semaphore, starting threads) is the caller's. Internal to {@link ThreadPool}; lock-free.
 */
final class ThreadCounts {
    /*
     * Implementation notes.
     *
     * Packing (one long): bits 0..15 processing (workers that hold a wake-up: they are
     * dispatching or about to), bits 16..31 existing (worker threads alive), bits 32..47 goal
     * (target of processing; min..max).
     *
     * Invariants:
     *   - processing <= existing; every processing slot was paid for by one semaphore signal
     *     (ThreadPool.maybeAddWorkingWorker raises processing through tryAddWorking, creates a
     *     thread if needed, and releases one signal; the thread that takes it owns the slot
     *     until ThreadPool.removeWorkingWorker).
     *   - the goal moves only by starvation injection (raiseGoal, up to the maximum) and idle
     *     retirement (tryRetireIdle, down to no less than the minimum).
     *
     * Memory ordering: every transition is a CAS of the volatile word; readers take a volatile
     * snapshot and decode it.
     */

    static final int EXISTING_SHIFT = 16;
    static final int GOAL_SHIFT = 32;
    static final long SIXTEEN_BITS = 0xFFFF;

    /** Returned by {@link #tryAddWorking()} when processing is already at the goal. */
    static final int AT_GOAL = -1;

    private final PaddedLong word;

    ThreadCounts(int goal) {
        this.word = new PaddedLong((long) goal << GOAL_SHIFT);
    }

    // ---------------------------------------------------------------- decoding

    static int processing(long t) {
        return (int) (t & SIXTEEN_BITS);
    }

    static int existing(long t) {
        return (int) ((t >>> EXISTING_SHIFT) & SIXTEEN_BITS);
    }

    static int goal(long t) {
        return (int) ((t >>> GOAL_SHIFT) & SIXTEEN_BITS);
    }

    static long of(int processing, int existing, int goal) {
        return processing | ((long) existing << EXISTING_SHIFT) | ((long) goal << GOAL_SHIFT);
    }

    /** A volatile snapshot of the word. */
    long snapshot() {
        return word.value;
    }

    // ---------------------------------------------------------------- transitions

    /**
     * Raises processing by one if it is below the goal, and existing to at least the new
     * processing.
     *
     * @return how many threads the caller must create (existing's rise), or {@link #AT_GOAL}
     */
    int tryAddWorking() {
        long t;
        int processing;
        int existing;
        int newExisting;
        for (;;) {
            t = word.value;
            processing = processing(t);
            if (processing >= goal(t)) {
                return AT_GOAL;
            }
            existing = existing(t);
            newExisting = Math.max(existing, processing + 1);
            if (word.compareAndSet(t, of(processing + 1, newExisting, goal(t)))) {
                break;
            }
        }
        return newExisting - existing;
    }

    /** Adds the deltas to processing and existing (neither goes below zero); returns the new word. */
    long update(int processingDelta, int existingDelta) {
        for (;;) {
            long t = word.value;
            int processing = processing(t) + processingDelta;
            int existing = existing(t) + existingDelta;
            assert processing >= 0 && existing >= 0 : "thread counts underflow: " + t;
            long next = of(Math.max(0, processing), Math.max(0, existing), goal(t));
            if (word.compareAndSet(t, next)) {
                return next;
            }
        }
    }

    /**
     * An idle worker timed out: lowers existing by one, and the goal to no more than the new
     * existing (nor less than {@code minWorkers}), unless every existing worker is processing.
     *
     * @return true if the worker may exit
     */
    boolean tryRetireIdle(int minWorkers) {
        for (;;) {
            long t = word.value;
            int existing = existing(t);
            if (existing <= processing(t)) {
                return false;
            }
            int newGoal = Math.max(minWorkers, Math.min(existing - 1, goal(t)));
            if (word.compareAndSet(t, of(processing(t), existing - 1, newGoal))) {
                return true;
            }
        }
    }

    /** Starvation: raises the goal by one if it is below {@code maxWorkers} and processing has reached it. */
    void raiseGoal(int maxWorkers) {
        for (;;) {
            long t = word.value;
            int goal = goal(t);
            if (goal >= maxWorkers || processing(t) < goal) {
                break;
            }
            if (word.compareAndSet(t, of(processing(t), existing(t), goal + 1))) {
                break;
            }
        }
    }

    /**
     * The pool is drained: every existing worker gets a processing slot.
     *
     * @return how many slots were added (semaphore signals the caller must release); 0 or less if none
     */
    int claimAllForExit() {
        int toRelease;
        for (;;) {
            long t = word.value;
            toRelease = existing(t) - processing(t);
            if (toRelease <= 0 || word.compareAndSet(t, of(existing(t), existing(t), goal(t)))) {
                break;
            }
        }
        return toRelease;
    }

    /**
     * At termination, when no worker exists and none can be created: drops the processing slots still
     * counted for wake-ups that no worker took (a worker that exits at its drained check, or a slot
     * re-added for a request as the last worker died), so a terminated pool reads processing 0.
     */
    void clearProcessing() {
        for (;;) {
            long t = word.value;
            if (processing(t) == 0 || word.compareAndSet(t, of(0, existing(t), goal(t)))) {
                return;
            }
        }
    }
}
