package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One thread offers and takes N items on a queue's ring ({@link ContendedRingLoop}'s) with nobody
 * contending for it, alone or beside a second thread that only polls the ring: it reads the tail and the
 * tail's slot, PAUSEs, and reads them again until the first is done. Every poll after a change pulls a
 * line the writer keeps writing, so the writer's time per offer and take beside the poller against its
 * time alone, and the poller's time per round, say who a read of another core's line costs, the reader
 * or the line's holder. Score: offers per ms over the writer's run. Metrics: {@value #POLLS} (the
 * poller's rounds) and {@value #POLL_NANOS} (the poller's time from its start to its last round).
 *
 * <p>{@code calibrate}'s polling-reader check ({@code PollingReaderCheck}): the same loop on real threads
 * and in the simulator of the host's profile. Not one of the named workloads: it has no tuning to compare.
 */
public final class PollingReader implements Workload {

    /** Metric: the poller's rounds (0 without a poller). */
    public static final String POLLS = "polls";
    /** Metric: the poller's time from its start to the end of its last round, ns (0 without a poller). */
    public static final String POLL_NANOS = "pollNanos";

    private static final long JOIN_TIMEOUT_SECONDS = 600;

    private final int operations;
    private final boolean poller;

    /**
     * @param operations offers (each followed by a take), 1 or more
     * @param poller     whether a second thread polls the ring meanwhile
     */
    public PollingReader(int operations, boolean poller) {
        if (operations < 1) {
            throw new IllegalArgumentException("operations = " + operations + "; allowed 1 or more");
        }
        this.operations = operations;
        this.poller = poller;
    }

    @Override
    public String name() {
        return "polling-reader";
    }

    @Override
    public String parameters() {
        return "operations=" + operations + ",poller=" + poller;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        ContendedRingLoop.Ring ring = new ContendedRingLoop.Ring();
        Done done = new Done();
        long[] writer = new long[2];
        long[] polls = new long[2];
        ManualResetEvent start = new ManualResetEvent(context);
        WorkerGroup group = new WorkerGroup(context, poller ? 2 : 1);
        group.start("writer", () -> {
            start.await();
            writer[0] = platform.nanoTime();
            for (long position = 0; position < operations; position++) {
                offerAndTake(ring, position);
            }
            writer[1] = platform.nanoTime();
            done.value = true;
        });
        if (poller) {
            group.start("poller", () -> {
                start.await();
                long begin = platform.nanoTime();
                long rounds = 0;
                while (!done.value) {
                    long tail = ring.tail;
                    ContendedRingLoop.Ring.SEQUENCE.getAcquire(ring.sequence, (int) (tail % ContendedRingLoop.SLOTS));
                    platform.pause(1);
                    rounds++;
                }
                polls[0] = rounds;
                polls[1] = platform.nanoTime() - begin;
            });
        }
        start.set();
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new WorkloadResult(name(), parameters(), platform.toString(), operations, writer[1] - writer[0],
                Map.of(POLLS, (double) polls[0], POLL_NANOS, (double) polls[1]));
    }

    /** The writer's offer and take of {@code position}, alone on the ring: both always find their slot ready. */
    private static void offerAndTake(ContendedRingLoop.Ring ring, long position) {
        int slot = (int) (position % ContendedRingLoop.SLOTS);
        if ((long) ContendedRingLoop.Ring.SEQUENCE.getAcquire(ring.sequence, slot) != position
                || !ContendedRingLoop.Ring.TAIL.compareAndSet(ring, position, position + 1)) {
            throw new IllegalStateException("offer of position " + position + " found the ring changed");
        }
        ContendedRingLoop.Ring.SEQUENCE.setRelease(ring.sequence, slot, position + 1);
        if ((long) ContendedRingLoop.Ring.SEQUENCE.getAcquire(ring.sequence, slot) != position + 1
                || !ContendedRingLoop.Ring.HEAD.compareAndSet(ring, position, position + 1)) {
            throw new IllegalStateException("take of position " + position + " found the ring changed");
        }
        ContendedRingLoop.Ring.SEQUENCE.setRelease(ring.sequence, slot, position + ContendedRingLoop.SLOTS);
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The writer's end, which the poller watches. */
    static final class Done {
        volatile boolean value;
    }
}
