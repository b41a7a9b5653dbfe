package io.spinlab.properties.hunt;

import io.spinlab.model.machine.MachineProfile;

import java.util.Locale;

/**
 * One configuration a hunt tries: a workload at a thread multiplier and run length, on a
 * machine, with a simulation seed. Both tunings run on exactly this case.
 *
 * @param workload the workload's name
 * @param machine the simulated machine
 * @param multiplier threads as a multiple of the machine's processor count
 * @param rounds the measured run length, in the workload's rounds
 * @param seed the simulation's seed
 */
public record HuntCase(String workload, MachineProfile machine, double multiplier, int rounds, long seed) {

    /** Threads this case runs: round(multiplier × processors), at least 1. */
    public int threads() {
        return Math.max(1, (int) Math.round(multiplier * machine.logicalProcessors()));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s on %s (PAUSE %d cycles, %d processors), seed %d",
                HuntWorkloads.create(this).describe(), machine.name(), machine.pauseCycles(),
                machine.logicalProcessors(), seed);
    }
}
