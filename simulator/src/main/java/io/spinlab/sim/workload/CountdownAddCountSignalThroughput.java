package io.spinlab.sim.workload;

import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.spin.SpinContext;

/**
 * SpinPerf's CountdownEventAddCountSignalThroughput: N threads each raise the count of one
 * shared {@link CountdownEvent} by one and signal it back down, with a tick after each. The
 * count starts at 1 so it never reaches zero. Score: add-signal pairs per ms; a CAS that loses
 * a race backs off with SpinWait, so the PAUSE meaning shows under contention.
 */
public final class CountdownAddCountSignalThroughput extends WindowedWorkload {

    public static final String NAME = "countdown-addcount-signal-throughput";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads add one to a countdown event's count and signal it; add-signal pairs/ms",
            parameterList(), p -> new CountdownAddCountSignalThroughput(p.threads("threads"), p.window()));

    /**
     * @param threads adding and signalling threads
     * @param window  warm-up and measured window
     */
    public CountdownAddCountSignalThroughput(ThreadCount threads, Window window) {
        super(threads, window);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        int threads = threads().resolve(context.processorCount());
        CountdownEvent countdown = new CountdownEvent(context, 1);
        MeasuredRun run = new MeasuredRun(context, window(), threads);
        run.metric("threads", threads);
        for (int t = 0; t < threads; t++) {
            run.start("worker-" + t, slot -> {
                while (run.running()) {
                    countdown.addCount();
                    run.tick();
                    countdown.signal();
                    run.count(slot);
                }
            });
        }
        return run.measure(this, () -> { });
    }
}
