package io.spinlab.junit;

import java.io.Serializable;

/**
 * A test body that runs against one simulated machine: it builds the objects under test, adds
 * threads to the {@link Sim}, runs it and checks the outcome. Given to {@link Sims#run} as a
 * lambda written in the test class; it runs as the instrumented copy of that code.
 */
@FunctionalInterface
public interface SimBody extends Serializable {
    void run(Sim sim) throws Exception;
}
