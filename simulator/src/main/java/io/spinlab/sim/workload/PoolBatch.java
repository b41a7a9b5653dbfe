package io.spinlab.sim.workload;

import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.pool.LifoSemaphore;
import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.ThreadRequestPolicy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The thread-pool microbenchmark of the dotnet/coreclr #9234 description: each of
 * {@code threads} threads outside the pool queues a batch of {@code items} work items, each of
 * which only signals the batch's {@link CountdownEvent}, waits for the event, and starts the
 * next batch. One such thread is the published "one non-pool thread queues and waits" case,
 * {@code threads=1pc} the "ProcessorCount threads all queueing" one. Items queued from outside
 * the pool go to its global queue, so the queue the tuning's {@code global-queue} knob selects
 * takes every item: the queuers' enqueues race the workers' dequeues on it. Score: work items
 * per ms, counted when a batch completes.
 *
 * <p>Not the QUWI matrix ({@link Quwi}): there a driver queues one item at a time and waits
 * for its chain, so the global queue holds at most one item per driver; here it holds up to a
 * batch.
 */
public final class PoolBatch extends WindowedWorkload {
    /*
     * Implementation notes
     *
     * The description says only "a bunch of work items" and gives no count: 1,000 is this
     * workload's default, said beside every row (the items parameter). Each queuer owns one
     * CountdownEvent and one work item (a Runnable that signals it), reused for every batch,
     * as the benchmark passes one state object: nothing is allocated per item, so the two
     * queues pay only for their own structures. A batch is counted when its wait returns, as
     * the benchmark times whole batches.
     */

    public static final String NAME = "pool-batch";
    /** Most work items per batch. */
    public static final int MAX_ITEMS = 1_000_000;

    static final WorkloadType.Parameter ITEMS = new WorkloadType.Parameter("items", "1000",
            "work items each thread queues before it waits for them all, 1.." + MAX_ITEMS);
    static final WorkloadType.Parameter REQUESTS = new WorkloadType.Parameter("requests", "tuning",
            "how queued work wakes workers: tuning (the thread-requests knob), per-item (every generation "
                    + "modelled) or cascading (later .NET, a what-if)");
    static final WorkloadType.Parameter SPIN = new WorkloadType.Parameter("spin",
            Integer.toString(LifoSemaphore.DEFAULT_SPIN_COUNT),
            "spin iterations of an idle worker on the pool's semaphore before it blocks, 0.." + Quwi.MAX_SPIN);

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "threads outside the pool each queue a batch of work items that signal a CountdownEvent and wait "
                    + "for it; work items/ms",
            parameterList(ITEMS, REQUESTS, SPIN),
            p -> new PoolBatch(p.threads("threads"), p.whole("items", 1, MAX_ITEMS),
                    Quwi.parseRequests(p.choice("requests", List.of("tuning", "per-item", "cascading"))),
                    p.whole("spin", 0, Quwi.MAX_SPIN), p.window()));

    private final int items;
    /** Null: the pool's default for the tuning. */
    private final ThreadRequestPolicy requests;
    private final int spin;

    /**
     * @param threads  threads outside the pool that queue batches
     * @param items    work items per batch, 1..{@value #MAX_ITEMS}
     * @param requests how queued work wakes workers; null for the tuning's {@code thread-requests}
     * @param spin     spin iterations of an idle worker before it blocks, 0..{@value Quwi#MAX_SPIN}
     * @param window   warm-up and measured window
     */
    public PoolBatch(ThreadCount threads, int items, ThreadRequestPolicy requests, int spin, Window window) {
        super(threads, window);
        if (items < 1 || items > MAX_ITEMS) {
            throw new IllegalArgumentException("items = " + items + "; valid: 1.." + MAX_ITEMS);
        }
        if (spin < 0 || spin > Quwi.MAX_SPIN) {
            throw new IllegalArgumentException("spin = " + spin + "; valid: 0.." + Quwi.MAX_SPIN);
        }
        this.items = items;
        this.requests = requests;
        this.spin = spin;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Work items per batch. */
    public int items() {
        return items;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("items", Integer.toString(items));
        s.put("requests", Quwi.requestsText(requests));
        s.put("spin", Integer.toString(spin));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        ThreadPool.Builder builder = ThreadPool.builder(context).name("batch").semaphoreSpinCount(spin);
        if (requests != null) {
            builder.requestPolicy(requests);
        }
        ThreadPool pool = builder.build();
        int queuers = threads().resolve(context.processorCount());
        MeasuredRun run = new MeasuredRun(context, window(), queuers);
        run.metric("threads", queuers);
        run.metric(WorkloadResult.OPERATIONS_PER_COUNT, items); // a batch is counted when its wait returns
        for (int q = 0; q < queuers; q++) {
            run.start("queuer-" + q, slot -> {
                CountdownEvent done = new CountdownEvent(context, items);
                Runnable signal = done::signal;
                while (run.running()) {
                    done.reset(items);
                    for (int i = 0; i < items; i++) {
                        pool.execute(signal);
                    }
                    done.await();
                    run.count(slot, items);
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
}
