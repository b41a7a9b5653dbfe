package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A fixture of access ordering: an owner thread takes a line (a getAndAdd), then runs a long
 * loop of local arithmetic and takes the line again. With {@code rival} set a second thread
 * takes the line once, while the owner is still in its loop. The result's {@code elapsedNanos}
 * is the owner's time from just after its first access to just after its second: the loop plus
 * a hit when the line is still the owner's, plus one line transfer when the rival took it first.
 */
public final class LateRival implements Workload {

    private final int iterations;
    private final boolean rival;

    /**
     * @param iterations times round the owner's loop
     * @param rival      1 to start the rival thread, 0 for the owner alone
     */
    public LateRival(int iterations, int rival) {
        this.iterations = iterations;
        this.rival = rival != 0;
    }

    @Override
    public String name() {
        return "late-rival";
    }

    @Override
    public String parameters() {
        return "iterations=" + iterations + ",rival=" + rival;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Line line = new Line();
        long[] elapsed = new long[1];
        int[] sum = new int[1];
        WorkerGroup group = new WorkerGroup(context, rival ? 2 : 1);
        group.start("owner", () -> {
            line.take();
            long begin = platform.nanoTime();
            sum[0] = CountedLoop.sum(iterations);
            line.take();
            elapsed[0] = platform.nanoTime() - begin;
        });
        if (rival) {
            group.start("rival", line::take);
        }
        group.join(60, TimeUnit.SECONDS);
        if (line.count != (rival ? 3 : 2)) {
            throw new IllegalStateException("line taken " + line.count + " times");
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), sum[0], elapsed[0]);
    }

    /** One volatile int, taken with getAndAdd. */
    static final class Line {
        volatile int count;

        void take() {
            COUNT.getAndAdd(this, 1);
        }

        // VarHandle mechanics
        private static final VarHandle COUNT;

        static {
            try {
                COUNT = MethodHandles.lookup().findVarHandle(Line.class, "count", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
