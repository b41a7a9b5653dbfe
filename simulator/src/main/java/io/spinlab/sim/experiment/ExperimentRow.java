package io.spinlab.sim.experiment;

import io.spinlab.sim.workload.WorkloadResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One row of an experiment's result: a workload on a machine under the left and the right
 * tuning, the two scores (operations per virtual ms), their Δ %, and the published figure or
 * direction beside them. A row run over several seeds keeps every seed's scores; its
 * {@code leftScore} and {@code rightScore} are then the medians, and the spread of the per-seed
 * Δ decides whether the difference is distinguishable from run-to-run noise
 * ({@link #neutral()}).
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
 * @param rightOperations operations the right run counted in its window; −1 if it failed (over
 *                        several seeds, the fewest any seed counted, for either side)
 * @param seeds        the seeds the row ran with, in order; one for a single run
 * @param leftScores   the left score of each seed, in seed order
 * @param rightScores  the right score of each seed, in seed order
 * @param windowExtension empty, or why and from which windows the row was run again over a longer one
 *                        (see {@link Experiment#EXTENDED_WINDOW_SLICES}) or after a longer warm-up (see
 *                        {@link Experiment#SETTLING_WARMUP_SLICES}); {@code parameters} then hold the last
 * @param leftHalvesRatios  per seed, the operations the left run counted in its window's second half over
 *                          those in its first ({@link io.spinlab.sim.trace.MeasuredWindow#halvesRatio()}), NaN
 *                          where not known; empty when no seed's were
 * @param rightHalvesRatios the same for the right run
 */
public record ExperimentRow(String experiment, String workload, String machine, String parameters,
                            String leftTuning, double leftScore, String rightTuning, double rightScore,
                            Published published, Map<String, Double> leftMetrics, Map<String, Double> rightMetrics,
                            Optional<String> failure, long wallMillis, boolean memoryModel, long leftOperations,
                            long rightOperations, List<Long> seeds, List<Double> leftScores,
                            List<Double> rightScores, String windowExtension, List<Double> leftHalvesRatios,
                            List<Double> rightHalvesRatios) {

    /** Fewer operations than this in a window make no score: a 0 or 1 says nothing about the primitive. */
    public static final long MIN_OPERATIONS = 100;

    /** A score is settled when its 95 % interval over the seeds lies within this many per cent of its mean. */
    public static final int SETTLED_PERCENT = 5;

    /**
     * A side's rate is still changing when, on every seed, its window's second half counted more than
     * this many times the operations of its first half, or fewer than its inverse (two thirds): a
     * start-up, not a steady rate. A harness figure, not a machine's: with the hundred operations a
     * measurable window counts, halves of a steady rate differ by such a factor on one seed about once
     * in twenty (the Poisson spread of two counts of 50), and on three seeds alike almost never; a
     * bursty workload meets it more often, which costs a longer run, not a wrong score.
     */
    public static final double RATE_CHANGE_FACTOR = 1.5;

    /**
     * A side whose per-seed scores span more than this factor (the highest over the lowest) measured no rate
     * in its window, and the row is {@linkplain #notMeasurable() not measurable}: runs of one machine, workload
     * and tuning that differ only in their seed's noise land an order of magnitude apart when the window is
     * shorter than what its count depends on (the MresWaitLatency rows from one waiter per processor on count
     * bursts, hundreds of thousands of waits while the setter is preempted with the event set, and a 4 ms
     * window's score ranges a thousandfold with where it falls: {@code simulator/EXPERIMENTS.md}). A harness
     * figure, not a machine's: a steady rate's seeds differ by per cents to tens of per cents (the published
     * tables' ± from repeated runs are of that order), never tenfold.
     */
    public static final double SEED_SPREAD_LIMIT = 10;


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
        seeds = List.copyOf(seeds);
        leftScores = List.copyOf(leftScores);
        rightScores = List.copyOf(rightScores);
        Objects.requireNonNull(windowExtension, "windowExtension");
        if (seeds.isEmpty() || leftScores.size() != seeds.size() || rightScores.size() != seeds.size()) {
            throw new IllegalArgumentException("one left and one right score per seed; got " + seeds.size()
                    + " seeds, " + leftScores.size() + " left and " + rightScores.size() + " right scores");
        }
        leftHalvesRatios = List.copyOf(leftHalvesRatios);
        rightHalvesRatios = List.copyOf(rightHalvesRatios);
        if ((!leftHalvesRatios.isEmpty() && leftHalvesRatios.size() != seeds.size())
                || (!rightHalvesRatios.isEmpty() && rightHalvesRatios.size() != seeds.size())) {
            throw new IllegalArgumentException("none or one ratio of the window's halves per seed; got " + seeds.size()
                    + " seeds, " + leftHalvesRatios.size() + " left and " + rightHalvesRatios.size() + " right ratios");
        }
    }

    /** A row without the counts of its windows' halves. */
    public ExperimentRow(String experiment, String workload, String machine, String parameters, String leftTuning,
            double leftScore, String rightTuning, double rightScore, Published published,
            Map<String, Double> leftMetrics, Map<String, Double> rightMetrics, Optional<String> failure,
            long wallMillis, boolean memoryModel, long leftOperations, long rightOperations, List<Long> seeds,
            List<Double> leftScores, List<Double> rightScores, String windowExtension) {
        this(experiment, workload, machine, parameters, leftTuning, leftScore, rightTuning, rightScore, published,
                leftMetrics, rightMetrics, failure, wallMillis, memoryModel, leftOperations, rightOperations, seeds,
                leftScores, rightScores, windowExtension, List.of(), List.of());
    }

    /** A row run over its first window only. */
    public ExperimentRow(String experiment, String workload, String machine, String parameters, String leftTuning,
            double leftScore, String rightTuning, double rightScore, Published published,
            Map<String, Double> leftMetrics, Map<String, Double> rightMetrics, Optional<String> failure,
            long wallMillis, boolean memoryModel, long leftOperations, long rightOperations, List<Long> seeds,
            List<Double> leftScores, List<Double> rightScores) {
        this(experiment, workload, machine, parameters, leftTuning, leftScore, rightTuning, rightScore, published,
                leftMetrics, rightMetrics, failure, wallMillis, memoryModel, leftOperations, rightOperations, seeds,
                leftScores, rightScores, "");
    }

    /** A row of one run with {@code seed}. */
    public ExperimentRow(String experiment, String workload, String machine, String parameters, String leftTuning,
            double leftScore, String rightTuning, double rightScore, Published published,
            Map<String, Double> leftMetrics, Map<String, Double> rightMetrics, Optional<String> failure,
            long wallMillis, boolean memoryModel, long leftOperations, long rightOperations, long seed) {
        this(experiment, workload, machine, parameters, leftTuning, leftScore, rightTuning, rightScore, published,
                leftMetrics, rightMetrics, failure, wallMillis, memoryModel, leftOperations, rightOperations,
                List.of(seed), List.of(leftScore), List.of(rightScore));
    }

    /**
     * This row, run over a longer window than first planned, saying why: e.g. {@code extended from
     * warmup=2ms,window=4ms, where left counted 64 operations in the window (fewer than 100)}.
     * Its {@code wallMillis} adds {@code earlierWallMillis}, the time the first window took.
     */
    public ExperimentRow withWindowExtension(String why, long earlierWallMillis) {
        return new ExperimentRow(experiment, workload, machine, parameters, leftTuning, leftScore, rightTuning,
                rightScore, published, leftMetrics, rightMetrics, failure, wallMillis + earlierWallMillis,
                memoryModel, leftOperations, rightOperations, seeds, leftScores, rightScores, why, leftHalvesRatios,
                rightHalvesRatios);
    }

    /** Why the row ran over a longer window than planned and which one it first ran; empty if it did not. */
    public Optional<String> windowExtended() {
        return windowExtension.isEmpty() ? Optional.empty() : Optional.of(windowExtension);
    }

    /** (right − left) / left × 100 of the row's scores; see {@link Experiment#deltaPercent(double, double)}. */
    public double deltaPercent() {
        return Experiment.deltaPercent(leftScore, rightScore);
    }

    /** Δ % of each seed: that seed's right score against its left score. */
    public List<Double> deltaPercents() {
        List<Double> deltas = new ArrayList<>();
        for (int i = 0; i < seeds.size(); i++) {
            deltas.add(Experiment.deltaPercent(leftScores.get(i), rightScores.get(i)));
        }
        return deltas;
    }

    /** The spread of the left scores over the seeds; empty for a failed row. */
    public Optional<Spread> leftSpread() {
        return completed() ? Optional.of(Spread.of(leftScores)) : Optional.empty();
    }

    /** The spread of the right scores over the seeds; empty for a failed row. */
    public Optional<Spread> rightSpread() {
        return completed() ? Optional.of(Spread.of(rightScores)) : Optional.empty();
    }

    /**
     * The spread of the per-seed Δ %, when the row ran with two or more seeds, completed, and
     * every Δ is finite; empty otherwise. Its 95 % interval is that of the per-seed score ratios
     * ({@link Spread#ofDeltaPercents}).
     */
    public Optional<Spread> deltaSpread() {
        List<Double> deltas = deltaPercents();
        if (seeds.size() < 2 || !completed() || deltas.stream().anyMatch(d -> !Double.isFinite(d))) {
            return Optional.empty();
        }
        return Optional.of(Spread.ofDeltaPercents(deltas));
    }

    /**
     * True when the row ran over two or more seeds and their spread does not decide: the 95 %
     * interval of the per-seed Δ straddles the published claim's threshold (see {@link
     * Published#judge(double, double)}), or, for a row without a claim, holds 0. The difference
     * is then not distinguishable from run-to-run noise, whatever the medians say.
     */
    public boolean neutral() {
        Optional<Spread> delta = deltaSpread();
        if (delta.isEmpty()) {
            return false;
        }
        if (published.direction() == Published.Direction.NONE) {
            return delta.get().low95() <= 0 && delta.get().high95() >= 0;
        }
        return published.judge(delta.get().low95(), delta.get().high95()) == Verdict.NEUTRAL;
    }

    /**
     * How the simulated direction compares with the published one: over two or more seeds, the
     * 95 % interval of the per-seed Δ against the claim ({@link Published#judge(double, double)}:
     * it agrees or disagrees only when the whole interval does, and is {@link Verdict#NEUTRAL}
     * when the interval straddles the claim's threshold); with one seed, the Δ itself.
     */
    public Verdict verdict() {
        if (failure.isPresent()) {
            return Verdict.FAILED;
        }
        if (notMeasurable().isPresent()) {
            return Verdict.NOT_MEASURABLE;
        }
        Optional<Spread> delta = deltaSpread();
        if (delta.isPresent()) {
            return published.judge(delta.get().low95(), delta.get().high95());
        }
        return published.judge(deltaPercent());
    }

    /**
     * Why the row measured nothing, if it did not: a side counted too few operations ({@link
     * #tooFewOperations()}), or its seeds' scores lie more than {@value #SEED_SPREAD_LIMIT} times apart
     * ({@link #seedsApart()}). Such a row has no verdict, no error factor and no place in a total.
     */
    public Optional<String> notMeasurable() {
        Optional<String> tooFew = tooFewOperations();
        return tooFew.isPresent() ? tooFew : seedsApart();
    }

    /**
     * Why a side's score is no measurement because its seeds disagree, if one's does: over two or more seeds,
     * the highest score of a completed side is more than {@value #SEED_SPREAD_LIMIT} times its lowest; e.g.
     * {@code the left side's scores over 3 seeds span 185.8× (1145.3 to 212836.8 per ms; more than 10×)}.
     * Empty for a failed row, one seed, or seeds within the limit. The window is not made longer for it (a
     * window long enough can cost an hour of processor time for one experiment's rows); {@code --settle}
     * lengthens such rows, since their scores are not settled either.
     */
    public Optional<String> seedsApart() {
        if (!completed() || seeds.size() < 2) {
            return Optional.empty();
        }
        List<String> sides = new ArrayList<>();
        seedsApart("left", leftScores).ifPresent(sides::add);
        seedsApart("right", rightScores).ifPresent(sides::add);
        return sides.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", sides));
    }

    /**
     * The rule of {@link #seedsApart()} for one side's {@code scores}, one per seed, shared with {@code hunt}: why
     * they give no rate if the highest is more than {@value #SEED_SPREAD_LIMIT} times the lowest, the side named
     * {@code side}. Empty for fewer than two scores, or a lowest score of 0 (a side that counted too few
     * operations says so itself).
     */
    public static Optional<String> seedsApart(String side, List<Double> scores) {
        if (scores.size() < 2) {
            return Optional.empty();
        }
        double low = scores.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double high = scores.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        if (!(low > 0) || !(high > low * SEED_SPREAD_LIMIT)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "the %s side's scores over %d seeds span %.1f× (%.1f to %.1f "
                + "per ms; more than %.0f×)", side, scores.size(), high / low, low, high, SEED_SPREAD_LIMIT));
    }

    /**
     * Why the row measured nothing because a completed side counted fewer than
     * {@link #MIN_OPERATIONS} operations, or batches of them where the workload counts in
     * batches ({@link WorkloadResult#OPERATIONS_PER_COUNT}: its score moves by a whole batch or not
     * at all), on some seed: e.g. {@code left counted 0 operations in the window (fewer than 100)}.
     * Such a row runs again over a longer window ({@link Experiment}).
     */
    public Optional<String> tooFewOperations() {
        long left = operationsPerCount(leftMetrics);
        long right = operationsPerCount(rightMetrics);
        List<String> sides = new ArrayList<>();
        if (countedTooFew(true)) {
            sides.add("left counted " + counted(leftOperations, left));
        }
        if (countedTooFew(false)) {
            sides.add("right counted " + counted(rightOperations, right));
        }
        if (sides.isEmpty()) {
            return Optional.empty();
        }
        boolean batches = left > 1 || right > 1;
        return Optional.of(String.join(" and ", sides) + " operations in the window (fewer than " + MIN_OPERATIONS
                + (batches ? " batches" : "") + ")");
    }

    /**
     * Whether the left (or right) side completed but counted fewer than {@link #MIN_OPERATIONS}
     * operations, or batches, on some seed: its score is no measurement, and the row is
     * {@linkplain #notMeasurable() not measurable}.
     */
    public boolean countedTooFew(boolean left) {
        long operations = left ? leftOperations : rightOperations;
        return operations >= 0 && operations / operationsPerCount(left ? leftMetrics : rightMetrics) < MIN_OPERATIONS;
    }

    /**
     * What one side counted, for a reader: {@code 17 operations}, or {@code 60 batches of 512}
     * where the workload counts in batches; {@code failed} for a side that did not complete.
     */
    public String counted(boolean left) {
        long operations = left ? leftOperations : rightOperations;
        long perCount = operationsPerCount(left ? leftMetrics : rightMetrics);
        if (operations < 0) {
            return "failed";
        }
        return perCount == 1 ? operations + " operations" : operations / perCount + " batches of " + perCount;
    }

    /** Whether either side counts its operations in batches ({@link WorkloadResult#OPERATIONS_PER_COUNT} above 1). */
    public boolean countsInBatches() {
        return operationsPerCount(leftMetrics) > 1 || operationsPerCount(rightMetrics) > 1;
    }

    /** The batch a run's operations are counted in ({@link WorkloadResult#OPERATIONS_PER_COUNT}); 1 if it says none. */
    private static long operationsPerCount(Map<String, Double> metrics) {
        Double perCount = metrics.get(WorkloadResult.OPERATIONS_PER_COUNT);
        return perCount == null || perCount < 1 ? 1 : perCount.longValue();
    }

    private static String counted(long operations, long perCount) {
        return perCount == 1 ? Long.toString(operations)
                : operations + " (" + operations / perCount + " batches of " + perCount + ")";
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

    /**
     * The simulated left score over the published one, when the source printed the left score in a
     * unit that converts to spinlab's ({@link Published#leftPerMs()}): 1 for an exact match, 10 for a
     * simulated score ten times the published. Empty for a row without such a score, a failed or
     * {@linkplain #notMeasurable() not measurable} row, or a zero score.
     */
    public OptionalDouble leftOverPublished() {
        if (published.leftPerMs().isEmpty() || failure.isPresent() || notMeasurable().isPresent()
                || !(leftScore > 0) || Double.isInfinite(leftScore)) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(leftScore / published.leftPerMs().getAsDouble());
    }

    /**
     * Why a side's score is not settled over the seeds, if it is not: its 95 % interval
     * ({@link Spread}, Student's t over the seeds) is wider than ±{@value #SETTLED_PERCENT} % of
     * the interval's centre, the mean; e.g. {@code the left score's 95 % interval is ±12.3 % of
     * its mean over 3 seeds (wider than ±5 %)}. A single seed has no interval, so it is never
     * settled. Empty for a settled or a failed row.
     */
    public Optional<String> unsettled() {
        if (!completed()) {
            return Optional.empty();
        }
        if (seeds.size() < 2) {
            return Optional.of("one seed gives the score no interval");
        }
        List<String> sides = new ArrayList<>();
        unsettled("left", leftScores).ifPresent(sides::add);
        unsettled("right", rightScores).ifPresent(sides::add);
        if (sides.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join(" and ", sides) + " over " + seeds.size() + " seeds (wider than ±"
                + SETTLED_PERCENT + " %)");
    }

    private static Optional<String> unsettled(String side, List<Double> scores) {
        Spread spread = Spread.of(scores);
        double mean = (spread.low95() + spread.high95()) / 2;
        double halfWidth = (spread.high95() - spread.low95()) / 2;
        if (mean > 0 && halfWidth <= mean * SETTLED_PERCENT / 100.0) {
            return Optional.empty();
        }
        String width = mean > 0 ? String.format(Locale.ROOT, "±%.1f %% of its mean", 100 * halfWidth / mean)
                : String.format(Locale.ROOT, "%.1f to %.1f around a mean of %.1f", spread.low95(), spread.high95(),
                        mean);
        return Optional.of("the " + side + " score's 95 % interval is " + width);
    }

    /**
     * Why the row's measurement falls short of the measurement protocol's window, if it does: a completed,
     * measurable row whose window spans fewer than {@value Experiment#EXTENDED_WINDOW_SLICES} of the machine's
     * time slices of {@code timeSliceNanos} and whose scores are {@linkplain #unsettled() unsettled} over the
     * seeds (a 95 % interval wider than ±{@value #SETTLED_PERCENT} % of its mean). The protocol asks for one or
     * the other, so that neither one preemption nor one seed's trajectory decides a score; {@code reproduce}
     * runs most rows in windows of one or two slices to keep within its time, and this says which rows that
     * leaves short, e.g. {@code a window of 4 ms (1.0 time slice) and the left score's 95 % interval is ±64.1 %
     * of its mean over 3 seeds (wider than ±5 %)}. Empty for a failed or not measurable row, or one whose
     * parameters name no window.
     */
    public Optional<String> windowShortOfProtocol(double timeSliceNanos) {
        if (!(timeSliceNanos > 0)) {
            throw new IllegalArgumentException("timeSliceNanos = " + timeSliceNanos + "; must be positive");
        }
        if (!completed() || notMeasurable().isPresent()) {
            return Optional.empty();
        }
        OptionalLong window = windowNanos();
        if (window.isEmpty()) {
            return Optional.empty();
        }
        double slices = window.getAsLong() / timeSliceNanos;
        if (slices >= Experiment.EXTENDED_WINDOW_SLICES) {
            return Optional.empty();
        }
        return unsettled().map(why -> String.format(Locale.ROOT, "a window of %s (%.1f time slice%s) and %s",
                io.spinlab.sim.workload.Durations.format(window.getAsLong()), slices, slices == 1 ? "" : "s", why));
    }

    /** The measured window named by the row's {@code window=} parameter, ns; empty if it names none. */
    OptionalLong windowNanos() {
        for (String pair : parameters.split(",")) {
            if (pair.startsWith("window=")) {
                try {
                    return OptionalLong.of(io.spinlab.sim.workload.Durations.parseNanos("window",
                            pair.substring("window=".length())));
                } catch (IllegalArgumentException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Why the row's window measured a rate still changing, if it did: a measurable side whose window's
     * second half counted more than {@value #RATE_CHANGE_FACTOR} times the operations of its first, or
     * fewer than its inverse, on every seed ({@link #RATE_CHANGE_FACTOR}); e.g. {@code the right side
     * counted 1.77 to 1.92 times as many operations in the window's second half as in its first, on
     * every seed}. Empty for a steady, failed or {@linkplain #notMeasurable() not measurable} row, or one
     * whose halves were not counted.
     */
    public Optional<String> rateChanging() {
        return notMeasurable().isPresent() ? Optional.empty() : halvesApart();
    }

    /**
     * The rule of {@link #rateChanging()} for any completed row that counted enough operations, its seeds
     * {@linkplain #seedsApart() apart} or not: what sends a row to a later window ({@link Experiment}).
     */
    Optional<String> halvesApart() {
        if (!completed() || tooFewOperations().isPresent()) {
            return Optional.empty();
        }
        return rateChanging("left", leftHalvesRatios, "right", rightHalvesRatios);
    }

    /**
     * The rule of {@link #rateChanging()} for two sides named as the caller calls them, given each side's
     * {@linkplain io.spinlab.sim.trace.MeasuredWindow#halvesRatio() halves ratio} on every seed (a side with no
     * ratios, or a NaN among them, is not judged); e.g. {@code the baseline side counted 1.77 to 1.92 times as
     * many operations in the window's second half as in its first, on every seed}. The regression hunt judges
     * its cases by it too.
     */
    public static Optional<String> rateChanging(String firstSide, List<Double> firstRatios, String secondSide,
            List<Double> secondRatios) {
        List<String> sides = new ArrayList<>();
        rateChanging(firstSide, firstRatios).ifPresent(sides::add);
        rateChanging(secondSide, secondRatios).ifPresent(sides::add);
        if (sides.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join(" and ", sides) + " in the window's second half as in its first, on every seed");
    }

    private static Optional<String> rateChanging(String side, List<Double> ratios) {
        if (ratios.isEmpty() || ratios.stream().anyMatch(r -> Double.isNaN(r))) {
            return Optional.empty();
        }
        double low = ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double high = ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        if (!(low > RATE_CHANGE_FACTOR) && !(high < 1 / RATE_CHANGE_FACTOR)) {
            return Optional.empty();
        }
        String range = low == high ? times(low) : times(low) + " to " + times(high);
        return Optional.of("the " + side + " side counted " + range + " times as many operations");
    }

    private static String times(double ratio) {
        return Double.isInfinite(ratio) ? "∞" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** True when both runs completed. */
    public boolean completed() {
        return failure.isEmpty();
    }
}
