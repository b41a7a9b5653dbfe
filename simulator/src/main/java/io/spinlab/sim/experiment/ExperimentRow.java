package io.spinlab.sim.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One row of an experiment's result: a workload on a machine under the left and the right
 * tuning, the two scores (operations per virtual ms), their Δ %, and the published figure or
 * direction beside them.
 *
 * @param experiment   the experiment's name
 * @param workload     the workload's name
 * @param machine      the machine profile's name
 * @param parameters   the workload's parameters
 * @param leftTuning   the left tuning, as {@code Tuning.describe()} writes it
 * @param leftScore    the left score, ops per virtual ms; NaN if that run failed
 * @param rightTuning  the right tuning
 * @param rightScore   the right score; NaN if that run failed
 * @param published    what was published about this row
 * @param leftMetrics  the left run's further figures (threads, events read, ...)
 * @param rightMetrics the right run's further figures
 * @param failure      why a run did not complete, with the line that reproduces it; empty if both completed
 * @param wallMillis   real time the two runs took, ms
 * @param memoryModel  whether the runs charged shared-memory accesses (the simulator's memory model);
 *                     scores of the two modes are not comparable
 * @param leftOperations  operations the left run counted in its window; −1 if it failed
 * @param rightOperations operations the right run counted in its window; −1 if it failed
 */
public record ExperimentRow(String experiment, String workload, String machine, String parameters,
                            String leftTuning, double leftScore, String rightTuning, double rightScore,
                            Published published, Map<String, Double> leftMetrics, Map<String, Double> rightMetrics,
                            Optional<String> failure, long wallMillis, boolean memoryModel, long leftOperations,
                            long rightOperations) {

    /** Fewer operations than this in a window make no score: a 0 or 1 says nothing about the primitive. */
    public static final long MIN_OPERATIONS = 100;

    public ExperimentRow {
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(leftTuning, "leftTuning");
        Objects.requireNonNull(rightTuning, "rightTuning");
        Objects.requireNonNull(published, "published");
        leftMetrics = Collections.unmodifiableMap(new LinkedHashMap<>(leftMetrics));
        rightMetrics = Collections.unmodifiableMap(new LinkedHashMap<>(rightMetrics));
        Objects.requireNonNull(failure, "failure");
    }

    /** (right − left) / left × 100; see {@link Experiment#deltaPercent(double, double)}. */
    public double deltaPercent() {
        return Experiment.deltaPercent(leftScore, rightScore);
    }

    /** How the simulated direction compares with the published one. */
    public Verdict verdict() {
        if (failure.isPresent()) {
            return Verdict.FAILED;
        }
        if (notMeasurable().isPresent()) {
            return Verdict.NOT_MEASURABLE;
        }
        return published.judge(deltaPercent());
    }

    /**
     * Why the row measured nothing, when a completed side counted fewer than
     * {@link #MIN_OPERATIONS} operations: e.g. {@code left counted 0 operations (fewer than 100)}.
     */
    public Optional<String> notMeasurable() {
        List<String> sides = new ArrayList<>();
        if (leftOperations >= 0 && leftOperations < MIN_OPERATIONS) {
            sides.add("left counted " + leftOperations);
        }
        if (rightOperations >= 0 && rightOperations < MIN_OPERATIONS) {
            sides.add("right counted " + rightOperations);
        }
        if (sides.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join(" and ", sides) + " operations in the window (fewer than " + MIN_OPERATIONS
                + ")");
    }

    /**
     * How far the simulated ratio is from the published one, when the row has a published figure
     * and a measured score on both sides: exp(|ln(right/left) − ln(1 + published Δ/100)|), 1 for
     * an exact match, 2 for a ratio off by a factor of two either way. Empty for a row without a
     * figure, a failed or {@linkplain #notMeasurable() not measurable} row, or a zero score.
     */
    public OptionalDouble errorFactor() {
        if (published.deltaPercent().isEmpty() || failure.isPresent() || notMeasurable().isPresent()
                || !(leftScore > 0) || !(rightScore > 0)) {
            return OptionalDouble.empty();
        }
        double publishedRatio = 1 + published.deltaPercent().getAsDouble() / 100;
        if (!(publishedRatio > 0)) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Math.exp(Math.abs(Math.log(rightScore / leftScore) - Math.log(publishedRatio))));
    }

    /** True when both runs completed. */
    public boolean completed() {
        return failure.isEmpty();
    }
}
