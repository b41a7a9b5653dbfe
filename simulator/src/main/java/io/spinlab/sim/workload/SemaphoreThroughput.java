package io.spinlab.sim.workload;

import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * SpinPerf's SemaphoreSlimThroughput: N threads each acquire a {@link SemaphoreSlim} holding
 * {@code permits} permits, work for {@code hold} (one tick when 0), release it, tick, and
 * repeat. Score: acquire-release pairs per ms. With fewer permits than threads, acquirers spin
 * and block; the release path wakes them.
 */
public final class SemaphoreThroughput extends WindowedWorkload {

    public static final String NAME = "semaphore-throughput";

    static final WorkloadType.Parameter PERMITS = new WorkloadType.Parameter("permits", "0.5pc",
            "permits the semaphore holds, a multiple of the processor count or absolute (at least 1)");
    static final WorkloadType.Parameter HOLD = new WorkloadType.Parameter("hold", "0",
            "busy time while holding a permit; 0 = one tick");

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads acquire, hold, release a semaphore with fewer permits than threads; pairs/ms",
            parameterList(PERMITS, HOLD),
            p -> new SemaphoreThroughput(p.threads("threads"), p.threads("permits"), p.nanos("hold"), p.window()));

    private final ThreadCount permits;
    private final long holdNanos;

    /**
     * @param threads   acquiring threads
     * @param permits   permits in the semaphore
     * @param holdNanos busy time while holding a permit, 0 for one tick
     * @param window    warm-up and measured window
     */
    public SemaphoreThroughput(ThreadCount threads, ThreadCount permits, long holdNanos, Window window) {
        super(threads, window);
        this.permits = Objects.requireNonNull(permits, "permits");
        this.holdNanos = Durations.check("hold", holdNanos);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("permits", permits.toString());
        s.put("hold", Durations.format(holdNanos));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int threads = threads().resolve(context.processorCount());
        int count = permits.resolve(context.processorCount());
        SemaphoreSlim semaphore = new SemaphoreSlim(context, count);
        MeasuredRun run = new MeasuredRun(context, window(), threads);
        run.metric("threads", threads);
        run.metric("permits", count);
        for (int t = 0; t < threads; t++) {
            run.start("worker-" + t, slot -> {
                while (run.running()) {
                    semaphore.acquire();
                    Work.busy(platform, holdNanos);
                    semaphore.release();
                    run.count(slot);
                }
            });
        }
        return run.measure(this, () -> { });
    }
}
