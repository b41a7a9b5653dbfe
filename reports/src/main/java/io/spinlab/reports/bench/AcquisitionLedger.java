package io.spinlab.reports.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-thread acquisition counts of the current iteration, handed from the benchmark threads (at
 * their {@code Level.Iteration} tear-down) to {@link CostProfiler} (after the iteration), in the
 * benchmark's fork. JMH gives a benchmark no other way to report a per-thread figure: its
 * auxiliary counters are summed over threads, which hides exactly the spread a fairness figure
 * needs.
 */
public final class AcquisitionLedger {

    private static final List<Long> COUNTS = new ArrayList<>();

    private AcquisitionLedger() {
    }

    /** Records one thread's acquisitions in the iteration that just ended. */
    public static void record(long acquisitions) {
        synchronized (COUNTS) {
            COUNTS.add(acquisitions);
        }
    }

    /** The counts recorded since the last call, and forgets them. */
    static List<Long> drain() {
        synchronized (COUNTS) {
            List<Long> counts = List.copyOf(COUNTS);
            COUNTS.clear();
            return counts;
        }
    }

    /**
     * The fewest over the most acquisitions: 1 when every thread acquired as often, 0 when one
     * starved; NaN with fewer than two counts or none acquired.
     */
    static double fairness(List<Long> counts) {
        if (counts.size() < 2) {
            return Double.NaN;
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long count : counts) {
            min = Math.min(min, count);
            max = Math.max(max, count);
        }
        return max == 0 ? Double.NaN : (double) min / max;
    }

    /**
     * Thread-scoped JMH state that counts one thread's acquisitions per iteration and records them
     * in the ledger; a benchmark method calls {@link #acquired()} once per acquisition.
     */
    @State(Scope.Thread)
    public static class PerThread {
        private long acquisitions;

        @Setup(Level.Iteration)
        public void reset() {
            acquisitions = 0;
        }

        /** Counts one acquisition by this thread. */
        public void acquired() {
            acquisitions++;
        }

        @TearDown(Level.Iteration)
        public void publish() {
            record(acquisitions);
        }
    }
}
