package io.spinlab.junit;

/**
 * A simulated run that did not complete: a thread threw (the cause), the threads deadlocked, or
 * a budget ran out. Thrown by {@link Sim#run()}; the extension adds the failure report to it.
 */
public final class SimulationFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    public SimulationFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
