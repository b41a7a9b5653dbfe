package io.spinlab.sim.engine;

/**
 * Thrown inside simulated threads to unwind them when a run ends early (deadlock, budget,
 * another thread's failure). Code under simulation should not catch it; if it does, its next
 * {@code Platform} call throws it again.
 */
public final class SimulationAbort extends Error {
    private static final long serialVersionUID = 1L;

    SimulationAbort() {
        super("the simulation ended; unwinding this simulated thread", null, false, false);
    }
}
