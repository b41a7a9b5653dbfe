package io.spinlab.properties.sim;

import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;

/**
 * Test code that runs the primitives inside a simulation and reports what its threads saw.
 * Implementations live in {@code io.spinlab.properties.sim.guest}, so that with the memory model
 * on they run as guests (instrumented, built from the simulation's class loader); they take one
 * configuration record of this package in a public constructor and hand back an observation of
 * this package or the JDK, never a primitive (whose class would be the guest's copy).
 *
 * @param <R> what the scenario observed
 */
public interface SimScenario<R> {

    /** Starts the scenario's threads on {@code platform} (called before the run, off the simulation). */
    void start(Platform platform, Tuning tuning);

    /** What the threads observed; called after a completed run. */
    R observed();
}
