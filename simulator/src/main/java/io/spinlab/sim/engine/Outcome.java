package io.spinlab.sim.engine;

/** How a simulated run ended. */
public enum Outcome {
    /** Every simulated thread finished normally. */
    COMPLETED,
    /** Every live thread was parked with no timer pending: nothing could ever happen again. */
    DEADLOCK,
    /** A virtual-time, step or wall-clock budget ran out first. */
    BUDGET_EXHAUSTED,
    /**
     * A simulated thread threw, or blocked outside the {@code Platform} (a JDK lock,
     * {@code synchronized} contention, {@code Thread.sleep}, {@code Thread.yield}), which the
     * simulator cannot schedule.
     */
    THREAD_FAILED
}
