package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The harness every windowed workload shares: it starts the workload's threads, each with a
 * padded operation counter of its own, counts what they do inside the measured window, ends
 * the run when the window is over, and waits for them.
 *
 * <pre>{@code
 * MeasuredRun run = new MeasuredRun(context, window, threads);
 * for (int i = 0; i < threads; i++) {
 *     run.start("worker-" + i, slot -> { while (run.running()) { ...one operation...; run.count(slot); } });
 * }
 * return run.measure(this, () -> { ...release whoever may still be blocked... });
 * }</pre>
 *
 * <p>Time is read by the threads themselves: {@link #count} and {@link #tick} read the clock
 * (that read is the workload's unit of work, see {@link Work}); an operation counts if it
 * completes inside the window, and the first thread that reads a time past the window ends
 * the run ({@link #running()} turns false). The controller, the thread that calls
 * {@link #measure}, opens the window once every thread has started, waits until it is over,
 * ends the run itself if no thread has, runs the workload's release action (set the event for
 * good, release permits, ...) so that no thread stays blocked, and joins every thread.
 *
 * <p>Workers must check {@link #running()} at least once per operation and call {@link #count}
 * or {@link #tick} at least once per iteration.
 */
public final class MeasuredRun {
    /*
     * Implementation notes
     *
     * Why the workers read the time, not only the controller: with more runnable threads than
     * processors (16 × processors and up) a controller that wakes at the end of the window
     * must queue for a processor behind every busy thread, a full time slice each. The window
     * would stretch to hundreds of ms, and in the simulator its cost with it. Threads that
     * stop themselves at the window's end bound a run to warm-up + window on every platform.
     *
     * Memory ordering: windowStart/windowEnd are written once by the controller before `armed`
     * (volatile) is set; a worker reads `armed` first. `stopped` is volatile. The counters are
     * opaque (see OpCounters): every counted operation lies inside the window by its own
     * clock read, so the sum needs no snapshot.
     *
     * The window's announcement hands the platform the counters' sum: the simulator reads it at
     * the window's midpoint from its own thread (where it costs no virtual time), so that an
     * experiment can compare the window's two halves; the hardware ignores it.
     */

    /** How long the controller waits for the threads to finish after the window, on the platform's clock. */
    private static final long JOIN_TIMEOUT_SECONDS = 120;

    /** A worker's body; {@code slot} is its counter. */
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
    private long windowStart;
    private long windowEnd;
    private volatile boolean armed;
    private volatile boolean stopped;

    /** A run of {@code threads} threads measured over {@code window}, each counting in its own slot. */
    public MeasuredRun(SpinContext context, Window window, int threads) {
        // Not this(context, window, threads, threads): the harness's bytecode runs on the simulated clock
        // (the instruction clock), and every workload's trajectory would move by the extra instructions.
        Objects.requireNonNull(context, "context");
        this.platform = context.platform();
        this.window = Objects.requireNonNull(window, "window");
        this.counters = new OpCounters(threads);
        this.group = new WorkerGroup(context, threads);
    }

    /**
     * A run of {@code threads} threads measured over {@code window}, with {@code slots} ≥ {@code threads}
     * counters: the slots past the threads' own are for work that moves between threads (a pool's
     * work items), each slot counted by one thread at a time, the moves ordered by a happens-before edge.
     */
    public MeasuredRun(SpinContext context, Window window, int threads, int slots) {
        Objects.requireNonNull(context, "context");
        if (slots < threads) {
            throw new IllegalArgumentException("slots = " + slots + " for " + threads + " threads; allowed "
                    + threads + " or more");
        }
        this.platform = context.platform();
        this.window = Objects.requireNonNull(window, "window");
        this.counters = new OpCounters(slots);
        this.group = new WorkerGroup(context, threads);
    }

    /** False once the window is over: workers finish their operation and return. */
    public boolean running() {
        return !stopped;
    }

    /**
     * One unit of work: reads the clock, and ends the run if the window is over.
     *
     * @return the time read
     */
    public long tick() {
        long now = platform.nanoTime();
        if (armed && now - windowEnd >= 0) {
            stopped = true;
        }
        return now;
    }

    /** True if a clock reading {@code now} (from {@link #tick}) lies inside the measured window. */
    public boolean inWindow(long now) {
        return armed && now - windowStart >= 0 && now - windowEnd < 0;
    }

    /** Counts one operation of {@code slot}'s thread if it completes inside the window; a {@link #tick}. */
    public void count(int slot) {
        countAt(slot, tick(), 1);
    }

    /** Counts {@code n} operations of {@code slot}'s thread if they complete inside the window; a {@link #tick}. */
    public void count(int slot, long n) {
        countAt(slot, tick(), n);
    }

    /**
     * Counts {@code n} operations of {@code slot}'s thread if {@code now}, a time {@link #tick}
     * returned, lies inside the window; reads no clock (for a thread that ticks anyway and
     * counts only some of what it does).
     */
    public void countAt(int slot, long now, long n) {
        if (inWindow(now)) {
            counters.add(slot, n);
        }
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
     * Runs the controller on the calling thread, once every thread has been started: opens the
     * window (warm-up from now), waits until it is over, ends the run, runs {@code release},
     * joins.
     *
     * @param workload what runs, for the result
     * @param release  run once after {@link #running()} turned false, to unblock waiting threads
     * @return the operations counted in the window and the window's length
     * @throws IllegalStateException if a thread failed or did not finish after the release
     */
    public WorkloadResult measure(Workload workload, Runnable release) throws InterruptedException {
        long now = platform.nanoTime();
        windowStart = now + window.warmupNanos();
        windowEnd = windowStart + window.measureNanos();
        platform.measuredWindow(windowStart, windowEnd, counters::sum);
        armed = true;
        for (long left = windowEnd - now; left > 0 && !stopped; left = windowEnd - platform.nanoTime()) {
            platform.parkNanos(this, left);
        }
        stopped = true;
        release.run();
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new WorkloadResult(workload.name(), workload.parameters(), platform.toString(), counters.sum(),
                window.measureNanos(), metrics);
    }
}
