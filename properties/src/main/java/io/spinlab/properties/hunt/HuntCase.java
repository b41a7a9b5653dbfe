package io.spinlab.properties.hunt;

import io.spinlab.model.machine.MachineProfile;

import java.util.Locale;

/**
 * One configuration a hunt tries: a named workload at a thread multiplier and measured window,
 * on a machine, with a simulation seed. Both tunings run on exactly this case.
 *
 * @param workload the workload's registry name
 * @param machine the simulated machine
 * @param multiplier threads as a multiple of the machine's processor count
 * @param windowMicros the measured window in virtual microseconds (after a fixed warm-up)
 * @param seed the simulation's seed
 */
public record HuntCase(String workload, MachineProfile machine, double multiplier, int windowMicros, long seed) {

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s on %s (PAUSE %d cycles, %d processors), seed %d",
                HuntWorkloads.create(this).describe(), machine.name(), machine.pauseCycles(),
                machine.logicalProcessors(), seed);
    }
}
