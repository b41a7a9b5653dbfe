package io.spinlab.junit.guest;

import java.util.concurrent.locks.LockSupport;

/**
 * The measuring loop of {@link io.spinlab.junit.Measure}, loaded as guest code so that its flag
 * reads are costed scheduling points like the user's own: workers repeat the operation until the
 * window is over, counting the operations that complete while it is open; the controller opens
 * and closes it on the virtual clock. Not for direct use.
 */
public final class OperationLoop {
    /*
     * Implementation notes
     *
     * The flags are read once per operation: a volatile load that hits in the worker's cache
     * except when the controller has just written it, as in a JMH harness. The per-thread
     * counts are plain array slots, each written by its own thread only and read after the run.
     * The controller sleeps with timed parks on the virtual clock; with more threads than
     * processors it may wake late, and the rate divides by the interval it actually measured.
     *
     * The window's halves: at the window's midpoint the controller sums the measured counts so far
     * (plain reads of plain slots: only one simulated thread runs at a time, so it reads exactly what
     * the workers have counted, and the reads are not scheduling points); the second half is the rest.
     * Each half's rate divides by the time it actually lasted. A worker stores its count on every
     * measured operation so that the sum is current: a plain store, a few bytecodes.
     */

    private final long[] measured;
    private final long[] total;
    private volatile boolean measuring;
    private volatile boolean done;
    private long windowNanos;
    private long firstHalfOperations;
    private long firstHalfNanos;

    public OperationLoop(int threads) {
        this.measured = new long[threads];
        this.total = new long[threads];
    }

    /** The body of worker {@code index}. */
    public void work(int index, Runnable operation) {
        long counted = 0;
        long all = 0;
        while (!done) {
            operation.run();
            all++;
            if (measuring) {
                measured[index] = ++counted;
            }
        }
        measured[index] = counted;
        total[index] = all;
    }

    /** The controller: {@code warmupNanos} unmeasured, then the window; ends the workers. */
    public void control(long warmupNanos, long windowNanos) {
        waitFor(warmupNanos);
        long start = System.nanoTime();
        measuring = true;
        waitFor(windowNanos / 2);
        long middle = System.nanoTime();
        this.firstHalfOperations = measuredOperations();
        this.firstHalfNanos = middle - start;
        waitFor(windowNanos - windowNanos / 2);
        measuring = false;
        this.windowNanos = System.nanoTime() - start;
        done = true;
    }

    private static void waitFor(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Operations completed inside the window, all threads. */
    public long measuredOperations() {
        long sum = 0;
        for (long m : measured) {
            sum += m;
        }
        return sum;
    }

    /** Operations completed over the whole run, all threads. */
    public long totalOperations() {
        long sum = 0;
        for (long t : total) {
            sum += t;
        }
        return sum;
    }

    /**
     * The rate of the window's second half over that of its first (operations per ns in each, as each half
     * actually lasted): above 1 the rate rose inside the window, below 1 it fell; NaN if the first half
     * counted nothing.
     */
    public double halvesRatio() {
        long second = measuredOperations() - firstHalfOperations;
        long secondNanos = windowNanos - firstHalfNanos;
        if (firstHalfOperations == 0 || firstHalfNanos <= 0 || secondNanos <= 0) {
            return Double.NaN;
        }
        return ((double) second / secondNanos) / ((double) firstHalfOperations / firstHalfNanos);
    }

    /** The measured window's length, ns of virtual time. */
    public long windowNanos() {
        return windowNanos;
    }
}
