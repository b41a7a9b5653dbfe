package io.spinlab.properties.hunt;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.sim.SimGens;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Spread;
import io.spinlab.sim.trace.MeasuredWindow;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Regression hunting between two heuristics: generate machines, thread multipliers, run lengths
 * and seeds; run the baseline and the candidate tuning on each in the simulator, over several
 * seeds with the machine's run-to-run noise; look for a case where the candidate scores worse
 * than the baseline by more than a threshold on every seed's evidence (the 95 % interval of the
 * per-seed Δ below −threshold). A case in which a side counted fewer than
 * {@value #MIN_OPERATIONS} operations on a seed is no evidence either way (as in {@code reproduce}:
 * a handful of operations, or none in a window still inside the run's start-up, is not a score), nor
 * is one in which a side's seeds scored more than {@value ExperimentRow#SEED_SPREAD_LIMIT} times apart
 * ({@link ExperimentRow#seedsApart(String, List)}: the window caught bursts, not a rate), nor one whose
 * window a side spent in its start-up on every seed, by the rule that sends a {@code reproduce} row
 * to a later window ({@link ExperimentRow#rateChanging()}: its second half counted more than
 * {@value ExperimentRow#RATE_CHANGE_FACTOR} times the operations of its first, or
 * fewer than the inverse): such a loss says when the rate settles, not what it settles to. A
 * find is shrunk by the property engine to the smallest machine, fewest threads and shortest run
 * that still regresses measurably, and reported with the command that replays it.
 */
public final class Hunt {

    /**
     * Fewer operations (or batches, where a workload counts in batches) than this in a side's
     * window, on any seed, make a case no evidence: {@link ExperimentRow#MIN_OPERATIONS}, as in
     * {@code reproduce}.
     */
    public static final long MIN_OPERATIONS = ExperimentRow.MIN_OPERATIONS;

    /** Most cases one hunt may try: beyond this a hunt on 2 cores runs for days. */
    public static final int MAX_BUDGET = 100_000;

    /** Thread multipliers tried, simplest (fewest threads) first. */
    public static final List<Double> MULTIPLIERS = List.of(0.5, 1.0, 2.0, 4.0, 16.0);
    /** Measured windows tried, in virtual microseconds, shortest first. */
    public static final List<Integer> WINDOWS_MICROS = List.of(300, 1_000, 3_000);

    /**
     * What to hunt.
     *
     * @param baseline the tuning the candidate must not lose to
     * @param candidate the tuning under suspicion
     * @param workloads the workloads (see {@link HuntWorkloads#named} for registry ones by name)
     * @param budget how many cases to try before concluding nothing regresses
     * @param seed the hunt's seed (the property engine's run seed)
     * @param thresholdPercent a loss larger than this (in % of the baseline score) is a regression
     * @param faults    faults injected in every run
     * @param seeds     simulation seeds per case and tuning (the case's seed and the ones after it)
     * @param noise     whether the machine's run-to-run noise is on
     */
    public record Config(Tuning baseline, Tuning candidate, List<WorkloadSource> workloads, int budget, long seed,
                         double thresholdPercent, Faults faults, int seeds, boolean noise) {

        /** Seeds per case when not told. */
        public static final int DEFAULT_SEEDS = 3;

        /** A hunt without injected faults, over {@value #DEFAULT_SEEDS} seeds per case with noise. */
        public Config(Tuning baseline, Tuning candidate, List<WorkloadSource> workloads, int budget, long seed,
                      double thresholdPercent) {
            this(baseline, candidate, workloads, budget, seed, thresholdPercent, Faults.none());
        }

        /** A hunt over {@value #DEFAULT_SEEDS} seeds per case with noise. */
        public Config(Tuning baseline, Tuning candidate, List<WorkloadSource> workloads, int budget, long seed,
                      double thresholdPercent, Faults faults) {
            this(baseline, candidate, workloads, budget, seed, thresholdPercent, faults, DEFAULT_SEEDS, true);
        }

        public Config {
            if (seeds < 1 || seeds > 100) {
                throw new IllegalArgumentException("seeds = " + seeds + " is out of range; allowed 1..100");
            }
            Objects.requireNonNull(faults, "faults");
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(candidate, "candidate");
            workloads = List.copyOf(workloads);
            if (workloads.isEmpty()) {
                throw new IllegalArgumentException("no workloads to hunt over; valid: "
                        + String.join(", ", HuntWorkloads.names()));
            }
            workloads.forEach(HuntWorkloads::check);
            if (budget < 1 || budget > MAX_BUDGET) {
                throw new IllegalArgumentException("budget = " + budget + " is out of range; allowed 1.." + MAX_BUDGET
                        + " (each case runs two simulations)");
            }
            if (!(thresholdPercent >= 0 && thresholdPercent < 100)) {
                throw new IllegalArgumentException("threshold = " + thresholdPercent + " % is out of range; allowed 0..100");
            }
        }
    }

    /**
     * The outcome of a hunt.
     *
     * @param found the shrunk regressing case, if any
     * @param original the case first found, before shrinking
     * @param baselineScore the baseline's score on the shrunk case (ops/ms)
     * @param candidateScore the candidate's score on the shrunk case (ops/ms)
     * @param casesTried how many cases were run (before shrinking)
     * @param shrinkSteps how many times shrinking made the case simpler
     * @param replay the command that replays the shrunk case
     * @param huntSeed the seed of the hunt
     * @param replayed the case a replay ran, if this is a replay that found no regression
     * @param notMeasurable why the replayed case is no evidence because a side counted too few operations, or its
     *                      seeds scored more than {@value ExperimentRow#SEED_SPREAD_LIMIT} times apart; empty if
     *                      neither
     * @param rateChanging why the replayed case is no evidence because a side's rate still changed inside its
     *                     window on every seed; empty if neither did
     */
    public record Report(Optional<HuntCase> found, Optional<HuntCase> original, double baselineScore,
                         double candidateScore, int casesTried, int shrinkSteps, String replay, long huntSeed,
                         Optional<HuntCase> replayed, Optional<String> notMeasurable,
                         Optional<String> rateChanging) {

        /** The candidate's change against the baseline on the shrunk case, in %. */
        public double deltaPercent() {
            return baselineScore == 0 ? 0 : (candidateScore - baselineScore) * 100 / baselineScore;
        }

        private static String seedsText(Config config) {
            return config.seeds() == 1 ? "" : String.format(Locale.ROOT, " (medians of %d seeds%s; every seed's Δ "
                    + "interval below -%.1f %%)", config.seeds(), config.noise() ? " with noise" : "",
                    config.thresholdPercent());
        }

        /** The report in words, with the replay line of a find. */
        public String describe(Config config) {
            if (found.isEmpty() && replayed.isPresent() && notMeasurable.isPresent()) {
                return String.format(Locale.ROOT, "hunt %s vs %s, replayed case: %s%n  not measurable: %s",
                        config.candidate().describe(), config.baseline().describe(), replayed.get(),
                        notMeasurable.get());
            }
            if (found.isEmpty() && replayed.isPresent()) {
                String verdict = rateChanging.map(why -> "no evidence: " + why + " (a start-up)").orElse(
                        String.format(Locale.ROOT, "no regression beyond %.1f %%", config.thresholdPercent()));
                return String.format(Locale.ROOT, "hunt %s vs %s, replayed case: %s%n  baseline:  %.1f ops/ms%n"
                        + "  candidate: %.1f ops/ms, %+.1f %%: %s",
                        config.candidate().describe(), config.baseline().describe(), replayed.get(), baselineScore,
                        candidateScore, deltaPercent(), verdict);
            }
            if (found.isEmpty()) {
                return String.format(Locale.ROOT, "hunt %s vs %s over %s: no regression beyond %.1f %% in %d cases "
                        + "(seed %d)", config.candidate().describe(), config.baseline().describe(),
                        config.workloads().stream().map(WorkloadSource::name).toList(),
                        config.thresholdPercent(), casesTried, huntSeed);
            }
            return String.format(Locale.ROOT, "hunt %s vs %s: regression found after %d cases, shrunk in %d steps%n"
                            + "  case:      %s%n  baseline:  %.1f ops/ms (%s)%n  candidate: %.1f ops/ms (%s), %+.1f %%"
                            + "%s%n"
                            + "  first found as: %s%n  replay: %s", config.candidate().describe(),
                    config.baseline().describe(), casesTried, shrinkSteps, found.get(), baselineScore,
                    config.baseline().describe(), candidateScore, config.candidate().describe(), deltaPercent(),
                    seedsText(config), original.orElseThrow(), replay);
        }
    }

    private Hunt() {
    }

    /** The generator of cases for {@code workloads}: machines from the presets' range, multipliers, lengths, seeds. */
    public static Gen<HuntCase> cases(List<WorkloadSource> workloads) {
        Gen<WorkloadSource> workload = Gens.choose(workloads);
        Gen<MachineProfile> machine = SimGens.machines(MachinePresets.byName("skylake-i7-6700"), SimGens.PAUSE_CYCLES,
                List.of(2, 4, 8, 16));
        Gen<Double> multiplier = Gens.choose(MULTIPLIERS);
        Gen<Integer> window = Gens.choose(WINDOWS_MICROS);
        Gen<Long> seed = Gens.longs(0, 1_000);
        return source -> new HuntCase(workload.generate(source), machine.generate(source),
                multiplier.generate(source), window.generate(source), seed.generate(source));
    }

    /** Runs one tuning on one case (one seed, no noise) and returns its score in ops/ms. */
    public static double score(HuntCase huntCase, Tuning tuning) {
        return score(huntCase, tuning, Faults.none(), huntCase.seed(), false);
    }

    /**
     * Runs one tuning on one case with {@code seed} and {@code faults} injected, under the full
     * cost model (shared memory and instructions costed), and returns its score in ops/ms.
     */
    public static double score(HuntCase huntCase, Tuning tuning, Faults faults, long seed, boolean noise) {
        return result(huntCase, tuning, faults, seed, noise).opsPerMs();
    }

    /** Whether {@code result} counted fewer than {@link #MIN_OPERATIONS} operations, or batches of them. */
    private static boolean countedTooFew(WorkloadResult result) {
        Double perCount = result.metrics().get(WorkloadResult.OPERATIONS_PER_COUNT);
        long batch = perCount == null || perCount < 1 ? 1 : perCount.longValue();
        return result.operations() / batch < MIN_OPERATIONS;
    }

    private static WorkloadResult result(HuntCase huntCase, Tuning tuning, Faults faults, long seed, boolean noise) {
        return simulated(huntCase, tuning, faults, seed, noise).result();
    }

    /** One completed run of a case; throws if the simulation did not complete. */
    private static SimulatedRun simulated(HuntCase huntCase, Tuning tuning, Faults faults, long seed, boolean noise) {
        SimulatedRun run = huntCase.workload().simulate(HuntWorkloads.parameters(huntCase), tuning,
                Simulation.builder(huntCase.machine()).seed(seed).faults(faults).memoryModel(true).noise(noise));
        run.simulation().requireCompleted();
        return run;
    }

    /** The run's {@link MeasuredWindow#halvesRatio()}; NaN if its workload announced no window. */
    private static double halvesRatio(SimulatedRun run) {
        return run.simulation().metrics().window().map(MeasuredWindow::halvesRatio).orElse(Double.NaN);
    }

    /**
     * Both tunings on one case over the configuration's seeds: the medians, and whether the
     * candidate regressed. With two or more seeds a regression needs the whole 95 % interval of
     * the per-seed Δ below −threshold, so that one unlucky trajectory is never a find; with one
     * seed, the Δ itself. A case in which a side counted fewer than {@link #MIN_OPERATIONS}
     * operations on some seed never regresses: it measured nothing; nor does one in which a side's
     * seeds scored more than {@value ExperimentRow#SEED_SPREAD_LIMIT} times apart (bursts, not a rate); nor
     * one in which a side's rate still changed inside its window on every seed
     * ({@link ExperimentRow#rateChanging(String, List, String, List)}): it measured a start-up.
     */
    static Outcome outcome(HuntCase huntCase, Config config) {
        List<Double> base = new ArrayList<>();
        List<Double> cand = new ArrayList<>();
        List<Double> deltas = new ArrayList<>();
        List<String> tooFew = new ArrayList<>();
        List<Double> baseHalves = new ArrayList<>();
        List<Double> candHalves = new ArrayList<>();
        for (int k = 0; k < config.seeds(); k++) {
            long seed = huntCase.seed() + k;
            SimulatedRun baseRun = simulated(huntCase, config.baseline(), config.faults(), seed, config.noise());
            SimulatedRun candRun = simulated(huntCase, config.candidate(), config.faults(), seed, config.noise());
            baseHalves.add(halvesRatio(baseRun));
            candHalves.add(halvesRatio(candRun));
            WorkloadResult b = baseRun.result();
            WorkloadResult c = candRun.result();
            base.add(b.opsPerMs());
            cand.add(c.opsPerMs());
            deltas.add(b.opsPerMs() == 0 ? (c.opsPerMs() == 0 ? 0 : Double.POSITIVE_INFINITY)
                    : (c.opsPerMs() - b.opsPerMs()) * 100 / b.opsPerMs());
            if (countedTooFew(b)) {
                tooFew.add("the baseline counted " + b.operations() + " operations with seed " + seed);
            }
            if (countedTooFew(c)) {
                tooFew.add("the candidate counted " + c.operations() + " operations with seed " + seed);
            }
        }
        double baseline = Spread.of(base).median();
        double candidate = Spread.of(cand).median();
        Optional<String> notMeasurable = tooFew.isEmpty() ? seedsApart(base, cand)
                : Optional.of(String.join(", ", tooFew) + " in the window (fewer than " + MIN_OPERATIONS + ")");
        Optional<String> rateChanging = notMeasurable.isPresent() ? Optional.empty()
                : ExperimentRow.rateChanging("baseline", baseHalves, "candidate", candHalves);
        boolean regressed;
        if (notMeasurable.isPresent() || rateChanging.isPresent()) {
            regressed = false;
        } else if (deltas.size() >= 2 && deltas.stream().allMatch(Double::isFinite)) {
            regressed = Spread.ofDeltaPercents(deltas).high95() < -config.thresholdPercent();
        } else {
            regressed = candidate < baseline * (1 - config.thresholdPercent() / 100);
        }
        return new Outcome(baseline, candidate, regressed, notMeasurable, rateChanging);
    }

    /** Why the two sides' scores give no rate, if a side's seeds scored too far apart (reproduce's rule). */
    private static Optional<String> seedsApart(List<Double> baseline, List<Double> candidate) {
        List<String> sides = new ArrayList<>();
        ExperimentRow.seedsApart("baseline", baseline).ifPresent(sides::add);
        ExperimentRow.seedsApart("candidate", candidate).ifPresent(sides::add);
        return sides.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", sides));
    }

    /**
     * What one case gave: the medians, the verdict, why it measured nothing if it did not, and why its
     * window was a start-up if it was.
     */
    record Outcome(double baseline, double candidate, boolean regressed, Optional<String> notMeasurable,
                   Optional<String> rateChanging) {
    }

    /** Hears about each case as the hunt runs it, so that a command line can show progress. */
    public interface Listener {

        /** Hears nothing. */
        Listener NONE = (huntCase, tried, shrinking) -> {
        };

        /**
         * One case ran under both tunings.
         *
         * @param tried     cases run so far, this one included
         * @param shrinking whether the hunt has found a regression and is now shrinking it
         */
        void caseRan(HuntCase huntCase, int tried, boolean shrinking);
    }

    /** Hunts; never throws for a find — the report says what was found. */
    public static Report run(Config config) {
        return run(config, Listener.NONE);
    }

    /** Hunts, telling {@code listener} about every case run. */
    public static Report run(Config config, Listener listener) {
        return run(config, null, listener);
    }

    /** Replays one case by its printed choice sequence (as {@link Report#replay()} says). */
    public static Report replay(Config config, String choices) {
        return run(config, choices, Listener.NONE);
    }

    private static Report run(Config config, String replayChoices, Listener listener) {
        int[] tried = {0};
        int[] triedBeforeFind = {0};
        HuntCase[] last = {null};
        double[] lastScores = {0, 0};
        List<Optional<String>> lastNotMeasurable = new ArrayList<>(List.of(Optional.<String>empty()));
        List<Optional<String>> lastRateChanging = new ArrayList<>(List.of(Optional.<String>empty()));
        Property<HuntCase> property = Property.forAll(cases(config.workloads()))
                .named("hunt " + config.candidate().describe() + " vs " + config.baseline().describe())
                .tries(config.budget()).seed(config.seed());
        if (replayChoices != null) {
            property.replay(replayChoices);
        }
        try {
            property.run(huntCase -> {
                tried[0]++;
                Outcome outcome = outcome(huntCase, config);
                double base = outcome.baseline();
                double cand = outcome.candidate();
                last[0] = huntCase;
                lastScores[0] = base;
                lastScores[1] = cand;
                lastNotMeasurable.set(0, outcome.notMeasurable());
                lastRateChanging.set(0, outcome.rateChanging());
                boolean regressed = outcome.regressed();
                if (regressed && triedBeforeFind[0] == 0) {
                    triedBeforeFind[0] = tried[0];
                }
                listener.caseRan(huntCase, tried[0], triedBeforeFind[0] != 0);
                if (regressed) {
                    throw new Regression(huntCase, base, cand);
                }
            });
            if (replayChoices != null) {
                return new Report(Optional.empty(), Optional.empty(), lastScores[0], lastScores[1], tried[0], 0, "",
                        config.seed(), Optional.ofNullable(last[0]), lastNotMeasurable.get(0), lastRateChanging.get(0));
            }
            return new Report(Optional.empty(), Optional.empty(), 0, 0, tried[0], 0, "", config.seed(),
                    Optional.empty(), Optional.empty(), Optional.empty());
        } catch (PropertyFailure failure) {
            if (!(failure.getCause() instanceof Regression regression)) {
                throw failure;
            }
            HuntCase original = (HuntCase) failure.originalExample();
            String replay = "./spinlab hunt --baseline " + config.baseline().describe() + " --candidate "
                    + config.candidate().describe() + " "
                    + String.join(" ", config.workloads().stream().map(WorkloadSource::options).toList())
                    + " --threshold " + config.thresholdPercent()
                    + (config.faults().any() ? " --faults " + config.faults().describe() : "")
                    + (config.seeds() != Config.DEFAULT_SEEDS ? " --seeds " + config.seeds() : "")
                    + (config.noise() ? "" : " --no-noise")
                    + " --replay " + failure.minimalChoices();
            return new Report(Optional.of(regression.huntCase), Optional.of(original), regression.baseline,
                    regression.candidate, triedBeforeFind[0], failure.shrinkSteps(), replay, config.seed(),
                    Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    /** A case where the candidate lost: what the property engine shrinks. */
    static final class Regression extends AssertionError {
        private static final long serialVersionUID = 1L;
        private final transient HuntCase huntCase;
        private final double baseline;
        private final double candidate;

        Regression(HuntCase huntCase, double baseline, double candidate) {
            super(String.format(Locale.ROOT, "candidate %.1f ops/ms < baseline %.1f ops/ms on %s", candidate, baseline,
                    huntCase));
            this.huntCase = huntCase;
            this.baseline = baseline;
            this.candidate = candidate;
        }
    }
}
