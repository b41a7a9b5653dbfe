package io.spinlab.impl.platform;

import io.spinlab.model.platform.Platform;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Platform} of real hardware: real threads, the real clock, the real PAUSE.
 *
 * <p>This is the one class in {@code impl} allowed to call {@code Thread.onSpinWait},
 * {@code Thread.yield}, {@code Thread.sleep}, {@code LockSupport} and {@code System.nanoTime}
 * (an architecture test enforces it). It holds no state but the processor count read at start-up;
 * use {@link #INSTANCE}. With only this implementation loaded every call site is monomorphic and
 * the JIT inlines through the seam (the {@code SeamCostBenchmark} in {@code reports} measures it).
 */
public final class HardwarePlatform implements Platform {
    /*
     * Implementation notes
     *
     * The processor count is read once, when the class initializes, as .NET reads
     * Environment.ProcessorCount once and keeps it. Runtime.availableProcessors() asks the
     * operating system each time (on Linux sched_getaffinity, or the cgroup limits, a system
     * call), and the primitives ask on their hot paths: the per-item thread request of the pool
     * asks once per queued work item. Profiled on real threads on the 2-vCPU development host
     * (pool-batch, netcore2.0, 3 s with JFR, 2026-12-06) that call was the most sampled frame of
     * the run, 38 of the 130 samples in spinlab's code. A process whose affinity changes later
     * keeps the count it started with, as a .NET process does.
     */

    /** Parks one sleep may take to reach its deadline. */
    static final int MAX_PARKS_PER_SLEEP = 4;

    /** The single instance. */
    public static final HardwarePlatform INSTANCE = new HardwarePlatform();

    /** The logical processors this process may run on, read once at start-up. */
    private final int processors = Runtime.getRuntime().availableProcessors();

    private HardwarePlatform() {
    }

    @Override
    public int processorCount() {
        return processors;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void pause(int count) {
        for (int i = 0; i < count; i++) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void yieldThread() {
        Thread.yield();
    }

    @Override
    public void sleep(long nanos) {
        if (nanos <= 0) {
            // Sleep(0): give up the rest of the slice. The JVM's nearest equivalent is a yield.
            Thread.yield();
            return;
        }
        // parkNanos rather than Thread.sleep: interruption must not be swallowed or thrown here;
        // a pending interrupt ends the sleep early and the caller's loop sees the flag. A stale
        // unpark permit or a spurious wake-up must not: park again until the time has passed.
        // A few re-parks absorb a stale permit and a spurious wake-up; the bound keeps a tool that
        // virtualizes time (a model checker's frozen clock) from turning this into a busy loop.
        long deadline = System.nanoTime() + nanos;
        long remaining = nanos;
        for (int parks = 0; parks < MAX_PARKS_PER_SLEEP && remaining > 0
                && !Thread.currentThread().isInterrupted(); parks++) {
            LockSupport.parkNanos(this, remaining);
            remaining = deadline - System.nanoTime();
        }
    }

    @Override
    public void park(Object blocker) {
        LockSupport.park(blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        if (nanos > 0) {
            LockSupport.parkNanos(blocker, nanos);
        }
    }

    @Override
    public void unpark(Thread thread) {
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @Override
    public int nextRandom(int bound) {
        return ThreadLocalRandom.current().nextInt(bound);
    }

    @Override
    public String toString() {
        return "hardware";
    }
}
