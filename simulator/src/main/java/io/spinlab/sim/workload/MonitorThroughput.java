package io.spinlab.sim.workload;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A contended {@link MonitorLock} (a .NET {@code lock} statement): N threads enter, work for
 * {@code hold} (one tick when 0), exit, tick once outside, and come straight back. Score:
 * acquisitions per ms. Under the legacy {@code monitor=convoy} handoff every release with a
 * waiter hands the lock to a thread that must first wake up, while the releaser, back a tick
 * later, must queue behind it: a lock convoy (dotnet/coreclr #13978). {@code barging} lets
 * the arriving thread take the free lock.
 *
 * <p>Not part of the published SpinPerf suite; the workload of the {@code monitor-convoy}
 * experiment.
 */
public final class MonitorThroughput extends WindowedWorkload {

    public static final String NAME = "monitor-throughput";

    static final WorkloadType.Parameter HOLD = new WorkloadType.Parameter("hold", "0",
            "busy time inside the lock; 0 = one tick");

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads enter and exit a monitor lock as fast as they can; acquisitions/ms",
            parameterList(HOLD), p -> new MonitorThroughput(p.threads("threads"), p.nanos("hold"), p.window()));

    private final long holdNanos;

    /**
     * @param threads   contending threads
     * @param holdNanos busy time inside the lock, 0 for one tick
     * @param window    warm-up and measured window
     */
    public MonitorThroughput(ThreadCount threads, long holdNanos, Window window) {
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
        Platform platform = context.platform();
        int threads = threads().resolve(context.processorCount());
        MonitorLock lock = new MonitorLock(context);
        MeasuredRun run = new MeasuredRun(context, window(), threads);
        run.metric("threads", threads);
        for (int t = 0; t < threads; t++) {
            run.start("worker-" + t, slot -> {
                while (run.running()) {
                    lock.enter();
                    try {
                        Work.busy(platform, holdNanos);
                    } finally {
                        lock.exit();
                    }
                    run.count(slot);
                }
            });
        }
        return run.measure(this, () -> { });
    }
}
