package io.spinlab.sim.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one run of a {@link Workload} measured, on hardware or in the simulator alike.
 *
 * @param workload     the workload's name
 * @param parameters   its parameters
 * @param platform     where it ran ({@code hardware}, {@code simulated(skylake-i7-6700, seed 1)})
 * @param operations   operations counted in the measured interval (what the score counts)
 * @param elapsedNanos the measured interval on the platform's clock (virtual in the simulator)
 * @param metrics      further figures by name, in the workload's order (e.g. {@code threads},
 *                     or an event stress run's {@code eventsRead}, {@code eventsDropped}); may be empty
 */
public record WorkloadResult(String workload, String parameters, String platform, long operations,
                             long elapsedNanos, Map<String, Double> metrics) {

    /**
     * The metric by which a workload says it counts its operations in batches: a thread-pool
     * chain of {@code depth} work items is counted when its last item ran ({@link Quwi}). Its
     * score moves by a whole batch or not at all, so the floor of a measurable score applies to
     * batches (two chains of 512 against two is 0 %, whatever the pools did).
     */
    public static final String OPERATIONS_PER_COUNT = "operationsPerCount";

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
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** A result without further figures. */
    public WorkloadResult(String workload, String parameters, String platform, long operations, long elapsedNanos) {
        this(workload, parameters, platform, operations, elapsedNanos, Map.of());
    }

    /** The score: operations per millisecond of the platform's clock (0 for an empty interval). */
    public double opsPerMs() {
        return elapsedNanos == 0 ? 0 : operations * 1_000_000.0 / elapsedNanos;
    }

    /**
     * A further figure by name.
     *
     * @throws IllegalArgumentException if this result has no such figure, listing the ones it has
     */
    public double metric(String name) {
        Double value = metrics.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no metric '" + name + "' in " + workload + "; it has: "
                    + (metrics.isEmpty() ? "none" : String.join(", ", metrics.keySet())));
        }
        return value;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s(%s) on %s: %d ops in %.3f ms = %.1f ops/ms%s", workload, parameters,
                platform, operations, elapsedNanos / 1e6, opsPerMs(), metrics.isEmpty() ? "" : " " + metrics);
    }
}
