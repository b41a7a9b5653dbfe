package io.spinlab.sim.experiment;

import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Budgets;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.Durations;
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
 * time (simulated runs are deterministic; only {@link ExperimentRow#wallMillis()} varies). A
 * run that does not complete (deadlock, budget) does not stop the experiment: its row records
 * the failure and the line that reproduces it.
 */
public final class Experiment {

    /** Limits of one simulated run: generous, so that hitting one is a finding, not routine. */
    static final Budgets ROW_BUDGETS = Budgets.defaults().withMaxVirtualNanos(2_000_000_000L)
            .withMaxSteps(400_000_000L).withMaxWallMillis(300_000L);

    private final String name;
    private final String description;
    private final Tuning left;
    private final Tuning right;
    private final List<PlannedRow> rows;
    private final List<String> publishedSummary;
    private final Map<String, Published> publishedTotals;
    private final boolean memoryModel;

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
        this(name, description, left, right, rows, publishedSummary, Map.of(), true);
    }

    private Experiment(String name, String description, Tuning left, Tuning right, List<PlannedRow> rows,
            List<String> publishedSummary, Map<String, Published> publishedTotals, boolean memoryModel) {
        this.memoryModel = memoryModel;
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
        return new Experiment(name, description, left, right, rows, publishedSummary, totals, memoryModel);
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
        return new Experiment(name, description, left, right, kept, publishedSummary, totals, memoryModel);
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
        return new Experiment(name, description, left, right, rows, publishedSummary, publishedTotals, on);
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
                memoryModel);
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

    /** Whether rows run with the memory model on; see {@link #withMemoryModel}. */
    public boolean memoryModel() {
        return memoryModel;
    }

    /** Runs every row on one thread per available processor. */
    public List<ExperimentRow> run(ProgressListener listener) {
        return run(listener, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Runs every row, {@code parallelism} rows at a time (each simulation runs on one platform
     * thread of its own), and returns the rows in plan order.
     */
    public List<ExperimentRow> run(ProgressListener listener, int parallelism) {
        Objects.requireNonNull(listener, "listener");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism = " + parallelism + "; allowed 1 or more");
        }
        int total = rows.size();
        Object progressLock = new Object();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, Math.max(1, total)),
                Thread.ofPlatform().name("experiment-" + name + "-", 0).daemon(true).factory());
        try {
            List<Future<ExperimentRow>> futures = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                int index = i;
                PlannedRow row = rows.get(i);
                futures.add(pool.submit(() -> {
                    synchronized (progressLock) {
                        listener.rowStarted(this, index, total, row);
                    }
                    ExperimentRow result = runRow(row);
                    synchronized (progressLock) {
                        listener.rowFinished(this, index, total, result);
                    }
                    return result;
                }));
            }
            List<ExperimentRow> results = new ArrayList<>(total);
            for (Future<ExperimentRow> f : futures) {
                results.add(f.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("experiment " + name + " was interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("experiment " + name + " failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs one row under both tunings, on the calling thread. */
    public ExperimentRow runRow(PlannedRow row) {
        long start = System.nanoTime();
        SimulatedRun l = simulate(row, left);
        SimulatedRun r = simulate(row, right);
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        List<String> failures = new ArrayList<>();
        double leftScore = score(l, failures);
        double rightScore = score(r, failures);
        return new ExperimentRow(name, row.workload().name(), row.machine().name(), row.workload().parameters(),
                left.describe(), leftScore, right.describe(), rightScore, row.published(), metrics(l), metrics(r),
                failures.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", failures)), wallMillis,
                memoryModel, operations(l), operations(r));
    }

    private SimulatedRun simulate(PlannedRow row, Tuning tuning) {
        Simulation.Builder simulation = Simulation.builder(row.machine()).seed(row.seed()).faults(Faults.none())
                .budgets(ROW_BUDGETS);
        if (!memoryModel) {
            return WorkloadRunner.simulate(row.workload(), tuning, simulation);
        }
        return row.source().simulate(row.workload().parameters(), tuning, simulation.memoryModel(true));
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

    private static long operations(SimulatedRun run) {
        if (!run.simulation().completed()) {
            return -1;
        }
        return run.workloadResult().map(WorkloadResult::operations).orElse(-1L);
    }

    private static Map<String, Double> metrics(SimulatedRun run) {
        return run.workloadResult().map(WorkloadResult::metrics).orElse(Map.of());
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
