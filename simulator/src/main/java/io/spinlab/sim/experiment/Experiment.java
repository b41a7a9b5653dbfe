package io.spinlab.sim.experiment;

import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Budgets;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.Durations;
import io.spinlab.sim.workload.ScoreChoice;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/**
 * A named set of simulated runs comparing two tunings: every {@link PlannedRow} runs once under
 * the left tuning (the older heuristic) and once under the right one (the newer), with the same
 * machine and seed, and becomes an {@link ExperimentRow} with both scores, their Δ % and the
 * published figure. Get one from {@link Experiments}.
 *
 * <pre>{@code
 * List<ExperimentRow> rows = Experiments.byName("mres-proc-scaling").run(ProgressListener.NONE);
 * }</pre>
 *
 * <p>Immutable; {@link #run} may be called any number of times and gives the same rows each
 * time (simulated runs are deterministic per seed, noise included; only
 * {@link ExperimentRow#wallMillis()} varies). {@link #withSeeds} runs each row over several
 * seeds and {@link #withNoise} turns on the machine's run-to-run noise, which together give each
 * row a spread. A
 * run that does not complete (deadlock, budget) does not stop the experiment: its row records
 * the failure and the line that reproduces it.
 */
public final class Experiment {

    /**
     * Limits of one simulated run: generous, so that hitting one is a finding, not routine. The
     * steps: EventPipe's 33 threads on the 96-processor Ivy Bridge take about 10 M scheduling
     * events per virtual ms, so a ten-slice window after its warm-up (50 ms) needs about 500 M
     * (400 M, the limit until 2026-12-05, ran out at 41 ms).
     */
    static final Budgets ROW_BUDGETS = Budgets.defaults().withMaxVirtualNanos(2_000_000_000L)
            .withMaxSteps(1_000_000_000L).withMaxWallMillis(300_000L);

    private final String name;
    private final String description;
    private final Tuning left;
    private final Tuning right;
    private final List<PlannedRow> rows;
    private final List<String> publishedSummary;
    private final Map<String, Published> publishedTotals;
    private final boolean memoryModel;
    private final int seeds;
    private final boolean noise;
    private final boolean extendWindows;
    private final boolean settle;

    /**
     * @param name             the experiment's fixed name
     * @param description      one paragraph: the change, where it was published, what the rows compare
     * @param left             the older heuristic
     * @param right            the newer heuristic
     * @param rows             the rows, in report order
     * @param publishedSummary published claims about the experiment as a whole (totals), one line each
     */
    public Experiment(String name, String description, Tuning left, Tuning right, List<PlannedRow> rows,
            List<String> publishedSummary) {
        this(name, description, left, right, rows, publishedSummary, Map.of(), true, 1, false, true, false);
    }

