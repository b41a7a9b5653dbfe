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
     */

    private final long[] measured;
    private final long[] total;
    private volatile boolean measuring;
    private volatile boolean done;
    private long windowNanos;

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
                counted++;
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
        waitFor(windowNanos);
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

    /** The measured window's length, ns of virtual time. */
    public long windowNanos() {
        return windowNanos;
    }
}
