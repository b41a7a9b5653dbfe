package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadSource;

import java.util.Objects;

/**
 * One row an {@link Experiment} will run: a workload on a machine, under the experiment's two
 * tunings, with the same seed, and what was published about it.
 *
 * @param workload  the workload with its parameters
 * @param machine   the simulated machine
 * @param published the published claim for this row
 * @param seed      the seed of both runs
 * @param source    where the workload comes from, to build it inside each simulation: the registry, or a
 *                  user's class
 */
public record PlannedRow(Workload workload, MachineProfile machine, Published published, long seed,
                         WorkloadSource source) {

    public PlannedRow {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(published, "published");
        Objects.requireNonNull(source, "source");
    }

    /** A row of a registry workload. */
    public PlannedRow(Workload workload, MachineProfile machine, Published published, long seed) {
        this(workload, machine, published, seed, WorkloadSource.named(workload.name()));
    }

    @Override
    public String toString() {
        return workload.describe() + " on " + machine.name();
    }
}