    private Experiment(String name, String description, Tuning left, Tuning right, List<PlannedRow> rows,
            List<String> publishedSummary, Map<String, Published> publishedTotals, boolean memoryModel, int seeds,
            boolean noise, boolean extendWindows, boolean settle) {
        this.memoryModel = memoryModel;
        this.extendWindows = extendWindows;
        this.settle = settle;
        this.seeds = seeds;
        this.noise = noise;
        this.publishedTotals = Collections.unmodifiableMap(new LinkedHashMap<>(publishedTotals));
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.left = Objects.requireNonNull(left, "left");
        this.right = Objects.requireNonNull(right, "right");
        this.rows = List.copyOf(rows);
        this.publishedSummary = List.copyOf(publishedSummary);
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public Tuning left() {
        return left;
    }

    public Tuning right() {
        return right;
    }

    /** The planned rows, in report order. */
    public List<PlannedRow> rows() {
        return rows;
    }

    /** Published claims about the experiment as a whole, one line each; may be empty. */
    public List<String> publishedSummary() {
        return publishedSummary;
    }

    /**
     * What was published about the total of each machine's rows (the "Total" line under a
     * published table), by machine name, in report order; may be empty. The published total
     * covers the published table's rows, which need not be the rows of this experiment.
     */
    public Map<String, Published> publishedTotals() {
        return publishedTotals;
    }

    /**
     * This experiment with {@code total} as the published figure for the total of the rows on
     * {@code machine} (see {@link #publishedTotals()}).
     */
    public Experiment withPublishedTotal(String machine, Published total) {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(total, "total");
        Map<String, Published> totals = new LinkedHashMap<>(publishedTotals);
        totals.put(machine, total);
        return new Experiment(name, description, left, right, rows, publishedSummary, totals, memoryModel, seeds,
                noise, extendWindows, settle);
    }

    /**
     * This experiment with only the rows {@code keep} accepts (a reduced configuration). A
     * machine keeps its published total only when every one of its rows is kept: the published
     * figure totals all of them, so a total over fewer rows is not comparable with it.
     */
    public Experiment select(Predicate<PlannedRow> keep) {
        List<PlannedRow> kept = rows.stream().filter(keep).toList();
        Map<String, Published> totals = new LinkedHashMap<>();
        publishedTotals.forEach((machine, total) -> {
            boolean whole = rows.stream().filter(r -> r.machine().name().equals(machine)).allMatch(kept::contains);
            if (whole) {
                totals.put(machine, total);
            }
        });
        return new Experiment(name, description, left, right, kept, publishedSummary, totals, memoryModel, seeds,
                noise, extendWindows, settle);
    }

    /**
     * This experiment with the simulator's full cost model on (the default) or off (fast mode).
     * On, the primitives and workloads run instrumented: every volatile and VarHandle access is
     * a scheduling point priced by a per-core cache model (a CAS can lose, a contended line
     * moves), and the bytecode between scheduling points costs the machine's
     * {@code cyclesPerBytecode} each. Off, only Platform calls cost time, and the code between
     * two of them runs atomically and for free: quicker, and only for quick sweeps. Each row's
     * workload is rebuilt inside the instrumenting class loader from its
     * {@linkplain PlannedRow#source() source} and parameters.
     */
    public Experiment withMemoryModel(boolean on) {
        return new Experiment(name, description, left, right, rows, publishedSummary, publishedTotals, on, seeds,
                noise, extendWindows, settle);
    }

    /**
     * This experiment with every row's warm-up and window multiplied by {@code factor} (rows
     * rebuilt from their source with the scaled parameters). Under the memory model
     * operations cost tens to hundreds of times more virtual time, so a window long enough for
     * Platform-calls-only runs may hold only a few of them.
     *
     * @throws IllegalArgumentException if {@code factor} is not positive
     */
    public Experiment withWindowScale(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("window scale = " + factor + "; allowed a positive number");
        }
        List<PlannedRow> scaled = rows.stream().map(r -> new PlannedRow(scaleWindow(r, factor), r.machine(),
                r.published(), r.seed(), r.source())).toList();
        return new Experiment(name, description, left, right, scaled, publishedSummary, publishedTotals,
                memoryModel, seeds, noise, extendWindows, settle);
    }

    private static Workload scaleWindow(PlannedRow row, double factor) {
        Workload workload = row.workload();
        List<String> parts = new ArrayList<>();
        for (String pair : workload.parameters().split(",")) {
            int eq = pair.indexOf('=');
            String key = pair.substring(0, eq);
            if (key.equals("warmup") || key.equals("window")) {
                long nanos = Durations.parseNanos(key, pair.substring(eq + 1));
                parts.add(key + "=" + Durations.format(Math.round(nanos * factor)));
            } else {
                parts.add(pair);
            }
        }
        return row.source().create(String.join(",", parts));
    }

    /** Most seeds one row may run over. */
    public static final int MAX_SEEDS = 100;

    /**
     * This experiment with every row run over {@code count} seeds: the row's own seed and the
     * {@code count − 1} after it, both tunings with each (see {@link ExperimentRow}).
     *
     * @throws IllegalArgumentException if {@code count} is not in 1..{@value #MAX_SEEDS}
     */
    public Experiment withSeeds(int count) {
        if (count < 1 || count > MAX_SEEDS) {
            throw new IllegalArgumentException("seeds = " + count + " is out of range; allowed 1.." + MAX_SEEDS);
        }
        return new Experiment(name, description, left, right, rows, publishedSummary, publishedTotals, memoryModel,
                count, noise, extendWindows, settle);
    }

    /** How many seeds each row runs over. */
    public int seeds() {
        return seeds;
    }

    /**
     * This experiment with run-to-run noise on or off in every simulation (see {@code
     * Simulation.Builder.noise}); off by default, so that each seed's run is the machine's means.
     */
    public Experiment withNoise(boolean on) {
        return new Experiment(name, description, left, right, rows, publishedSummary, publishedTotals, memoryModel,
                seeds, on, extendWindows, settle);
    }

