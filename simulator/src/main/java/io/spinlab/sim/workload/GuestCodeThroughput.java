package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plain Java code and nothing else: each thread runs {@code steps} steps of ordinary guest code
 * per operation, then counts the operation (one clock read). A step is the kind of code the
 * primitives run between two atomics: an object loaded from an array, one of its fields compared,
 * one of two fields updated depending on the answer (a slot looked up, its state checked, a
 * counter moved). The next step's slot is named by a field of this one, the way a primitive
 * reaches its next object through a field of the one before (a queue's segment, then its slots,
 * then a slot's sequence number), so the steps follow one another as a primitive's code does
 * instead of overlapping like independent loop iterations. No field is volatile, so in the
 * simulator the steps are no scheduling point: they cost only instruction-clock time.
 *
 * <p>It exists to measure what that time is on real threads: the same workload at two step
 * counts differs only by the extra steps, on hardware and in the simulator, so the difference of
 * the two real timings divided by the difference of the two simulated bytecode counts is the
 * cost of one bytecode, free of the clock reads and atomics around it ({@code calibrate}'s
 * instruction-clock probe, {@code BytecodeCost}). Not one of the named workloads: it has no
 * spinning and no tuning to compare.
 */
public final class GuestCodeThroughput extends WindowedWorkload {

    public static final String NAME = "guest-code";

    /** Slots in each thread's table: 64 objects, well inside any first-level cache. */
    private static final int SLOTS = 64;

    private final int steps;

    /**
     * @param threads threads, each with its own table (they share nothing)
     * @param steps   steps of guest code per operation, 0 or more
     * @param window  warm-up and measured window
     */
    public GuestCodeThroughput(ThreadCount threads, int steps, Window window) {
        super(threads, window);
        if (steps < 0) {
            throw new IllegalArgumentException("steps = " + steps + "; allowed 0 or more");
        }
        this.steps = steps;
    }

    /**
     * The same from plain values, so that the simulator's instrumenting class loader can build its
     * own copy ({@code WorkloadRunner.simulate(GuestCodeThroughput.class, List.of(...), ...)}).
     *
     * @param threads       threads, 1 or more
     * @param steps         steps of guest code per operation, 0 or more
     * @param warmupNanos   unmeasured time before the window
     * @param windowNanos   measured time
     */
    public GuestCodeThroughput(int threads, int steps, long warmupNanos, long windowNanos) {
        this(ThreadCount.ofAbsolute(threads), steps, new Window(warmupNanos, windowNanos));
    }

    /** Steps of guest code per operation. */
    public int steps() {
        return steps;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("steps", Integer.toString(steps));
        return settings;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        int threads = threads().resolve(context.processorCount());
        MeasuredRun run = new MeasuredRun(context, window(), threads);
        run.metric("threads", threads);
        run.metric("steps", steps);
        for (int t = 0; t < threads; t++) {
            Table table = new Table();
            run.start("worker-" + t, slot -> {
                int cursor = 0;
                while (run.running()) {
                    cursor = table.walk(cursor, steps);
                    run.count(slot);
                }
                table.publish(cursor);
            });
        }
        return run.measure(this, () -> { });
    }

    /** One thread's objects; its results stay in its fields so that the compiler cannot drop the steps. */
    private static final class Table {
        private final Slot[] slots = new Slot[SLOTS];
        private long moved;
        private long checked;
        private int last;

        Table() {
            for (int i = 0; i < SLOTS; i++) {
                slots[i] = new Slot(i);
            }
        }

        /**
         * Runs {@code steps} steps from slot {@code cursor}; returns the slot the next operation
         * starts at. Each step's slot is named by the slot before it.
         */
        int walk(int cursor, int steps) {
            int c = cursor;
            for (int s = 0; s < steps; s++) {
                Slot slot = slots[c];
                if (slot.state == c) {
                    slot.state = c + 1;
                    moved += slot.value;
                } else {
                    slot.state = c;
                    slot.value ^= c;
                    checked++;
                }
                c = slot.next;
            }
            return c;
        }

        void publish(int cursor) {
            last = cursor + (int) (moved ^ checked);
        }
    }

    /** One slot: a state compared with the cursor, a value moved, the index of the next slot. */
    private static final class Slot {
        int state;
        int value;
        int next;

        Slot(int index) {
            next = (index * 5 + 1) & (SLOTS - 1);
            state = index;
            value = index * 31;
        }
    }
}
