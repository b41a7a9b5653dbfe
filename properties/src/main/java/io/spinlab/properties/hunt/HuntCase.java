package io.spinlab.properties.hunt;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.WorkloadSource;

import java.util.Locale;

/**
 * One configuration a hunt tries: a workload at a thread multiplier and measured window,
 * on a machine, with a simulation seed. Both tunings run on exactly this case.
 *
 * @param workload the workload: a registry one, or a user's class
 * @param machine the simulated machine
 * @param multiplier threads as a multiple of the machine's processor count
 * @param windowMicros the measured window in virtual microseconds (after a fixed warm-up)
 * @param seed the simulation's seed
 */
public record HuntCase(WorkloadSource workload, MachineProfile machine, double multiplier, int windowMicros, long seed) {

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s on %s (PAUSE %d cycles, %d processors), seed %d",
                HuntWorkloads.create(this).describe(), machine.name(), machine.pauseCycles(),
                machine.logicalProcessors(), seed);
    }
}
