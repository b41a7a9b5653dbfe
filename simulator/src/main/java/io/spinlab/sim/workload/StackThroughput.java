package io.spinlab.sim.workload;

import io.spinlab.impl.collections.ConcurrentStack;
import io.spinlab.impl.spin.SpinContext;

/**
 * SpinPerf's ConcurrentStackThroughput: N threads each push an element onto one shared
 * {@link ConcurrentStack} and pop one, with a tick after each operation. Score: successful
 * operations (pushes plus non-empty pops) per ms. A pop that loses a race backs off through
 * the platform, so contention shows where CAS races happen.
 */
public final class StackThroughput extends WindowedWorkload {

    public static final String NAME = "stack-throughput";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N threads push to and pop from one concurrent stack; operations/ms",
            parameterList(), p -> new StackThroughput(p.threads("threads"), p.window()));

    private static final Object ELEMENT = new Object();

    /**
     * @param threads pushing and popping threads
     * @param window  warm-up and measured window
     */
    public StackThroughput(ThreadCount threads, Window window) {
        super(threads, window);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        int threads = threads().resolve(context.processorCount());
        ConcurrentStack<Object> stack = new ConcurrentStack<>(context);
        MeasuredRun run = new MeasuredRun(context, window(), threads);
        run.metric("threads", threads);
        for (int t = 0; t < threads; t++) {
            run.start("worker-" + t, slot -> {
                while (run.running()) {
                    stack.push(ELEMENT);
                    run.count(slot);
                    if (stack.pop() != null) {
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
