package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SpinPerf's SpinLockLatency: N threads take turns holding an anonymous {@link SpinLock} for
 * {@code hold} (1 µs by default) each, so that the others are in their slow path (spinning,
 * yielding, sleeping) when it is released. Score: acquisitions per ms, at most one per
 * {@code hold}; what it loses to that bound is the time the next owner takes to notice the
 * release, which depends on how coarsely contenders spin ({@code spinlock} knob, PAUSE cost).
 */
public final class SpinLockLatency extends WindowedWorkload {

    public static final String NAME = "spinlock-latency";

    static final WorkloadType.Parameter HOLD = new WorkloadType.Parameter("hold", "1us",
            "busy time inside the lock; 0 = one tick");

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads take turns holding a spin lock for a fixed time; acquisitions/ms",
            parameterList(HOLD), p -> new SpinLockLatency(p.threads("threads"), p.nanos("hold"), p.window()));

    private final long holdNanos;

    /**
     * @param threads   contending threads
     * @param holdNanos busy time inside the lock, 0 for one tick
     * @param window    warm-up and measured window
     */
    public SpinLockLatency(ThreadCount threads, long holdNanos, Window window) {
        super(threads, window);
        this.holdNanos = Durations.check("hold", holdNanos);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("hold", Durations.format(holdNanos));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        return SpinLockThroughput.contend(this, context, holdNanos);
    }
}
