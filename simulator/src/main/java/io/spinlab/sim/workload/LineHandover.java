package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Two threads hand one counter back and forth N times, each waiting for its turn by the counter's
 * parity, so that every hand-over moves the counter's cache line to the other core: the ping-pong of
 * core-to-core latency tools. Two ways to wait: by reading the counter with a PAUSE between reads and
 * then storing the next value (a spinning reader, as most of the primitives wait on a flag), or by CASing
 * from the expected value to the next, again at once until it succeeds (as the core-to-core-latency tool
 * the presets' transfers come from, and as {@code calibrate} measures the host's).
 * Score: hand-overs per ms, from the first thread's start to the last one's end.
 *
 * <p>{@code calibrate}'s hand-over check ({@code HandoverCheck}): the same loop on real threads and in
 * the simulator of the host's profile. Not one of the named workloads: it has no tuning to compare.
 */
public final class LineHandover implements Workload {

    private final int handovers;
    private final boolean casWait;

    /**
     * @param handovers hand-overs in all, 2 or more
     * @param casWait   true: wait by CAS retries; false: by reads with a PAUSE between them, then a store
     */
    public LineHandover(int handovers, boolean casWait) {
        if (handovers < 2) {
            throw new IllegalArgumentException("handovers = " + handovers + "; allowed 2 or more");
        }
        this.handovers = handovers;
        this.casWait = casWait;
    }

    @Override
    public String name() {
        return "line-handover";
    }

    @Override
    public String parameters() {
        return "handovers=" + handovers + ",wait=" + (casWait ? "cas" : "read");
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Counter counter = new Counter();
        return ContendedThreads.run(context, this, "handover", 2, handovers, index -> {
            for (long next = index; next < handovers; next += 2) {
                if (casWait) {
                    while (!Counter.VALUE.compareAndSet(counter, next, next + 1)) {
                        // retry at once, as the core-to-core-latency tool does
                    }
                } else {
                    while (counter.value != next) {
                        platform.pause(1);
                    }
                    counter.value = next + 1;
                }
            }
            return ContendedThreads.Counts.NONE;
        }, () -> {
            if (counter.value != handovers) {
                throw new IllegalStateException("counter = " + counter.value + ", expected " + handovers);
            }
        });
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The counter the threads hand back and forth. */
    static final class Counter {
        volatile long value;

        // VarHandle mechanics
        static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Counter.class, "value", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
