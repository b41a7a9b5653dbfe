package io.spinlab.sim.engine;

/**
 * A simulated run did not complete: its message is the run's report (outcome, what each
 * thread was doing, and the line that reproduces the run); the cause is the exception a
 * simulated thread threw, if that is what ended it.
 */
public final class SimulationFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient SimulationResult result;

    SimulationFailedException(SimulationResult result) {
        super(result.report(), result.failure().orElse(null));
        this.result = result;
    }

    /** The run that failed (not serialized). */
    public SimulationResult result() {
        return result;
    }
}
