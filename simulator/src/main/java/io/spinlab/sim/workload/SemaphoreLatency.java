package io.spinlab.sim.workload;

import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SpinPerf's SemaphoreSlimLatency: N waiters acquire a {@link SemaphoreSlim} that starts empty;
 * one releaser releases a single permit and watches (ticking) until a waiter has taken it, then
 * releases the next. Score: acquisitions per ms, the inverse of the time from a release to the
 * acquisition that takes it. Waiters that spin with fine granularity catch a permit quickly;
 * waiters that block pay a wake-up each.
 *
 * <p>With {@code delay}, the releaser busy-waits that long before each release. At the end
 * one permit per waiter is released so that every waiter wakes and stops.
 */
public final class SemaphoreLatency extends WindowedWorkload {

    public static final String NAME = "semaphore-latency";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "a releaser hands one permit at a time to N waiting acquirers; acquisitions/ms",
            parameterList(DELAY), p -> new SemaphoreLatency(p.threads("threads"), p.nanos("delay"), p.window()));

    private final long delayBeforeReleaseNanos;

    /**
     * @param waiters                 acquiring threads
     * @param delayBeforeReleaseNanos busy delay before each release, 0 for none
     * @param window                  warm-up and measured window
     */
    public SemaphoreLatency(ThreadCount waiters, long delayBeforeReleaseNanos, Window window) {
        super(waiters, window);
        this.delayBeforeReleaseNanos = Durations.check("delay", delayBeforeReleaseNanos);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("delay", Durations.format(delayBeforeReleaseNanos));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int waiters = threads().resolve(context.processorCount());
        SemaphoreSlim semaphore = new SemaphoreSlim(context, 0);
        MeasuredRun run = new MeasuredRun(context, window(), waiters + 1);
        run.metric("threads", waiters);
        for (int w = 0; w < waiters; w++) {
            run.start("waiter-" + w, slot -> {
                while (run.running()) {
                    semaphore.acquire();
                    if (!run.running()) {
                        return;
                    }
                    run.count(slot);
                }
            });
        }
        run.start("releaser", slot -> {
            while (run.running()) {
                if (delayBeforeReleaseNanos > 0) {
                    Work.busy(platform, delayBeforeReleaseNanos);
                }
                semaphore.release();
                while (semaphore.currentCount() > 0 && run.running()) {
                    run.tick();
                }
            }
        });
        return run.measure(this, () -> semaphore.release(waiters));
    }
}
