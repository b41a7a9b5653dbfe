package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * N threads each increment their own counter in one {@code long[]}, thread i at index
 * {@code i × stride}, with {@code getAndAdd}. Stride 1 packs eight counters per 64-byte line
 * (false sharing); stride 16 gives each counter 128 bytes, a line (pair) of its own. Score:
 * increments per ms over all threads.
 */
public final class CounterArray implements Workload {

    private static final VarHandle COUNTERS = MethodHandles.arrayElementVarHandle(long[].class);

    private final int threads;
    private final int incrementsPerThread;
    private final int strideLongs;

    public CounterArray(int threads, int incrementsPerThread, int strideLongs) {
        if (threads < 1 || incrementsPerThread < 1 || strideLongs < 1) {
            throw new IllegalArgumentException("threads = " + threads + ", increments = " + incrementsPerThread
                    + ", stride = " + strideLongs);
        }
        this.threads = threads;
        this.incrementsPerThread = incrementsPerThread;
        this.strideLongs = strideLongs;
    }

    @Override
    public String name() {
        return "counter-array";
    }

    @Override
    public String parameters() {
        return "threads=" + threads + ",increments=" + incrementsPerThread + ",stride=" + strideLongs;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        long[] counters = new long[threads * strideLongs];
        Timing timing = new Timing(threads);
        SpinGate start = new SpinGate();
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int t = 0; t < threads; t++) {
            int slot = t * strideLongs;
            int index = t;
            group.start("counter-" + t, () -> {
                start.await(platform);
                timing.begin(index, platform);
                for (int i = 0; i < incrementsPerThread; i++) {
                    COUNTERS.getAndAdd(counters, slot, 1L);
                }
                timing.end(index, platform);
            });
        }
        start.open();
        group.join(60, TimeUnit.SECONDS);
        for (int t = 0; t < threads; t++) {
            if (counters[t * strideLongs] != incrementsPerThread) {
                throw new IllegalStateException("counter " + t + " = " + counters[t * strideLongs]);
            }
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), (long) threads * incrementsPerThread,
                timing.elapsed());
    }
}
