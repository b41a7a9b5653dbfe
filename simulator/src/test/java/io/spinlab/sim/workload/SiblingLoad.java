package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

/**
 * A fixture of the SMT rule: the measuring thread runs {@link CountedLoop}'s loop between two
 * clock reads while a neighbour, started first, keeps the other logical processor of the core
 * idle ({@code neighbour = 0}), in a long PAUSE batch ({@code 1}) or in a long loop of plain
 * instructions ({@code 2}). On a one-core, two-thread machine the neighbour is the measuring
 * thread's sibling, so two iteration counts differ by their extra instructions stretched by
 * what the neighbour does.
 */
public final class SiblingLoad implements Workload {
    /** The neighbour's loop: long enough to outlast the measured one at every count the tests use. */
    private static final int NEIGHBOUR_ITERATIONS = 10_000_000;

    private final int iterations;
    private final int neighbour;
    /** Written by the neighbour so that its loop is not dead code. */
    private int neighbourSum;

    /**
     * @param iterations times round the measured loop
     * @param neighbour  0: none, 1: a PAUSE batch, 2: a loop of instructions
     */
    public SiblingLoad(int iterations, int neighbour) {
        this.iterations = iterations;
        this.neighbour = neighbour;
    }

    @Override
    public String name() {
        return "sibling-load";
    }

    @Override
    public String parameters() {
        return "iterations=" + iterations + ",neighbour=" + neighbour;
    }

    @Override
    public WorkloadResult run(SpinContext context) {
        Platform platform = context.platform();
        Thread other = null;
        if (neighbour == 1) {
            other = platform.startThread("neighbour", () -> platform.pause(1_000_000));
        } else if (neighbour == 2) {
            other = platform.startThread("neighbour", () -> {
                neighbourSum = sum(NEIGHBOUR_ITERATIONS);
                platform.nanoTime();
            });
        }
        long begin = platform.nanoTime();
        int sum = sum(iterations);
        long end = platform.nanoTime();
        return new WorkloadResult(name(), parameters(), platform.toString(), sum + (other == null ? 0 : 1),
                end - begin);
    }

    private static int sum(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += i;
        }
        return sum;
    }
}
