package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The harness every windowed workload shares: it starts the workload's threads, each with a
 * padded operation counter of its own, lets them run through the warm-up, counts what they do
 * in the measured window, then asks them to stop and waits for them.
 *
 * <pre>{@code
 * MeasuredRun run = new MeasuredRun(context, window, threads);
 * for (int i = 0; i < threads; i++) {
 *     run.start("worker-" + i, slot -> { while (run.running()) { ...; run.counters().increment(slot); } });
 * }
 * return run.measure(this, () -> { ... release whoever may be blocked ... });
 * }</pre>
 *
 * <p>The controller is the thread that calls {@link #measure}: it waits through the warm-up,
 * reads the clock and the counters, waits through the window, reads them again, then clears
 * {@link #running()}, runs the workload's release action (set the event for good, release
 * permits, ...) so that no thread stays blocked, and joins every thread. Workers must check
 * {@link #running()} at least once per operation and must make a {@code Platform} call per
 * iteration (see {@link Work}).
 */
public final class MeasuredRun {
    /*
     * Implementation notes
     *
     * Memory ordering: `stopped` is volatile; the workers' loop checks are plain volatile reads.
     * The counters are opaque (see OpCounters); the measured interval is bracketed by clock
     * reads on the controller.
     *
     * Why a controller that sleeps rather than a fixed operation count: the score is
     * operations per ms whatever the rate, and the simulated cost of a row is bounded by its
     * virtual duration, as in the published harness (a timed run with per-thread counters).
     */

    /** How long the controller waits for the threads to finish after the window, on the platform's clock. */
    private static final long JOIN_TIMEOUT_SECONDS = 120;

    /** A worker's body; {@code slot} is its counter in {@link #counters()}. */
    @FunctionalInterface
    public interface Body {
        void run(int slot) throws Exception;
    }

    private final Platform platform;
    private final Window window;
    private final OpCounters counters;
    private final WorkerGroup group;
    private final Map<String, Double> metrics = new LinkedHashMap<>();
    private int started;
    private volatile boolean stopped;

    /** A run of {@code threads} threads measured over {@code window}. */
    public MeasuredRun(SpinContext context, Window window, int threads) {
        Objects.requireNonNull(context, "context");
        this.platform = context.platform();
        this.window = Objects.requireNonNull(window, "window");
        this.counters = new OpCounters(threads);
        this.group = new WorkerGroup(context, threads);
    }

    /** The per-thread operation counters, one per started thread in start order. */
    public OpCounters counters() {
        return counters;
    }

    /** False once the window is over: workers finish their operation and return. */
    public boolean running() {
        return !stopped;
    }

    /** Starts the next thread; its counter is the next slot. Call from the controller only. */
    public void start(String name, Body body) {
        int slot = started++;
        group.start(name, () -> body.run(slot));
    }

    /** Adds a figure to the result (e.g. {@code threads}); reported by {@link WorkloadResult#metrics()}. */
    public void metric(String name, double value) {
        metrics.put(name, value);
    }

    /**
     * Runs the controller on the calling thread: warm-up, measured window, stop, release, join.
     *
     * @param workload what runs, for the result
     * @param release  run once after {@link #running()} turned false, to unblock waiting threads
     * @return the operations counted in the window and the window's measured length
     * @throws IllegalStateException if a thread failed or did not finish after the release
     */
    public WorkloadResult measure(Workload workload, Runnable release) throws InterruptedException {
        sleep(window.warmupNanos());
        long t0 = platform.nanoTime();
        long before = counters.sum();
        sleep(window.measureNanos());
        long after = counters.sum();
        long t1 = platform.nanoTime();
        stopped = true;
        release.run();
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new WorkloadResult(workload.name(), workload.parameters(), platform.toString(), after - before,
                t1 - t0, metrics);
    }

    /**
     * Waits {@code nanos} with timed parks rather than a sleep: a sleep rounds up to the timer
     * granularity (1.06 ms on Linux profiles, 15.6 ms on Windows ones), which would make short
     * simulated windows impossible; a timed park (a futex wait) does not. Spurious returns
     * park again for the rest.
     */
    private void sleep(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long end = platform.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - platform.nanoTime()) {
            platform.parkNanos(this, left);
        }
    }
}
