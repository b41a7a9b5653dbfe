package io.spinlab.sim.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One workload under one tuning, run on this host's real threads and in a simulation of a
 * profile measured for this host.
 *
 * @param workload       the workload's name
 * @param parameters     the hardware runs' parameters
 * @param tuning         the tuning, as {@code Tuning.describe()} writes it
 * @param hardwareScore  operations per ms on real threads (the median of the repetitions)
 * @param simulatedScore operations per virtual ms in the simulator (the median of the seeds); NaN if a
 *                       simulated run failed
 * @param hardwareOperations  the fewest operations a hardware repetition counted in its window
 * @param simulatedOperations the fewest operations a simulated seed counted; −1 if a run failed
 * @param hardware       every repetition's score, their median and range
 * @param simulated      every seed's score, their median and range (one NaN if a run failed)
 * @param simulatedParameters the simulated runs' parameters (they differ from the hardware runs' only
 *                       in their window)
 * @param hardwareBusy   processors the real-thread runs kept busy, over each whole run (the process's
 *                       processor time over the run's wall time; the median of the repetitions), NaN if not
 *                       measured: about one where the workload's threads took turns instead of running side by
 *                       side
 * @param simulatedBusy  processors the simulated runs kept busy (working, spinning or yielding) over each
 *                       whole run, the median of the seeds; NaN if not measured
 * @param lineTransferBeforeNs a cache line handed between two threads on this host just before the point's
 *                       real-thread runs (those of every tuning of its workload, which run in rounds), ns; NaN
 *                       if not measured
 * @param lineTransferAfterNs  the same just after them; NaN if not measured
 * @param simulatedLineTransferNs the line transfer the point's simulated runs charged (the mean of the two
 *                       measurements around its real runs, or the host profile's), ns; NaN if not recorded
 */
public record CalibrationPoint(String workload, String parameters, String tuning, double hardwareScore,
                               double simulatedScore, long hardwareOperations, long simulatedOperations,
                               Spread hardware, Spread simulated, String simulatedParameters, double hardwareBusy,
                               double simulatedBusy, double lineTransferBeforeNs, double lineTransferAfterNs,
                               double simulatedLineTransferNs) {

    public CalibrationPoint {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(tuning, "tuning");
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(simulated, "simulated");
        Objects.requireNonNull(simulatedParameters, "simulatedParameters");
    }

    /** A point without the line transfers measured around it. */
    public CalibrationPoint(String workload, String parameters, String tuning, double hardwareScore,
            double simulatedScore, long hardwareOperations, long simulatedOperations, Spread hardware,
            Spread simulated, String simulatedParameters, double hardwareBusy, double simulatedBusy) {
        this(workload, parameters, tuning, hardwareScore, simulatedScore, hardwareOperations, simulatedOperations,
                hardware, simulated, simulatedParameters, hardwareBusy, simulatedBusy, Double.NaN, Double.NaN,
                Double.NaN);
    }

    /**
     * Whether the two line-transfer measurements around the point's real-thread runs differ by more than
     * {@link CalibrationResult#LINE_TRANSFER_TOLERANCE}× either way: the real runs then met a transfer cost
     * that moved while they ran (on a virtual machine whose processors the hypervisor moves between the
     * host's cores), and no one figure describes them.
     */
    public boolean lineTransferMoved() {
        double before = lineTransferBeforeNs;
        double after = lineTransferAfterNs;
        if (!(before > 0) || !(after > 0)) {
            return false;
        }
        return Math.max(before, after) / Math.min(before, after) > CalibrationResult.LINE_TRANSFER_TOLERANCE;
    }

    /** A point without the processors its runs kept busy. */
    public CalibrationPoint(String workload, String parameters, String tuning, double hardwareScore,
            double simulatedScore, long hardwareOperations, long simulatedOperations, Spread hardware,
            Spread simulated, String simulatedParameters) {
        this(workload, parameters, tuning, hardwareScore, simulatedScore, hardwareOperations, simulatedOperations,
                hardware, simulated, simulatedParameters, Double.NaN, Double.NaN);
    }

    /** A point whose simulated runs ran with the hardware runs' parameters. */
    public CalibrationPoint(String workload, String parameters, String tuning, double hardwareScore,
            double simulatedScore, long hardwareOperations, long simulatedOperations, Spread hardware,
            Spread simulated) {
        this(workload, parameters, tuning, hardwareScore, simulatedScore, hardwareOperations, simulatedOperations,
                hardware, simulated, parameters);
    }

    /** A point from one hardware run and one simulated run. */
    public CalibrationPoint(String workload, String parameters, String tuning, double hardwareScore,
            double simulatedScore, long hardwareOperations, long simulatedOperations) {
        this(workload, parameters, tuning, hardwareScore, simulatedScore, hardwareOperations, simulatedOperations,
                Spread.of(List.of(hardwareScore)), Spread.of(List.of(simulatedScore)));
    }

    /**
     * Why the point measures nothing: the simulation failed, a side counted fewer than {@link
     * ExperimentRow#MIN_OPERATIONS} operations (such a score, often 0, says nothing about the primitive), or a
     * side's runs scored more than {@link ExperimentRow#SEED_SPREAD_LIMIT} times apart, the rule {@code
     * reproduce} applies to its seeds: runs of one point an order of magnitude apart caught bursts or stalls,
     * not a rate (MresWaitLatency on real threads: 523 to 11,652 per ms over five runs). Such a point stays out
     * of the correlations.
     */
    public Optional<String> notMeasurable() {
        if (simulatedOperations < 0 || Double.isNaN(simulatedScore)) {
            return Optional.of("the simulated run failed");
        }
        List<String> sides = new ArrayList<>();
        if (hardwareOperations < ExperimentRow.MIN_OPERATIONS) {
            sides.add("hardware counted " + hardwareOperations);
        }
        if (simulatedOperations < ExperimentRow.MIN_OPERATIONS) {
            sides.add("simulated counted " + simulatedOperations);
        }
        if (!sides.isEmpty()) {
            return Optional.of(String.join(" and ", sides) + " operations (fewer than " + ExperimentRow.MIN_OPERATIONS
                    + ")");
        }
        apart("real-thread runs", hardware).ifPresent(sides::add);
        apart("simulated seeds", simulated).ifPresent(sides::add);
        return sides.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", sides));
    }

    private static Optional<String> apart(String runs, Spread spread) {
        if (spread.values().size() < 2 || !(spread.min() > 0)
                || !(spread.max() > spread.min() * ExperimentRow.SEED_SPREAD_LIMIT)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "the %d %s scored %.1f× apart (%.1f to %.1f per ms; more than "
                + "%.0f×)", spread.values().size(), runs, spread.max() / spread.min(), spread.min(), spread.max(),
                ExperimentRow.SEED_SPREAD_LIMIT));
    }
}
