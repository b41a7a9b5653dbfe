package io.spinlab.sim.workload;

import io.spinlab.sim.engine.SimulationResult;

import java.util.Objects;
import java.util.Optional;

/**
 * A workload run in the simulator: the workload's own result (present when the run completed)
 * and the simulation's facts (digest, metrics, trace, report).
 */
public record SimulatedRun(Optional<WorkloadResult> workloadResult, SimulationResult simulation) {

    public SimulatedRun {
        Objects.requireNonNull(workloadResult, "workloadResult");
        Objects.requireNonNull(simulation, "simulation");
    }

    /**
     * The workload's result.
     *
     * @throws io.spinlab.sim.engine.SimulationFailedException if the run did not complete (its report says why and
     *                                                         how to reproduce it)
     */
    public WorkloadResult result() {
        simulation.requireCompleted();
        return workloadResult.orElseThrow(() -> new IllegalStateException("the workload returned no result; "
                + simulation.reproduction()));
    }

    /** The workload's score, operations per virtual ms; see {@link #result()}. */
    public double opsPerMs() {
        return result().opsPerMs();
    }
}
