package io.spinlab.sim.workload;

import java.util.Locale;
import java.util.Objects;

/**
 * What one run of a {@link Workload} measured, on hardware or in the simulator alike.
 *
 * @param workload     the workload's name
 * @param parameters   its parameters
 * @param platform     where it ran ({@code hardware}, {@code simulated(skylake-i7-6700, seed 1)})
 * @param operations   operations counted in the measured interval (what the score counts)
 * @param elapsedNanos the measured interval on the platform's clock (virtual in the simulator)
 */
public record WorkloadResult(String workload, String parameters, String platform, long operations,
                             long elapsedNanos) {

    public WorkloadResult {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(platform, "platform");
        if (operations < 0) {
            throw new IllegalArgumentException("operations = " + operations + " is negative");
        }
        if (elapsedNanos < 0) {
            throw new IllegalArgumentException("elapsedNanos = " + elapsedNanos + " is negative");
        }
    }

    /** The score: operations per millisecond of the platform's clock (0 for an empty interval). */
    public double opsPerMs() {
        return elapsedNanos == 0 ? 0 : operations * 1_000_000.0 / elapsedNanos;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s(%s) on %s: %d ops in %.3f ms = %.1f ops/ms", workload, parameters,
                platform, operations, elapsedNanos / 1e6, opsPerMs());
    }
}
