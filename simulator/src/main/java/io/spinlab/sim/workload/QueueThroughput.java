package io.spinlab.sim.workload;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.spin.SpinContext;

/**
 * SpinPerf's ConcurrentQueueThroughput: N threads each offer an element to one shared
 * {@link ConcurrentQueue} and poll one, with a tick after each operation. Score: successful
 * operations (offers plus non-empty polls) per ms.
 *
 * <p>In the simulator, without its memory model, a CAS costs nothing and never loses a race
 * (code between two Platform calls runs atomically), so this workload measures mostly the
 * ticks; see the experiments notes.
 */
public final class QueueThroughput extends WindowedWorkload {

    public static final String NAME = "queue-throughput";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads offer to and poll from one concurrent queue; operations/ms",
            parameterList(), p -> new QueueThroughput(p.threads("threads"), p.window()));

    private static final Object ELEMENT = new Object();

    /**
     * @param threads offering and polling threads
     * @param window  warm-up and measured window
     */
    public QueueThroughput(ThreadCount threads, Window window) {
        super(threads, window);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        int threads = threads().resolve(context.processorCount());
        ConcurrentQueue<Object> queue = new ConcurrentQueue<>(context);
        MeasuredRun run = new MeasuredRun(context, window(), threads);
        run.metric("threads", threads);
        for (int t = 0; t < threads; t++) {
            run.start("worker-" + t, slot -> {
                while (run.running()) {
                    queue.offer(ELEMENT);
                    run.count(slot);
                    if (queue.poll() != null) {
                        run.count(slot);
                    } else {
                        run.tick();
                    }
                }
            });
        }
        return run.measure(this, () -> { });
    }
}
