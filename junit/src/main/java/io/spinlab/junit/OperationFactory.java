package io.spinlab.junit;

import java.io.Serializable;

/**
 * Builds, once per simulated run, the shared state under test and returns the operation that
 * every measured thread repeats ({@code lock.lock(); lock.unlock();}, say). Written as a lambda
 * in the test class; it runs as the instrumented copy of that code, on the run's first thread.
 */
@FunctionalInterface
public interface OperationFactory extends Serializable {
    /** The operation; it is called from every thread at once, so it must be thread-safe. */
    Runnable create(Sim sim) throws Exception;
}
