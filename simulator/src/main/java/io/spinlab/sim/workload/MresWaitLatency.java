package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SpinPerf's MresWaitLatency: one setter sets and resets one {@link ManualResetEvent} in a tight
 * loop (a tick between the set and the reset, and after the reset: see {@link Work}); N waiters
 * wait on it and count each successful wait. Score: successful waits per ms. It favours light
 * spinning with little delay between checks: a waiter sees the event only if it looks while it
 * is set (dotnet/coreclr #13556: 1,311 → 8,461 at 0.5 × processors on a Core i7-6700 once the
 * processor-count multiply was removed).
 *
 * <p>With {@code delay}, the setter busy-waits that long before each set (the published 1 µs
 * variant). At the end the setter leaves the event set, so that every waiter passes and stops.
 */
public final class MresWaitLatency extends WindowedWorkload {

    public static final String NAME = "mres-wait-latency";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "one setter sets and resets an event in a tight loop; N waiters count successful waits; waits/ms",
            parameterList(DELAY), p -> new MresWaitLatency(p.threads("threads"), p.nanos("delay"), p.window()));

    private final long delayBeforeSetNanos;

    /**
     * @param waiters             waiting threads
     * @param delayBeforeSetNanos busy delay before each set, 0 for none
     * @param window              warm-up and measured window
     */
    public MresWaitLatency(ThreadCount waiters, long delayBeforeSetNanos, Window window) {
        super(waiters, window);
        this.delayBeforeSetNanos = Durations.check("delay", delayBeforeSetNanos);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("delay", Durations.format(delayBeforeSetNanos));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int waiters = threads().resolve(context.processorCount());
        ManualResetEvent event = new ManualResetEvent(context);
        MeasuredRun run = new MeasuredRun(context, window(), waiters + 1);
        run.metric("threads", waiters);
        for (int w = 0; w < waiters; w++) {
            run.start("waiter-" + w, slot -> {
                while (run.running()) {
                    event.await();
                    run.count(slot);
                }
            });
        }
        run.start("setter", slot -> {
            while (run.running()) {
                if (delayBeforeSetNanos > 0) {
                    Work.busy(platform, delayBeforeSetNanos);
                }
                event.set();
                run.tick();
                event.reset();
                run.tick();
            }
            event.set();
        });
        return run.measure(this, event::set);
    }
}
