package io.spinlab.sim.workload;

import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.pool.LifoSemaphore;
import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A chain-waiting QUWI ("QueueUserWorkItem") workload: each of {@code drivers} threads outside
 * the pool queues a chain of {@code depth} work items, each item queueing the next, waits for
 * the last, and starts again. Score: work items per ms, a chain counted when its last item ran.
 * Not the protocol of dotnet/coreclr #9234's published table, whose drivers queue chain heads
 * in batches without waiting for the chains: that is {@link QuwiSuite}, which the experiment
 * runs; until 2026-12-07 the experiment ran this one. Kept for what-if sweeps of a round trip
 * through the pool ({@code whatif --frontier}) and for {@code calibrate}.
 *
 * <p>Modes: {@code global} (every link goes to the pool's global queue, the queue the
 * {@code global-queue} knob selects) and {@code local} (links queued from a worker go to that
 * worker's local queue; only the first item of each chain passes through the global queue; the
 * suite's later "QUWI Queue Local" test, 2018). {@code drivers=serial} is one driver.
 * The pool has the default settings (processor-count workers at first); {@code requests} can
 * pin how queued work wakes workers, so that the queue change can be measured alone; {@code spin}
 * sets how many iterations an idle worker spins on the pool's semaphore before it blocks (the
 * knob .NET's pool exposes as its semaphore spin limit), the parameter a CPU-against-throughput
 * frontier sweeps ({@code whatif --frontier spin=0,35,70,140,280}).
 */
public final class Quwi extends DescribedWorkload {

    public static final String NAME = "quwi";
    /** The chain depths of the published matrix. */
    public static final List<Integer> PUBLISHED_DEPTHS = List.of(1, 2, 16, 64, 512);
    /** The driver counts of the published matrix (1 = Serial). */
    public static final List<Integer> PUBLISHED_DRIVERS = List.of(1, 2, 16, 64, 512);
    /** Most drivers or links per chain. */
    public static final int MAX = 100_000;
    /** Most spin iterations of an idle worker. */
    public static final int MAX_SPIN = 1_000_000;

    /** Where the links of a chain are queued. */
    public enum Mode {
        /** Every link through the global queue ({@code forceGlobal}). */
        GLOBAL,
        /** Links queued from a worker go to its local queue. */
        LOCAL;

        /** The parameter text: {@code global} or {@code local}. */
        public String text() {
            return this == GLOBAL ? "global" : "local";
        }
    }

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "drivers outside the pool queue chains of work items, each queueing the next; work items/ms",
            List.of(new WorkloadType.Parameter("drivers", "serial",
                            "threads outside the pool that queue chains: serial (1) or 1.." + MAX),
                    new WorkloadType.Parameter("depth", "16", "work items per chain, 1.." + MAX),
                    new WorkloadType.Parameter("mode", "global",
                            "global (every link through the global queue) or local (links to the worker's queue)"),
                    new WorkloadType.Parameter("requests", "tuning",
                            "how queued work wakes workers: tuning (the thread-requests knob), "
                                    + "per-item (every generation modelled) or cascading (later .NET, a what-if)"),
                    new WorkloadType.Parameter("spin", Integer.toString(LifoSemaphore.DEFAULT_SPIN_COUNT),
                            "spin iterations of an idle worker on the pool's semaphore before it blocks, 0.." + MAX_SPIN),
                    WindowedWorkload.WARMUP, WindowedWorkload.WINDOW),
            p -> new Quwi(parseDrivers(p.text("drivers")), p.whole("depth", 1, MAX),
                    p.choice("mode", List.of("global", "local")).equals("global") ? Mode.GLOBAL : Mode.LOCAL,
                    parseRequests(p.choice("requests", List.of("tuning", "per-item", "cascading"))),
                    p.whole("spin", 0, MAX_SPIN), p.window()));

    private final int drivers;
    private final int depth;
    private final Mode mode;
    /** Null: the pool's default for the tuning. */
    private final ThreadRequestPolicy requests;
    private final int spin;
    private final Window window;

    /**
     * @param drivers threads queueing chains, 1..{@value #MAX}
     * @param depth   work items per chain, 1..{@value #MAX}
     * @param mode     where links are queued
     * @param requests how queued work wakes workers; null for the tuning's {@code thread-requests}
     * @param spin     spin iterations of an idle worker before it blocks, 0..{@value #MAX_SPIN}
     * @param window   warm-up and measured window
     */
    public Quwi(int drivers, int depth, Mode mode, ThreadRequestPolicy requests, int spin, Window window) {
        if (drivers < 1 || drivers > MAX || depth < 1 || depth > MAX) {
            throw new IllegalArgumentException("drivers = " + drivers + ", depth = " + depth + "; valid: drivers 1.."
                    + MAX + " (serial = 1), depth 1.." + MAX);
        }
        if (spin < 0 || spin > MAX_SPIN) {
            throw new IllegalArgumentException("spin = " + spin + "; valid: 0.." + MAX_SPIN);
        }
        this.spin = spin;
        this.drivers = drivers;
        this.depth = depth;
        this.mode = Objects.requireNonNull(mode, "mode");
        this.requests = requests;
        this.window = Objects.requireNonNull(window, "window");
    }

    static ThreadRequestPolicy parseRequests(String text) {
        return switch (text) {
            case "per-item" -> ThreadRequestPolicy.PER_ITEM;
            case "cascading" -> ThreadRequestPolicy.CASCADING;
            default -> null;
        };
    }

    static String requestsText(ThreadRequestPolicy policy) {
        if (policy == null) {
            return "tuning";
        }
        return policy == ThreadRequestPolicy.PER_ITEM ? "per-item" : "cascading";
    }

    static int parseDrivers(String text) {
        if (text.equals("serial")) {
            return 1;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= MAX) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through
        }
        throw new IllegalArgumentException(NAME + ": drivers = '" + text + "' is not valid; valid: serial or a whole "
                + "number 1.." + MAX);
    }

    @Override
    public String name() {
        return NAME;
    }

    public int drivers() {
        return drivers;
    }

    public int depth() {
        return depth;
    }

    public Mode mode() {
        return mode;
    }

    /** Spin iterations of an idle worker before it blocks. */
    public int spin() {
        return spin;
    }

    @Override
    public String parameters() {
        return "drivers=" + (drivers == 1 ? "serial" : Integer.toString(drivers)) + ",depth=" + depth + ",mode="
                + mode.text() + ",requests=" + requestsText(requests) + ",spin=" + spin + "," + window.parameters();
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        ThreadPool.Builder builder = ThreadPool.builder(context).name("quwi").semaphoreSpinCount(spin);
        if (requests != null) {
            builder.requestPolicy(requests);
        }
        ThreadPool pool = builder.build();
        MeasuredRun run = new MeasuredRun(context, window, drivers);
        run.metric("drivers", drivers);
        run.metric(WorkloadResult.OPERATIONS_PER_COUNT, depth); // a chain is counted when its last item ran
        for (int d = 0; d < drivers; d++) {
            run.start("driver-" + d, slot -> {
                ManualResetEvent done = new ManualResetEvent(context);
                while (run.running()) {
                    done.reset();
                    pool.execute(new Link(pool, depth, done, mode == Mode.GLOBAL));
                    done.await();
                    run.count(slot, depth);
                }
            });
        }
        WorkloadResult result = run.measure(this, () -> { });
        pool.shutdown();
        if (!pool.awaitTermination(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pool did not terminate after the run: " + pool);
        }
        return result;
    }

    /** One work item of a chain: queues the next, or ends the chain. */
    private static final class Link implements Runnable {
        private final ThreadPool pool;
        private final int remaining;
        private final ManualResetEvent done;
        private final boolean global;

        Link(ThreadPool pool, int remaining, ManualResetEvent done, boolean global) {
            this.pool = pool;
            this.remaining = remaining;
            this.done = done;
            this.global = global;
        }

        @Override
        public void run() {
            if (remaining <= 1) {
                done.set();
                return;
            }
            Link next = new Link(pool, remaining - 1, done, global);
            if (global) {
                pool.executeGlobal(next);
            } else {
                pool.execute(next);
            }
        }
    }
}
