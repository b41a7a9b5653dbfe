package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * N threads increment one shared counter with a compare-and-set loop. Score: increments per
 * ms over all threads; per thread, divide by N. With the memory model every CAS needs the
 * counter's line exclusive, so the threads serialize on it.
 */
public final class ContendedCounter implements Workload {

    private final int threads;
    private final int incrementsPerThread;

    public ContendedCounter(int threads, int incrementsPerThread) {
        if (threads < 1 || incrementsPerThread < 1) {
            throw new IllegalArgumentException("threads = " + threads + ", increments = " + incrementsPerThread);
        }
        this.threads = threads;
        this.incrementsPerThread = incrementsPerThread;
    }

    @Override
    public String name() {
        return "contended-counter";
    }

    @Override
    public String parameters() {
        return "threads=" + threads + ",increments=" + incrementsPerThread;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Counter counter = new Counter();
        Timing timing = new Timing(threads);
        SpinGate start = new SpinGate();
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int t = 0; t < threads; t++) {
            int index = t;
            group.start("counter-" + t, () -> {
                start.await(platform);
                timing.begin(index, platform);
                for (int i = 0; i < incrementsPerThread; i++) {
                    counter.increment();
                }
                timing.end(index, platform);
            });
        }
        start.open();
        group.join(60, TimeUnit.SECONDS);
        long expected = (long) threads * incrementsPerThread;
        if (counter.count != expected) {
            throw new IllegalStateException("counter = " + counter.count + ", expected " + expected);
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), expected, timing.elapsed());
    }

    /** One volatile long, incremented by CAS. */
    static final class Counter {
        volatile long count;

        void increment() {
            long seen;
            do {
                seen = count;
            } while (!COUNT.compareAndSet(this, seen, seen + 1));
        }

        // VarHandle mechanics
        private static final VarHandle COUNT;

        static {
            try {
                COUNT = MethodHandles.lookup().findVarHandle(Counter.class, "count", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