    /** Whether simulations run with noise; see {@link #withNoise}. */
    public boolean noise() {
        return noise;
    }

    /** Whether rows run with the memory model on; see {@link #withMemoryModel}. */
    public boolean memoryModel() {
        return memoryModel;
    }

    /**
     * How many of the machine's time slices a window spans when a row is run again because a
     * side counted fewer than {@link ExperimentRow#MIN_OPERATIONS} operations in its planned
     * window: ten, so that neither a start-up transient nor one preemption decides the score.
     */
    public static final int EXTENDED_WINDOW_SLICES = 10;

    /**
     * How many of the machine's time slices the warm-up spans when a row still counted fewer than
     * {@link ExperimentRow#MIN_OPERATIONS} single operations in a window of
     * {@value #EXTENDED_WINDOW_SLICES} slices: a hundred, 0.4 s on the presets. The published
     * harnesses measured for seconds after their threads started, and a row with tens of threads
     * per processor can spend tens of slices leaving its start-up: in the Skylake drain rate at
     * 64 × processors, 512 waiters woken one by one through a monitor whose holder, the setter, a
     * woken and boosted waiter preempts and spins against for its slice, the first two rounds took
     * 107 ms (27 slices) with seed 1 and more than 200 ms with seed 3; seeds 1–5 were all steady
     * after 400 ms. A window inside that start-up measures the start-up, not the primitive.
     */
    public static final int SETTLING_WARMUP_SLICES = 100;

    /**
     * This experiment with or without the longer windows (on by default): a row whose
     * planned window left a side with fewer than {@link ExperimentRow#MIN_OPERATIONS}
     * operations on some seed runs again, every seed and both tunings, over
     * {@value #EXTENDED_WINDOW_SLICES} of the machine's time slices (warm-up a quarter of that, as
     * {@code Experiments.windowFor} has it), and that run is the row
     * ({@link ExperimentRow#windowExtended()} says so). If a side still counts too few single
     * operations (not batches, whose shortfall a warm-up does not change), the row runs once more
     * after a warm-up of {@value #SETTLING_WARMUP_SLICES} slices, and that run is the row. A row that
     * counted enough but at a rate still changing between its window's halves on every seed
     * ({@link ExperimentRow#rateChanging()}: a start-up) runs its own window again after the warm-up
     * of a ten-slice window ({@link #laterWindow}), and that run is the row; if its rate still changes
     * there, the row says so. A row
     * whose window and warm-up already span that long, or whose workload has no {@code warmup}
     * and {@code window} parameters, stays as it is.
     */
    public Experiment withWindowExtension(boolean on) {
        return new Experiment(name, description, left, right, rows, publishedSummary, publishedTotals, memoryModel,
                seeds, noise, on, settle);
    }

    /** Whether rows that count too few operations run again over a longer window; see {@link #withWindowExtension}. */
    public boolean windowExtension() {
        return extendWindows;
    }

    /**
     * This experiment with or without settled windows (off by default): with them, a row whose
     * planned window left a side's score unsettled over the seeds ({@link ExperimentRow#unsettled()}:
     * its 95 % interval wider than ±{@value ExperimentRow#SETTLED_PERCENT} % of its mean, or a
     * single seed, which has no interval) also runs again over {@value #EXTENDED_WINDOW_SLICES}
     * time slices, as a row that counted too few operations does ({@link #withWindowExtension},
     * which must be on). So every row is either settled or measured over ten slices, and no single
     * preemption decides it; it costs the second window's run for every unsettled row.
     */
    public Experiment withSettledWindows(boolean on) {
        return new Experiment(name, description, left, right, rows, publishedSummary, publishedTotals, memoryModel,
                seeds, noise, extendWindows, on);
    }

    /** Whether unsettled rows run again over a longer window; see {@link #withSettledWindows}. */
    public boolean settledWindows() {
        return settle;
    }

