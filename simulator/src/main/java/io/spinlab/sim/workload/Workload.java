package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;

/**
 * A benchmark scenario written once against the {@code Platform} seam: it runs on
 * {@code HardwarePlatform} with real threads and real time, or in the simulator with virtual
 * ones, and returns the same {@link WorkloadResult} either way ({@link WorkloadRunner} does the
 * plumbing).
 *
 * <p>Rules for implementations, so that a simulated run is deterministic:
 * <ul>
 *   <li>build every primitive on the given {@link SpinContext}; start threads with
 *       {@code context.platform().startThread} (a {@link WorkerGroup} helps) and wait for them
 *       through primitives, never with {@code Thread.join};</li>
 *   <li>measure with {@code platform.nanoTime()}, draw randomness from
 *       {@code platform.nextRandom}; share state through volatile fields and VarHandles;</li>
 *   <li>finish: every started thread must end, or the simulator reports a deadlock.</li>
 * </ul>
 * {@link #run} is called on a thread of the context's platform (the simulator's first thread,
 * or the caller's thread on hardware). Instances are immutable descriptions; each run builds
 * its own primitives.
 */
public interface Workload {

    /** A short stable name, e.g. {@code mres-wait-drain-rate} (see {@link Workloads} for the registry). */
    String name();

    /** The parameters in {@code key=value,...} form, e.g. {@code waiters=8,rounds=20}. */
    String parameters();

    /** Runs the scenario once and reports what it measured. */
    WorkloadResult run(SpinContext context) throws InterruptedException;

    /** {@code name(parameters)}. */
    default String describe() {
        return name() + "(" + parameters() + ")";
    }
}
