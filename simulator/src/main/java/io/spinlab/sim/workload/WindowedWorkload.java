package io.spinlab.sim.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The common shape of the SpinPerf-style workloads: a {@link ThreadCount} of threads, some
 * workload-specific settings, and a measured {@link Window}. Subclasses say what the threads do;
 * this class keeps the parameter text canonical: {@code threads=...,<settings>,warmup=...,window=...},
 * which {@link Workloads#create} reads back into an equal workload.
 */
public abstract class WindowedWorkload extends DescribedWorkload {

    /** The {@code threads} parameter: a multiple of the processor count or an absolute count. */
    static final WorkloadType.Parameter THREADS = new WorkloadType.Parameter("threads", "1pc",
            "threads as a multiple of the processor count (0.5pc, 1pc, 2pc, 4pc, 16pc, 64pc) or an absolute count");
    /** The {@code delay} parameter of the setter/releaser workloads. */
    static final WorkloadType.Parameter DELAY = new WorkloadType.Parameter("delay", "0",
            "busy delay before each set or release (the published 1 µs variant: delay=1us); 0 for none");
    /** The {@code warmup} parameter. */
    static final WorkloadType.Parameter WARMUP = new WorkloadType.Parameter("warmup", "1ms",
            "unmeasured time before the window (ns, us, ms, s)");
    /** The {@code window} parameter. */
    static final WorkloadType.Parameter WINDOW = new WorkloadType.Parameter("window", "5ms",
            "measured time (ns, us, ms, s), more than 0");

    private final ThreadCount threads;
    private final Window window;

    protected WindowedWorkload(ThreadCount threads, Window window) {
        this.threads = Objects.requireNonNull(threads, "threads");
        this.window = Objects.requireNonNull(window, "window");
    }

    /** How many threads this workload's main role runs (waiters, contenders, participants). */
    public ThreadCount threads() {
        return threads;
    }

    public Window window() {
        return window;
    }

    /** The workload-specific settings between {@code threads} and {@code warmup}, in order; may be empty. */
    protected Map<String, String> settings() {
        return new LinkedHashMap<>();
    }

    @Override
    public final String parameters() {
        List<String> parts = new ArrayList<>();
        parts.add("threads=" + threads);
        settings().forEach((k, v) -> parts.add(k + "=" + v));
        parts.add(window.parameters());
        return String.join(",", parts);
    }

    /** The parameter list of a workload with extra settings between threads and the window. */
    static List<WorkloadType.Parameter> parameterList(WorkloadType.Parameter... settings) {
        List<WorkloadType.Parameter> all = new ArrayList<>();
        all.add(THREADS);
        all.addAll(List.of(settings));
        all.add(WARMUP);
        all.add(WINDOW);
        return all;
    }
}
