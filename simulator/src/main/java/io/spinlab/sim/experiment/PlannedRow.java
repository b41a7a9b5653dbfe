package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.Workload;

import java.util.Objects;

/**
 * One row an {@link Experiment} will run: a workload on a machine, under the experiment's two
 * tunings, with the same seed, and what was published about it.
 *
 * @param workload  the workload with its parameters
 * @param machine   the simulated machine
 * @param published the published claim for this row
 * @param seed      the seed of both runs
 */
public record PlannedRow(Workload workload, MachineProfile machine, Published published, long seed) {

    public PlannedRow {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(published, "published");
    }

    @Override
    public String toString() {
        return workload.describe() + " on " + machine.name();
    }
}