    /** Runs every row on one thread per available processor. */
    public List<ExperimentRow> run(ProgressListener listener) {
        return run(listener, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Runs every row over the experiment's {@linkplain #seeds() seeds}, {@code parallelism}
     * simulations of one seed's pair at a time (each on one platform thread of its own), and
     * returns the rows in plan order. The pairs run longest first (by threads × virtual time),
     * so that one long row does not run alone at the end. Rows that counted too few operations
     * then run again over a longer window ({@link #withWindowExtension}), in a second pass, and
     * those that still did after a longer warm-up, in a third.
     */
    public List<ExperimentRow> run(ProgressListener listener, int parallelism) {
        Objects.requireNonNull(listener, "listener");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism = " + parallelism + "; allowed 1 or more");
        }
        int total = rows.size();
        ExperimentRow[] results = new ExperimentRow[total];
        boolean[] started = new boolean[total];
        Map<Integer, PlannedRow> plan = new java.util.TreeMap<>();
        for (int i = 0; i < total; i++) {
            plan.put(i, rows.get(i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallelism, total * seeds)),
                Thread.ofPlatform().name("experiment-" + name + "-", 0).daemon(true).factory());
        SharedRuns shared = new SharedRuns();
        try {
            // Pass after pass: a row whose window was too short for it runs again in the next pass over a longer
            // window or warm-up (nextWindow), and its row is that run, saying which windows came before.
            Map<Integer, ExperimentRow> earlier = new java.util.TreeMap<>();
            while (!plan.isEmpty()) {
                Map<Integer, PlannedRow> current = plan;
                Map<Integer, PlannedRow> next = new java.util.TreeMap<>();
                runPass(pool, shared, current, index -> {
                    if (!started[index]) {
                        started[index] = true;
                        listener.rowStarted(this, index, total, rows.get(index));
                    }
                }, (index, run) -> {
                    ExperimentRow before = earlier.get(index);
                    ExperimentRow row = before == null ? run
                            : run.withWindowExtension(windowExtensionNote(before), before.wallMillis());
                    Optional<PlannedRow> again = nextWindow(current.get(index), row);
                    if (again.isPresent()) {
                        next.put(index, again.get());
                        earlier.put(index, row);
                    } else {
                        results[index] = row;
                        listener.rowFinished(this, index, total, row);
                    }
                });
                plan = next;
            }
            return List.of(results);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("experiment " + name + " was interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("experiment " + name + " failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Told each row of a pass when all its seeds are done, with the row's index in the plan. */
    private interface PassListener {
        void finished(int index, ExperimentRow row);
    }

    /**
     * Runs every seed of every row in {@code plan} (index → row) on {@code pool}, longest first,
     * and calls {@code finished} (under one lock, so never twice at once) as each row completes.
     * Rows that score one simulation each their own way share it ({@link SharedRuns}).
     */
    private void runPass(ExecutorService pool, SharedRuns shared, Map<Integer, PlannedRow> plan,
            java.util.function.IntConsumer starting, PassListener finished)
            throws InterruptedException, ExecutionException {
        Object lock = new Object();
        Map<Integer, SeedRun[]> done = new java.util.HashMap<>();
        Map<Integer, Integer> remaining = new java.util.HashMap<>();
        List<int[]> tasks = new ArrayList<>();
        for (int index : plan.keySet()) {
            done.put(index, new SeedRun[seeds]);
            remaining.put(index, seeds);
            for (int k = 0; k < seeds; k++) {
                tasks.add(new int[] {index, k});
            }
        }
        tasks.sort(java.util.Comparator.comparingDouble((int[] t) -> -estimatedCost(plan.get(t[0]))));
        List<Future<?>> futures = new ArrayList<>();
        for (int[] task : tasks) {
            int index = task[0];
            int k = task[1];
            PlannedRow row = plan.get(index);
            futures.add(pool.submit(() -> {
                synchronized (lock) {
                    starting.accept(index);
                }
                SeedRun run = runSeed(row, row.seed() + k, shared);
                synchronized (lock) {
                    done.get(index)[k] = run;
                    int left = remaining.merge(index, -1, Integer::sum);
                    if (left == 0) {
                        finished.finished(index, combine(row, List.of(done.get(index))));
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
    }

    /**
     * Runs one row under both tunings over every seed, on the calling thread, and again over a
     * longer window, and then after a longer warm-up, if it counted too few operations
     * ({@link #withWindowExtension}).
     */
    public ExperimentRow runRow(PlannedRow row) {
        PlannedRow planned = row;
        ExperimentRow result = runSeeds(planned);
        for (Optional<PlannedRow> again = nextWindow(planned, result); again.isPresent();
                again = nextWindow(planned, result)) {
            ExperimentRow before = result;
            planned = again.get();
            result = runSeeds(planned).withWindowExtension(windowExtensionNote(before), before.wallMillis());
        }
        return result;
    }

    private ExperimentRow runSeeds(PlannedRow row) {
        List<SeedRun> runs = new ArrayList<>();
        SharedRuns shared = new SharedRuns();
        for (int k = 0; k < seeds; k++) {
            runs.add(runSeed(row, row.seed() + k, shared));
        }
        return combine(row, runs);
    }

    private boolean needsLongerWindow(ExperimentRow row) {
        return extendWindows && row.completed() && whyLonger(row).isPresent();
    }

    /**
     * Why {@code row} needs a longer window: too few operations, a rate still changing between the window's
     * halves, or (with settled windows) an unsettled score.
     */
    private Optional<String> whyLonger(ExperimentRow row) {
        Optional<String> tooFew = row.tooFewOperations();
        if (tooFew.isPresent()) {
            return tooFew;
        }
        Optional<String> changing = row.halvesApart();
        return changing.isPresent() || !settle ? changing : row.unsettled();
    }

    /**
     * The run that follows {@code planned}'s, whose result was {@code result}. A row that counted
     * enough at a rate still changing ({@link ExperimentRow#rateChanging()}) runs its window again
     * after the warm-up of a ten-slice window ({@link #laterWindow}), if its own was shorter, and
     * then no more (but for {@linkplain #withSettledWindows settled windows}). Otherwise: over
     * {@value #EXTENDED_WINDOW_SLICES} time slices ({@link #longerWindow}) if its window was shorter;
     * else, if a side still counted too few single operations, after a warm-up of
     * {@value #SETTLING_WARMUP_SLICES} slices ({@link #longerWarmup}); else none.
     */
    private Optional<PlannedRow> nextWindow(PlannedRow planned, ExperimentRow result) {
        if (!needsLongerWindow(result)) {
            return Optional.empty();
        }
        if (result.tooFewOperations().isEmpty() && result.halvesApart().isPresent()) {
            Optional<PlannedRow> later = laterWindow(planned);
            if (later.isPresent()) {
                return later;
            }
            if (!settle || result.unsettled().isEmpty()) {
                return Optional.empty();
            }
        }
        Optional<PlannedRow> longer = longerWindow(planned);
        if (longer.isPresent()) {
            return longer;
        }
        return result.tooFewOperations().isPresent() && !result.countsInBatches() ? longerWarmup(planned)
                : Optional.empty();
    }

    /** How {@code earlier} ran and why it ran again, after the runs before it, if any. */
    private String windowExtensionNote(ExperimentRow earlier) {
        String how = windowParameters(earlier.parameters()) + ", where " + whyLonger(earlier).orElseThrow();
        return earlier.windowExtended().map(before -> before + "; then from " + how).orElse("extended from " + how);
    }

    /** The {@code warmup=…,window=…} part of a parameter text. */
    private static String windowParameters(String parameters) {
        List<String> window = new ArrayList<>();
        for (String pair : parameters.split(",")) {
            if (pair.startsWith("warmup=") || pair.startsWith("window=")) {
                window.add(pair);
            }
        }
        return String.join(",", window);
    }

    /**
     * {@code row} with its window {@value #EXTENDED_WINDOW_SLICES} time slices of its machine
     * long and its warm-up at least a quarter of that; empty when its workload has no
     * {@code warmup} and {@code window} parameters or its window is already that long.
     */
    static Optional<PlannedRow> longerWindow(PlannedRow row) {
        if (!row.source().takesParameters()) {
            return Optional.empty();
        }
        long target = Math.round(EXTENDED_WINDOW_SLICES * row.machine().timeSliceNs());
        String parameters = row.workload().parameters();
        long warmup = -1;
        long window = -1;
        for (String pair : parameters.split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = pair.substring(0, eq);
            if (key.equals("warmup")) {
                warmup = Durations.parseNanos(key, pair.substring(eq + 1));
            } else if (key.equals("window")) {
                window = Durations.parseNanos(key, pair.substring(eq + 1));
            }
        }
        if (warmup < 0 || window < 0 || window >= target) {
            return Optional.empty();
        }
        long newWarmup = Math.max(warmup, target / 4);
        List<String> parts = new ArrayList<>();
        for (String pair : parameters.split(",")) {
            if (pair.startsWith("warmup=")) {
                parts.add("warmup=" + Durations.format(newWarmup));
            } else if (pair.startsWith("window=")) {
                parts.add("window=" + Durations.format(target));
            } else {
                parts.add(pair);
            }
        }
        return Optional.of(new PlannedRow(row.source().create(String.join(",", parts)), row.machine(),
                row.published(), row.seed(), row.source()));
    }

    /**
     * {@code row} with its warm-up {@value #SETTLING_WARMUP_SLICES} time slices of its machine long
     * and its window as it is; empty when its workload has no {@code warmup} and {@code window}
     * parameters or its warm-up is already that long.
     */
    static Optional<PlannedRow> longerWarmup(PlannedRow row) {
        return withWarmup(row, Math.round(SETTLING_WARMUP_SLICES * row.machine().timeSliceNs()));
    }

    /**
     * {@code row} with the warm-up of a window of {@value #EXTENDED_WINDOW_SLICES} time slices (a quarter
     * of it: two and a half slices, 10 ms on the presets) and its own window: the same measurement,
     * begun after the first slices' ends; empty when its workload has no {@code warmup} and
     * {@code window} parameters or its warm-up is already that long. For a row whose rate still
     * changed between its window's halves: at about twice its planned cost, where ten slices would
     * cost up to nine times (the mres-wait-latency rows it marks are among the costliest).
     */
    static Optional<PlannedRow> laterWindow(PlannedRow row) {
        return withWarmup(row, Math.round(EXTENDED_WINDOW_SLICES * row.machine().timeSliceNs()) / 4);
    }

    /** {@code row} with a warm-up of {@code target} ns and its window as it is; empty if its warm-up is that long. */
    private static Optional<PlannedRow> withWarmup(PlannedRow row, long target) {
        if (!row.source().takesParameters()) {
            return Optional.empty();
        }
        String parameters = row.workload().parameters();
        List<String> parts = new ArrayList<>();
        boolean windowed = false;
        for (String pair : parameters.split(",")) {
            if (pair.startsWith("warmup=")) {
                if (Durations.parseNanos("warmup", pair.substring("warmup=".length())) >= target) {
                    return Optional.empty();
                }
                parts.add("warmup=" + Durations.format(target));
            } else {
                windowed |= pair.startsWith("window=");
                parts.add(pair);
            }
        }
        if (!windowed || parts.stream().noneMatch(p -> p.startsWith("warmup="))) {
            return Optional.empty();
        }
        return Optional.of(new PlannedRow(row.source().create(String.join(",", parts)), row.machine(),
                row.published(), row.seed(), row.source()));
    }

    /** A row's virtual work, threads × (warm-up + window), to run the longest first; 0 when unknown. */
    private static double estimatedCost(PlannedRow row) {
        if (!(row.workload() instanceof io.spinlab.sim.workload.WindowedWorkload windowed)) {
            return 0;
        }
        int threads = windowed.threads().resolve(row.machine().logicalProcessors());
        return (double) threads * (windowed.window().warmupNanos() + windowed.window().measureNanos());
    }

    /** The two runs of one seed, reduced to what a row keeps. */
    private record SeedRun(long seed, double leftScore, double rightScore, long leftOperations,
                           long rightOperations, Map<String, Double> leftMetrics, Map<String, Double> rightMetrics,
                           List<String> failures, long wallMillis, double leftHalvesRatio,
                           double rightHalvesRatio) {
    }

    private SeedRun runSeed(PlannedRow row, long seed, SharedRuns shared) {
        long start = System.nanoTime();
        SimulatedRun l = simulate(row, false, seed, shared);
        SimulatedRun r = simulate(row, true, seed, shared);
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        List<String> failures = new ArrayList<>();
        double leftScore = score(l, failures);
        double rightScore = score(r, failures);
        return new SeedRun(seed, leftScore, rightScore, operations(l), operations(r), metrics(l), metrics(r),
                failures, wallMillis, halvesRatio(l), halvesRatio(r));
    }

    /**
     * One row from its seeds' runs: the scores of every seed, their medians as the row's scores,
     * the fewest operations any seed counted, the metrics of the seed whose Δ is the median, and
     * every failure with its seed.
     */
    private ExperimentRow combine(PlannedRow row, List<SeedRun> runs) {
        List<Long> seedList = runs.stream().map(SeedRun::seed).toList();
        List<Double> leftScores = runs.stream().map(SeedRun::leftScore).toList();
        List<Double> rightScores = runs.stream().map(SeedRun::rightScore).toList();
        List<String> failures = new ArrayList<>();
        for (SeedRun run : runs) {
            for (String failure : run.failures()) {
                failures.add(runs.size() > 1 ? "seed " + run.seed() + ": " + failure : failure);
            }
        }
        boolean failed = !failures.isEmpty();
        double leftScore = failed ? Double.NaN : Spread.of(leftScores).median();
        double rightScore = failed ? Double.NaN : Spread.of(rightScores).median();
        SeedRun typical = medianDeltaRun(runs);
        long leftOps = runs.stream().mapToLong(SeedRun::leftOperations).min().orElse(-1);
        long rightOps = runs.stream().mapToLong(SeedRun::rightOperations).min().orElse(-1);
        long wallMillis = runs.stream().mapToLong(SeedRun::wallMillis).sum();
        return new ExperimentRow(name, row.workload().name(), row.machine().name(), row.workload().parameters(),
                left.describe(), leftScore, right.describe(), rightScore, row.published(), typical.leftMetrics(),
                typical.rightMetrics(), failed ? Optional.of(String.join("; ", failures)) : Optional.empty(),
                wallMillis, memoryModel, leftOps, rightOps, seedList, leftScores, rightScores, "",
                runs.stream().map(SeedRun::leftHalvesRatio).toList(), runs.stream().map(SeedRun::rightHalvesRatio).toList());
    }

    /** The seed whose Δ is the median (the lower middle one of an even count); the first if any Δ is not a number. */
    private static SeedRun medianDeltaRun(List<SeedRun> runs) {
        List<SeedRun> sorted = new ArrayList<>(runs);
        if (sorted.stream().anyMatch(r -> Double.isNaN(deltaPercent(r.leftScore(), r.rightScore())))) {
            return runs.getFirst();
        }
        sorted.sort(java.util.Comparator.comparingDouble(r -> deltaPercent(r.leftScore(), r.rightScore())));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * One side of a row: its own simulation, or, for a workload that only chooses what the score
     * counts ({@link ScoreChoice}), the run shared by every row that differs from it in that
     * choice alone, scored this row's way.
     */
    private SimulatedRun simulate(PlannedRow row, boolean rightSide, long seed, SharedRuns shared) {
        Tuning tuning = rightSide ? right : left;
        if (row.workload() instanceof ScoreChoice choice) {
            String parameters = choice.sharedRunParameters();
            SimulatedRun run = shared.get(new SharedRuns.Key(row.source().name(), parameters, row.machine(), rightSide,
                    seed), () -> simulate(row, row.source().create(parameters), tuning, seed));
            return new SimulatedRun(run.workloadResult().map(choice::scoredFrom), run.simulation());
        }
        return simulate(row, row.workload(), tuning, seed);
    }

    private SimulatedRun simulate(PlannedRow row, Workload workload, Tuning tuning, long seed) {
        Simulation.Builder simulation = Simulation.builder(row.machine()).seed(seed).faults(Faults.none())
                .budgets(ROW_BUDGETS).noise(noise);
        if (!memoryModel) {
            return WorkloadRunner.simulate(workload, tuning, simulation);
        }
        return row.source().simulate(workload.parameters(), tuning, simulation.memoryModel(true));
    }

    private static double score(SimulatedRun run, List<String> failures) {
        if (!run.simulation().completed() || run.workloadResult().isEmpty()) {
            String report = run.simulation().report();
            String first = report.lines().findFirst().orElse(report);
            failures.add(first + " (reproduce: " + run.simulation().reproduction() + ")");
            return Double.NaN;
        }
        return run.workloadResult().get().opsPerMs();
    }

    /** The run's {@link io.spinlab.sim.trace.MeasuredWindow#halvesRatio()}; NaN if it failed or announced no window. */
    private static double halvesRatio(SimulatedRun run) {
        if (!run.simulation().completed() || run.simulation().metrics().window().isEmpty()) {
            return Double.NaN;
        }
        return run.simulation().metrics().window().get().halvesRatio();
    }

    private static long operations(SimulatedRun run) {
        if (!run.simulation().completed()) {
            return -1;
        }
        return run.workloadResult().map(WorkloadResult::operations).orElse(-1L);
    }

    /**
     * Metric: processors busy (working, spinning or yielding), averaged over the measured window
     * (over the whole run for a workload that announces none).
     */
    public static final String BUSY_PROCESSORS = "busyProcessors";
    /**
     * Metric: CPU time per counted operation, ns: the threads' processor time inside the measured
     * window over the operations counted in it (for a workload that announces no window, the run's
     * mean busy processors times the window's length, which assumes the rest of the run used the
     * processors as the window did).
     */
    public static final String CPU_NANOS_PER_OP = "cpuNanosPerOp";
    /** Metric: the share of the CPU time spent executing PAUSE, 0..1 (inside the measured window, as above). */
    public static final String SPIN_SHARE = "spinShare";

    /**
     * The workload's own metrics, then what the run cost in CPU: {@value #BUSY_PROCESSORS},
     * {@value #CPU_NANOS_PER_OP} and {@value #SPIN_SHARE} (the last two only when the run counted
     * operations and used a processor).
     */
    private static Map<String, Double> metrics(SimulatedRun run) {
        if (run.workloadResult().isEmpty()) {
            return Map.of();
        }
        WorkloadResult result = run.workloadResult().get();
        Map<String, Double> metrics = new LinkedHashMap<>(result.metrics());
        io.spinlab.sim.trace.RunMetrics facts = run.simulation().metrics();
        if (facts.window().isPresent()) {
            io.spinlab.sim.trace.MeasuredWindow window = facts.window().get();
            metrics.put(BUSY_PROCESSORS, window.busyProcessors());
            if (result.operations() > 0 && window.cpuPicos() > 0) {
                metrics.put(CPU_NANOS_PER_OP, window.cpuPicos() / 1_000.0 / result.operations());
                metrics.put(SPIN_SHARE, (double) window.spinningPicos() / window.cpuPicos());
            }
            return metrics;
        }
        long cpu = cpuPicos(facts);
        if (facts.elapsedPicos() > 0) {
            double busy = busyProcessors(facts);
            metrics.put(BUSY_PROCESSORS, busy);
            if (result.operations() > 0 && cpu > 0) {
                metrics.put(CPU_NANOS_PER_OP, busy * result.elapsedNanos() / result.operations());
                metrics.put(SPIN_SHARE, (double) facts.totalPicos(io.spinlab.sim.trace.Activity.SPINNING) / cpu);
            }
        }
        return metrics;
    }

    /** A simulated run's processor time: its threads' working, spinning and yielding, ps. */
    private static long cpuPicos(io.spinlab.sim.trace.RunMetrics facts) {
        return facts.totalPicos(io.spinlab.sim.trace.Activity.WORKING)
                + facts.totalPicos(io.spinlab.sim.trace.Activity.SPINNING)
                + facts.totalPicos(io.spinlab.sim.trace.Activity.YIELDING);
    }

    /**
     * Processors a simulated run kept busy ({@value #BUSY_PROCESSORS}): averaged over its measured
     * window, or over the whole run if its workload announced none; NaN for an empty run.
     */
    static double busyProcessors(io.spinlab.sim.trace.RunMetrics facts) {
        if (facts.window().isPresent()) {
            return facts.window().get().busyProcessors();
        }
        return busyProcessorsOverRun(facts);
    }

    /**
     * Processors a simulated run kept busy averaged over the whole run, warm-up and shutdown
     * included (what a process's CPU time over its wall time measures on real threads); NaN for an
     * empty run.
     */
    static double busyProcessorsOverRun(io.spinlab.sim.trace.RunMetrics facts) {
        return facts.elapsedPicos() > 0 ? (double) cpuPicos(facts) / facts.elapsedPicos() : Double.NaN;
    }

    /**
     * (right − left) / left × 100: 0 when both are 0, +∞ when only the left one is 0 (the old
     * heuristic did nothing in the window), NaN when either is NaN.
     */
    public static double deltaPercent(double left, double right) {
        if (Double.isNaN(left) || Double.isNaN(right)) {
            return Double.NaN;
        }
        if (left == 0) {
            return right == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return (right - left) / left * 100;
    }

    @Override
    public String toString() {
        return name + " (" + left.describe() + " vs " + right.describe() + ", " + rows.size() + " rows"
                + (memoryModel ? "" : ", fast mode") + ")";
    }
}
