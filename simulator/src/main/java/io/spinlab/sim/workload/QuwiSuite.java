package io.spinlab.sim.workload;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.pool.LifoSemaphore;
import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.ThreadRequestPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The QUWI test as the published dotnet/coreclr #9234 table measured it: the "QUWI No Queues"
 * rows of benaadams/ThreadPoolTaskTesting at commit 1f5bdf1 (2017-02-01, the commit that added
 * drivers outside the pool, the day of the table). A batch of {@code calls} calls is split among
 * {@code drivers} drivers; each driver queues {@code calls / drivers / depth} chain heads with
 * QueueUserWorkItem, one after another, and returns <em>without waiting for its chains</em>;
 * each link of a chain (the head included) queues the next through the global queue until the
 * chain has {@code depth} links, and counts itself off a counter the driver's heads share. When
 * every driver of a batch has returned, the next batch starts. Score: calls per ms, counting a
 * head's whole chain when the head is queued, as the suite divides all of a batch's calls by
 * the time its drivers took to queue the heads.
 *
 * <p>{@code from} says where the drivers run, the suite's two blocks: {@code pool} ("QUWI No
 * Queues (TP)": each driver is a task run on the pool, queued by the thread that starts the
 * batch, a worker, into its local queue) or {@code threads} ("QUWI No Queues": each driver is
 * a task handed to one of {@code drivers} dedicated threads outside the pool through a blocking
 * collection). Every QueueUserWorkItem goes to the global queue (.NET Core 2.0's QUWI forces
 * it), the queue the tuning's {@code global-queue} knob selects.
 *
 * <p>Unlike {@link Quwi}, whose drivers queue one chain and wait for it, nothing here waits for
 * a chain: the global queue fills while the drivers queue, and the workers' dequeues and the
 * links' enqueues race the drivers' on it.
 */
public final class QuwiSuite extends DescribedWorkload {
    /*
     * Implementation notes
     *
     * What the suite does, read at 1f5bdf1 (Program.cs): TestAsync times `loops` calls of
     * ParallelTestAsync(count = 512 × 512); ParallelTestAsync starts `dop` tasks, each running
     * QUWICallChainRepeat(depth, count / dop) as an Action (so the Task it returns, the wait for
     * the chains, is dropped), and awaits the `dop` tasks. QUWICallChainRepeat makes one
     * counter (remaining = count / dop, a SemaphoreSlim(0)) and one state object, and queues
     * that same state count / dop / depth times; QUWI(state) queues a new state one link
     * shorter while links remain, then decrements the counter and releases the semaphore when it
     * reaches zero (nothing waits on it). Between two loops the suite collects garbage with the
     * stopwatch stopped; not modelled (nothing runs during a blocking collection, so it adds no
     * measured time).
     *
     * Where each step runs, as modelled: the drivers of the (TP) block are Task.Run tasks queued
     * by the thread running the benchmark's async method, which after its first await is a pool
     * worker, so they go to that worker's local queue (ThreadPoolTaskScheduler.QueueTask does
     * not force the global queue) and other workers steal them; the await of the last driver
     * runs its continuation inline on the thread that completed it, which starts the next
     * batch there. The other block's dedicated threads take tasks from a BlockingCollection,
     * whose Take waits on a SemaphoreSlim and whose Add releases it once per task (its backing
     * store a ConcurrentQueue); the last driver's thread starts the next batch with one Add per
     * driver. A batch's completion is one atomic decrement here; the Task machinery behind the
     * suite's awaits (a task's completion, its continuation) is not modelled.
     *
     * Counting: a head is counted when its QueueUserWorkItem returns, with its chain's depth
     * (a clock read each, the harness's unit of work), so that a window inside one long batch
     * still sees the batch's rate. Drivers of the (TP) block count in one slot per driver index
     * (a driver's batches never overlap: the next starts after all returned).
     *
     * Stopping: after the window the drivers stop queueing heads and no new batch starts; once
     * the drivers have returned, the backlog left in the queues is dropped (shutdownNow), not
     * run, and a link that runs after that ends its chain. A link does not look at the run (the
     * suite's do not), so it costs no access more than the suite's.
     */

    public static final String NAME = "quwi-suite";
    /** The suite's calls per timed batch, 512 × 512. */
    public static final int DEFAULT_CALLS = 512 * 512;
    /** Most calls per batch. */
    public static final int MAX_CALLS = 100_000_000;

    /** Where the drivers run. */
    public enum From {
        /** On the pool: the suite's "(TP)" block. */
        POOL("pool"),
        /** On dedicated threads outside the pool. */
        THREADS("threads");

        private final String text;

        From(String text) {
            this.text = text;
        }

