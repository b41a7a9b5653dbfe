package io.spinlab.sim.workload;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SpinPerf's SpinLockThroughput: N threads enter an anonymous {@link SpinLock}, tick once
 * inside, exit, tick once outside, as fast as they can. Score: acquisitions per ms of a
 * saturated lock; the {@code spinlock} knob decides how contenders back off.
 */
public final class SpinLockThroughput extends WindowedWorkload {

    public static final String NAME = "spinlock-throughput";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads enter and exit a spin lock as fast as they can; acquisitions/ms",
            parameterList(), p -> new SpinLockThroughput(p.threads("threads"), p.window()));

    /**
     * @param threads contending threads
     * @param window  warm-up and measured window
     */
    public SpinLockThroughput(ThreadCount threads, Window window) {
        super(threads, window);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        return new LinkedHashMap<>();
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        return contend(this, context, 0);
    }

    /** N threads: enter, busy {@code holdNanos} (a tick if 0), exit, count, tick. */
    static WorkloadResult contend(WindowedWorkload workload, SpinContext context, long holdNanos)
            throws InterruptedException {
        Platform platform = context.platform();
        int threads = workload.threads().resolve(context.processorCount());
        SpinLock lock = new SpinLock(context, false);
        MeasuredRun run = new MeasuredRun(context, workload.window(), threads);
        run.metric("threads", threads);
        for (int t = 0; t < threads; t++) {
            run.start("worker-" + t, slot -> {
                while (run.running()) {
                    lock.enter();
                    Work.busy(platform, holdNanos);
                    lock.exit();
                    run.count(slot);
                }
            });
        }
        return run.measure(workload, () -> { });
    }
}
