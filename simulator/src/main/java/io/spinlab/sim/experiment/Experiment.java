package io.spinlab.sim.experiment;

import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Budgets;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.ArrayList;
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
        this(name, description, left, right, rows, publishedSummary, false);
    }

    private Experiment(String name, String description, Tuning left, Tuning right, List<PlannedRow> rows,
            List<String> publishedSummary, boolean memoryModel) {
        this.memoryModel = memoryModel;
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

    /** This experiment with only the rows {@code keep} accepts (a reduced configuration for tests). */
    public Experiment select(Predicate<PlannedRow> keep) {
        return new Experiment(name, description, left, right, rows.stream().filter(keep).toList(), publishedSummary,
                memoryModel);
    }

    /**
     * This experiment with the simulator's memory model on or off. With it on, every volatile
     * and VarHandle access of the primitives and workloads is a scheduling point priced by a
     * per-core cache model (a CAS can lose, a contended line moves), which the changes that
     * live in lock-free code (the global queue, the lockless reservation) need to show at all;
     * a row then costs 3 to 100 times more wall time. Rows must be registry workloads
     * ({@link io.spinlab.sim.workload.Workloads}), rebuilt inside the instrumenting class loader
     * from their name and parameters.
     */
    public Experiment withMemoryModel(boolean on) {
        return new Experiment(name, description, left, right, rows, publishedSummary, on);
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
                memoryModel);
    }

    private SimulatedRun simulate(PlannedRow row, Tuning tuning) {
        Simulation.Builder simulation = Simulation.builder(row.machine()).seed(row.seed()).faults(Faults.none())
                .budgets(ROW_BUDGETS);
        if (!memoryModel) {
            return WorkloadRunner.simulate(row.workload(), tuning, simulation);
        }
        return WorkloadRunner.simulate(row.workload().name(), row.workload().parameters(), tuning,
                simulation.memoryModel(true));
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
                + (memoryModel ? ", memory model" : "") + ")";
    }
}
