package io.spinlab.sim.experiment;

import java.util.Objects;

/**
 * One workload under one tuning, run on this host's real threads and in a simulation of a
 * profile measured for this host.
 *
 * @param workload       the workload's name
 * @param parameters     its parameters (the hardware run's; the simulated run differs only in its window)
 * @param tuning         the tuning, as {@code Tuning.describe()} writes it
 * @param hardwareScore  operations per ms on real threads (the median of the repetitions)
 * @param simulatedScore operations per virtual ms in the simulator; NaN if that run failed
 */
public record CalibrationPoint(String workload, String parameters, String tuning, double hardwareScore,
                               double simulatedScore) {

    public CalibrationPoint {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(tuning, "tuning");
    }
}
