package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the contended-line loops of {@code calibrate}'s checks share ({@link ContendedCasLoop},
 * {@link ContendedRingLoop}, {@link LineHandover}): N threads released at once by one event, each
 * running its loop and counting what it lost, timed from the first thread's start to the last one's
 * end, and the counts summed (the longest losing run the longest of any thread).
 */
final class ContendedThreads {

    private static final long JOIN_TIMEOUT_SECONDS = 600;

    private ContendedThreads() {
    }

    /** One thread's loop. */
    @FunctionalInterface
    interface Loop {
        /** Runs thread {@code index}'s loop to its end and returns what it counted. */
        Counts run(int index);
    }

    /**
     * What one thread counted.
     *
     * @param failures         attempts that lost a race
     * @param ownerChanges     attempts that found the line last written by another thread
     * @param longestLosingRun the most attempts lost in a row before one won
     */
    record Counts(long failures, long ownerChanges, long longestLosingRun) {
        static final Counts NONE = new Counts(0, 0, 0);
    }

    /**
     * Runs {@code threads} threads named {@code prefix-i} through {@code loop} and returns {@code workload}'s
     * result: {@code operations} in the time from the first thread's start to the last one's end, and the
     * summed counts as {@link ContendedCasLoop#FAILURES}, {@link ContendedCasLoop#OWNER_CHANGES} and
     * {@link ContendedCasLoop#LONGEST_LOSING_RUN}. {@code check} runs after every thread has ended.
     */
    static WorkloadResult run(SpinContext context, Workload workload, String prefix, int threads, long operations,
            Loop loop, Runnable check) throws InterruptedException {
        Platform platform = context.platform();
        long[] begin = new long[threads];
        long[] end = new long[threads];
        Counts[] counts = new Counts[threads];
        ManualResetEvent start = new ManualResetEvent(context);
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int t = 0; t < threads; t++) {
            int index = t;
            group.start(prefix + "-" + t, () -> {
                start.await();
                begin[index] = platform.nanoTime();
                counts[index] = loop.run(index);
                end[index] = platform.nanoTime();
            });
        }
        start.set();
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        check.run();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long failed = 0;
        long changes = 0;
        long longestLosing = 0;
        for (int t = 0; t < threads; t++) {
            first = Math.min(first, begin[t]);
            last = Math.max(last, end[t]);
            failed += counts[t].failures();
            changes += counts[t].ownerChanges();
            longestLosing = Math.max(longestLosing, counts[t].longestLosingRun());
        }
        return new WorkloadResult(workload.name(), workload.parameters(), platform.toString(), operations,
                last - first, Map.of(ContendedCasLoop.FAILURES, (double) failed, ContendedCasLoop.OWNER_CHANGES,
                        (double) changes, ContendedCasLoop.LONGEST_LOSING_RUN, (double) longestLosing));
    }
}
