package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

/**
 * A fixture of the instruction clock: one thread runs a loop of plain local arithmetic, no
 * shared memory and no Platform call inside, between two clock reads. The result's
 * {@code elapsedNanos} is the virtual time between the reads, so two iteration counts differ by
 * exactly their extra bytecode instructions ({@link #BYTECODES_PER_ITERATION} each) times the
 * machine's cost of one. An {@code assert} on a volatile field follows the loop: its body must
 * cost nothing and be no scheduling point, so a run is the same with and without {@code -ea}.
 */
public final class CountedLoop implements Workload {
    /**
     * javac's loop {@code for (i = 0; i < n; i++) sum += i}: the test {@code iload, iload,
     * if_icmpge}, the body {@code iload, iload, iadd, istore}, then {@code iinc} and {@code goto}.
     */
    public static final int BYTECODES_PER_ITERATION = 9;

    private final int iterations;
    private volatile int checked = 1;

    /** @param iterations times round the loop */
    public CountedLoop(int iterations) {
        this.iterations = iterations;
    }

    @Override
    public String name() {
        return "counted-loop";
    }

    @Override
    public String parameters() {
        return "iterations=" + iterations;
    }

    @Override
    public WorkloadResult run(SpinContext context) {
        Platform platform = context.platform();
        long begin = platform.nanoTime();
        int sum = sum(iterations);
        long end = platform.nanoTime();
        assert checked == 1 : "checked is written nowhere";
        return new WorkloadResult(name(), parameters(), platform.toString(), sum, end - begin);
    }

    static int sum(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += i;
        }
        return sum;
    }
}
