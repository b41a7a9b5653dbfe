package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * N threads each make S successful read-then-CAS increments of one shared word, the loop at the
 * heart of every lock-free counter, stack and queue. The word also carries the index of the thread
 * that wrote it last, so a thread sees when the word's cache line came to it from another: what
 * the coherence protocol does with a contended line shows in how many CASes a thread completes
 * before another takes the line, and how many it loses. Score: successes per ms, from the first
 * thread's start to the last one's end. Metrics: {@value #FAILURES} (CASes that lost a race) and
 * {@value #OWNER_CHANGES} (reads that found another thread's write), over all threads, and
 * {@value #LONGEST_LOSING_RUN} (the most CASes one thread lost in a row before it won one: how long
 * the line's arbitration can leave a loser losing).
 *
 * <p>{@code calibrate}'s check of the memory model's queued-request rule ({@code ContendedCasCheck}):
 * the same loop on real threads and in the simulator of the host's profile. Not one of the named
 * workloads: it has no spinning and no tuning to compare.
 */
public final class ContendedCasLoop implements Workload {

    /** Metric: CASes that failed, over all threads. */
    public static final String FAILURES = "failures";
    /** Metric: reads that found the word last written by another thread, over all threads. */
    public static final String OWNER_CHANGES = "ownerChanges";
    /** Metric: the most consecutive CASes any thread lost before it won one. */
    public static final String LONGEST_LOSING_RUN = "longestLosingRun";
    /** Most threads: the writer's index lives in the word's low bits. */
    public static final int MAX_THREADS = 64;

    private final int threads;
    private final int successesPerThread;

    /**
     * @param threads            threads, 1 to {@value #MAX_THREADS}
     * @param successesPerThread successful CASes each thread makes, 1 or more
     */
    public ContendedCasLoop(int threads, int successesPerThread) {
        if (threads < 1 || threads > MAX_THREADS || successesPerThread < 1) {
            throw new IllegalArgumentException("threads = " + threads + ", successes = " + successesPerThread
                    + "; allowed threads 1 to " + MAX_THREADS + " and successes 1 or more");
        }
        this.threads = threads;
        this.successesPerThread = successesPerThread;
    }

    @Override
    public String name() {
        return "contended-cas-loop";
    }

    @Override
    public String parameters() {
        return "threads=" + threads + ",successes=" + successesPerThread;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Word word = new Word();
        long successes = (long) threads * successesPerThread;
        return ContendedThreads.run(context, this, "cas", threads, successes, index -> {
            long failed = 0;
            long changes = 0;
            long losing = 0;
            long longestLosing = 0;
            for (int done = 0; done < successesPerThread; ) {
                long seen = word.value;
                if (seen != 0 && seen % MAX_THREADS != index) {
                    changes++;
                }
                if (Word.VALUE.compareAndSet(word, seen, (seen / MAX_THREADS + 1) * MAX_THREADS + index)) {
                    done++;
                    losing = 0;
                } else {
                    failed++;
                    longestLosing = Math.max(longestLosing, ++losing);
                }
            }
            return new ContendedThreads.Counts(failed, changes, longestLosing);
        }, () -> {
            if (word.value / MAX_THREADS != successes) {
                throw new IllegalStateException("count = " + word.value / MAX_THREADS + ", expected " + successes);
            }
        });
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The shared word: count × {@link #MAX_THREADS} + the index of its last writer. */
    static final class Word {
        volatile long value;

        // VarHandle mechanics
        static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Word.class, "value", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