        /** The parameter text. */
        public String text() {
            return text;
        }
    }

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "the QUWI test as the dotnet/coreclr #9234 table ran it: drivers queue chain heads in batches without "
                    + "waiting for the chains; calls/ms",
            List.of(new WorkloadType.Parameter("drivers", "serial",
                            "drivers per batch: serial (1) or 1.." + Quwi.MAX),
                    new WorkloadType.Parameter("depth", "16", "links per chain, 1.." + Quwi.MAX
                            + " (at most calls / drivers)"),
                    new WorkloadType.Parameter("from", "threads",
                            "where the drivers run: threads (dedicated threads outside the pool) or pool (tasks on "
                                    + "the pool, the suite's '(TP)' rows)"),
                    new WorkloadType.Parameter("calls", Integer.toString(DEFAULT_CALLS),
                            "calls per batch, split among the drivers, 1.." + MAX_CALLS),
                    new WorkloadType.Parameter("requests", "tuning",
                            "how queued work wakes workers: tuning (the thread-requests knob), "
                                    + "per-item (every generation modelled) or cascading (later .NET, a what-if)"),
                    new WorkloadType.Parameter("spin", Integer.toString(LifoSemaphore.DEFAULT_SPIN_COUNT),
                            "spin iterations of an idle worker on the pool's semaphore before it blocks, 0.."
                                    + Quwi.MAX_SPIN),
                    WindowedWorkload.WARMUP, WindowedWorkload.WINDOW),
            p -> new QuwiSuite(Quwi.parseDrivers(p.text("drivers")), p.whole("depth", 1, Quwi.MAX),
                    p.choice("from", List.of("threads", "pool")).equals("pool") ? From.POOL : From.THREADS,
                    p.whole("calls", 1, MAX_CALLS),
                    Quwi.parseRequests(p.choice("requests", List.of("tuning", "per-item", "cascading"))),
                    p.whole("spin", 0, Quwi.MAX_SPIN), p.window()));

    private final int drivers;
    private final int depth;
    private final From from;
    private final int calls;
    /** Null: the pool's default for the tuning. */
    private final ThreadRequestPolicy requests;
    private final int spin;
    private final Window window;

    /**
     * @param drivers  drivers per batch, 1..{@value Quwi#MAX}
     * @param depth    links per chain, 1..{@value Quwi#MAX}, at most {@code calls / drivers}
     * @param from     where the drivers run
     * @param calls    calls per batch, 1..{@value #MAX_CALLS}
     * @param requests how queued work wakes workers; null for the tuning's {@code thread-requests}
     * @param spin     spin iterations of an idle worker before it blocks, 0..{@value Quwi#MAX_SPIN}
     * @param window   warm-up and measured window
     */
    public QuwiSuite(int drivers, int depth, From from, int calls, ThreadRequestPolicy requests, int spin,
                     Window window) {
        if (drivers < 1 || drivers > Quwi.MAX || depth < 1 || depth > Quwi.MAX) {
            throw new IllegalArgumentException("drivers = " + drivers + ", depth = " + depth + "; valid: drivers 1.."
                    + Quwi.MAX + " (serial = 1), depth 1.." + Quwi.MAX);
        }
        if (calls < 1 || calls > MAX_CALLS) {
            throw new IllegalArgumentException("calls = " + calls + "; valid: 1.." + MAX_CALLS);
        }
        if (calls / drivers < depth) {
            throw new IllegalArgumentException("depth = " + depth + " is more than calls / drivers = " + calls + " / "
                    + drivers + " = " + calls / drivers + ": no driver would queue a chain; valid: depth up to calls "
                    + "/ drivers");
        }
        if (spin < 0 || spin > Quwi.MAX_SPIN) {
            throw new IllegalArgumentException("spin = " + spin + "; valid: 0.." + Quwi.MAX_SPIN);
        }
        this.drivers = drivers;
        this.depth = depth;
        this.from = Objects.requireNonNull(from, "from");
        this.calls = calls;
        this.requests = requests;
        this.spin = spin;
        this.window = Objects.requireNonNull(window, "window");
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

    public From from() {
        return from;
    }

    /** Chain heads each driver queues per batch: the suite's {@code count / dop / depth}. */
    public int headsPerDriver() {
        return callsPerDriver() / depth;
    }

    /** The suite's {@code count / dop}, at least 1. */
    private int callsPerDriver() {
        return Math.max(1, calls / drivers);
    }

    @Override
    public String parameters() {
        return "drivers=" + (drivers == 1 ? "serial" : Integer.toString(drivers)) + ",depth=" + depth + ",from="
                + from.text() + ",calls=" + calls + ",requests=" + Quwi.requestsText(requests) + ",spin=" + spin
                + "," + window.parameters();
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        ThreadPool.Builder builder = ThreadPool.builder(context).name("quwi-suite").semaphoreSpinCount(spin);
        if (requests != null) {
            builder.requestPolicy(requests);
        }
        ThreadPool pool = builder.build();
        Suite suite = from == From.POOL ? new PoolDrivers(context, pool) : new DedicatedDrivers(context, pool);
        WorkloadResult result = suite.run();
        pool.shutdownNow();
        if (!pool.awaitTermination(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pool did not terminate after the run: " + pool);
        }
        return result;
    }

    /** What both blocks share: the run, the batches, a driver's loop. */
    private abstract class Suite {
        final SpinContext context;
        final ThreadPool pool;
        final MeasuredRun run;

        Suite(SpinContext context, ThreadPool pool, int threads, int slots) {
            this.context = context;
            this.pool = pool;
            this.run = new MeasuredRun(context, window, threads, slots);
            run.metric("drivers", drivers);
            run.metric("headsPerDriver", headsPerDriver());
            run.metric(WorkloadResult.OPERATIONS_PER_COUNT, depth); // a head is counted with its chain
        }

        abstract WorkloadResult run() throws InterruptedException;

        /** Starts a batch of {@link #drivers} drivers. */
        abstract void startBatch();

        /**
         * One driver of {@code batch}: queues its heads, counting each with its chain in
         * {@code slot}, and starts the next batch if it is the batch's last to return.
         */
        final void drive(Batch batch, int slot) {
            Link head = new Link(this, new ChainCounter(context, callsPerDriver()), depth - 1);
            int heads = headsPerDriver();
            for (int h = 0; h < heads && run.running(); h++) {
                pool.executeGlobal(head);
                run.count(slot, depth);
            }
            if (batch.driverReturned() && run.running()) {
                startBatch();
            }
        }
    }

    /** The "(TP)" block: drivers are tasks on the pool, queued by the worker that starts the batch. */
    private final class PoolDrivers extends Suite {
        private final ManualResetEvent finished;

        PoolDrivers(SpinContext context, ThreadPool pool) {
            super(context, pool, 1, 1 + drivers);
            this.finished = new ManualResetEvent(context);
        }

        @Override
        WorkloadResult run() throws InterruptedException {
            run.start("benchmark", slot -> {
                pool.execute(this::startBatch); // from outside the pool: the first batch starts on a worker
                finished.await();
            });
            return run.measure(QuwiSuite.this, finished::set);
        }

        @Override
        void startBatch() {
            Batch batch = new Batch(drivers);
            for (int d = 0; d < drivers; d++) {
                int slot = 1 + d;
                pool.execute(() -> drive(batch, slot)); // on a worker: into its local queue, as Task.Run
            }
        }
    }

    /** The block without "(TP)": drivers are tasks handed to dedicated threads outside the pool. */
    private final class DedicatedDrivers extends Suite {
        /** The blocking collection's store and its count of queued tasks. */
        private final ConcurrentQueue<Batch> tasks;
        private final SemaphoreSlim queued;

        DedicatedDrivers(SpinContext context, ThreadPool pool) {
            super(context, pool, drivers, drivers);
            this.tasks = new ConcurrentQueue<>(context);
            this.queued = new SemaphoreSlim(context, 0);
        }

        @Override
        WorkloadResult run() throws InterruptedException {
            for (int t = 0; t < drivers; t++) {
                run.start("driver-" + t, slot -> {
                    for (;;) {
                        queued.acquire();
                        Batch batch = tasks.poll();
                        if (!run.running() || batch == null) {
                            return;
                        }
                        drive(batch, slot);
                    }
                });
            }
            startBatch();
            return run.measure(QuwiSuite.this, () -> queued.release(drivers));
        }

        @Override
        void startBatch() {
            Batch batch = new Batch(drivers);
            for (int d = 0; d < drivers; d++) {
                tasks.offer(batch);
                queued.release();
            }
        }
    }

    /** One batch: how many of its drivers have not yet returned. */
    private static final class Batch {
        private volatile int running;

        Batch(int drivers) {
            this.running = drivers;
        }

        /** True for the batch's last driver to return. */
        boolean driverReturned() {
            return (int) RUNNING.getAndAdd(this, -1) == 1;
        }

        private static final VarHandle RUNNING;

        static {
            try {
                RUNNING = MethodHandles.lookup().findVarHandle(Batch.class, "running", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** The suite's per-driver counter: every link counts itself off; at zero it releases a semaphore nobody waits on. */
    private static final class ChainCounter {
        private final SemaphoreSlim semaphore;
        private volatile long remaining;

        ChainCounter(SpinContext context, long remaining) {
            this.semaphore = new SemaphoreSlim(context, 0);
            this.remaining = remaining;
        }

        void linkRan() {
            if ((long) REMAINING.getAndAdd(this, -1L) == 1L) {
                semaphore.release();
            }
        }

        private static final VarHandle REMAINING;

        static {
            try {
                REMAINING = MethodHandles.lookup().findVarHandle(ChainCounter.class, "remaining", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** A link of a chain: queues the next while links remain, then counts itself off. */
    private static final class Link implements Runnable {
        private final Suite suite;
        private final ChainCounter counter;
        private final int linksAfter;

        Link(Suite suite, ChainCounter counter, int linksAfter) {
            this.suite = suite;
            this.counter = counter;
            this.linksAfter = linksAfter;
        }

        @Override
        public void run() {
            if (linksAfter > 0) {
                try {
                    suite.pool.executeGlobal(new Link(suite, counter, linksAfter - 1));
                } catch (RejectedExecutionException e) {
                    if (suite.run.running()) {
                        throw e;
                    }
                    // the run is over and the pool shut down: the chain ends here
                }
            }
            counter.linkRan();
        }
    }
}
