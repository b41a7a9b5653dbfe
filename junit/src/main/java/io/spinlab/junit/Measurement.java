package io.spinlab.junit;

import io.spinlab.sim.experiment.Spread;
import io.spinlab.sim.trace.Activity;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link Measure} found: throughput and CPU per operation over the seeds, and where the
 * measured threads' time went.
 *
 * @param machine         the machine as one line
 * @param tuning          the tuning
 * @param threads         measured threads
 * @param windowNanos     the asked window, ns of virtual time
 * @param seeds           the seeds run
 * @param opsPerMs        operations per ms of the window, all threads together
 * @param cpuNanosPerOp   processor time (working, spinning, yielding) of the measured threads per operation, ns
 * @param timeSplit       share of the measured threads' time in each activity, mean over the seeds
 * @param windowOperations operations counted in each seed's window
 * @param windowHalvesRatios each seed's rate in the window's second half over its rate in the first (NaN where the
 *                        first half counted nothing): near 1 for a steady rate
 */
public record Measurement(String machine, String tuning, int threads, long windowNanos, List<Long> seeds,
                          Spread opsPerMs, Spread cpuNanosPerOp, Map<Activity, Double> timeSplit,
                          List<Long> windowOperations, List<Double> windowHalvesRatios) {

    public Measurement {
        seeds = List.copyOf(seeds);
        timeSplit = Map.copyOf(new EnumMap<>(timeSplit));
        windowOperations = List.copyOf(windowOperations);
        windowHalvesRatios = List.copyOf(windowHalvesRatios);
    }

    /** This median throughput over {@code other}'s. */
    public double speedupOver(Measurement other) {
        return opsPerMs.median() / other.opsPerMs.median();
    }

    /** True if this throughput is above {@code other}'s beyond the spread of either (see {@link Spread#clearlyAbove}). */
    public boolean clearlyFasterThan(Measurement other) {
        return opsPerMs.clearlyAbove(other.opsPerMs);
    }

    @Override
    public String toString() {
        StringBuilder split = new StringBuilder();
        for (Activity a : Activity.values()) {
            double share = timeSplit.getOrDefault(a, 0.0);
            if (share > 0) {
                split.append(split.isEmpty() ? "" : ", ").append(a.label())
                        .append(String.format(Locale.ROOT, " %.1f%%", 100 * share));
            }
        }
        return String.format(Locale.ROOT, "%s, %s, %d threads, %d seeds: %s ops/ms; CPU per op %s ns; time: %s",
                machine, tuning, threads, seeds.size(), opsPerMs, cpuNanosPerOp, split);
    }
}
