package io.spinlab.properties.interleave.scenario;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.interleave.Interleaving;
import io.spinlab.properties.interleave.Interleaving.Party;
import io.spinlab.properties.lincheck.CheckedContexts;

import java.util.concurrent.TimeUnit;

/**
 * Races inside {@link ThreadPool}'s bookkeeping that only an interleaving of single accesses reaches,
 * staged with {@link Interleaving}; the pool's worker and gate threads are parties the script runs.
 * Each scenario throws an {@link AssertionError} where the pool breaks its contract.
 */
public final class ThreadPoolInterleavings {
    private static final long START_NANOS = 1_000_000_000L;
    /** The global queue's first shared-memory access in an offer. */
    private static final String FIRST_QUEUE_ACCESS = "ConcurrentQueue.offer:tail";

    private ThreadPoolInterleavings() {
    }

    /**
     * The last worker exits while a submission that raced the shutdown asks for a worker: the request
     * counts a thread to create before it sees the pool drained, so the exiting worker's last look
     * finds one thread still counted and leaves the termination to the request, which takes its count
     * back and must then terminate the pool itself. Otherwise the pool, drained, with no thread left
     * (the gate stopped first), never terminates and {@code awaitTermination} waits for ever.
     */
    public static void requestUndoneAfterTheLastWorkersLastLookTerminatesThePool() {
        try (Interleaving il = Interleaving.begin(2, START_NANOS)) {
            ThreadPool pool = pool(il);
            pool.execute(() -> { }); // starts worker 0 (and the gate), neither run yet
            Party submitter = il.party("submitter", () -> pool.execute(() -> { }));
            Party worker = il.started("p-worker-0");
            Party gate = il.started("p-gate");
            submitter.runUntil("ThreadCounts.tryAddWorking:value"); // queued its item; about to ask for a worker
            pool.shutdown(); // two items pending: not drained yet
            worker.runUntil("ThreadPool.unbind:workers"); // ran both (the pool drained), found nothing more, exits
            gate.runToEnd(); // sees the pool drained and stops, with the worker still counted
            worker.runUntil("ThreadCounts.snapshot:value"); // uncounted itself; its last look at the counts comes next
            // it counted a thread to create and saw the pool drained: it undoes that next
            submitter.runUntil("ThreadCounts.update:value");
            worker.runToEnd(); // its last look finds the submitter's thread counted: not the one to terminate
            submitter.runToEnd();
            if (!pool.isTerminated()) {
                throw new AssertionError("the pool is drained and no thread is left, but it never terminated: " + pool);
            }
        }
    }

    /**
     * An item accepted while {@code shutdownNow()} runs, queued only after it drained the queues, still
     * runs (it is neither lost nor returned) on a worker started for it after {@code shutdownNow()}
     * interrupted the workers it found (none): the item must start interrupted all the same.
     */
    public static void itemAcceptedDuringShutdownNowStartsInterrupted() {
        try (Interleaving il = Interleaving.begin(2, START_NANOS)) {
            ThreadPool pool = pool(il);
            Boolean[] startedInterrupted = new Boolean[1];
            Party submitter = il.party("submitter",
                    () -> pool.execute(() -> startedInterrupted[0] = Thread.currentThread().isInterrupted()));
            submitter.runUntil(FIRST_QUEUE_ACCESS); // accepted (one item pending), not queued yet
            if (!pool.shutdownNow().isEmpty()) {
                throw new AssertionError("shutdownNow() returned an item that was not queued yet");
            }
            submitter.runToEnd(); // queues it and starts a worker for it (and the gate)
            il.started("p-worker-0").runToEnd();
            il.started("p-gate").runToEnd();
            assertRanInterruptedAndTerminated(startedInterrupted[0], pool);
        }
    }

    /**
     * {@code shutdownNow()} comes between a worker's look at the run state (not stopping) and its clearing
     * of an earlier item's interrupt, with the item already taken from the queue (so it is not returned):
     * the worker clears the interrupt {@code shutdownNow()} just delivered, and must put it back.
     */
    public static void shutdownNowBetweenAWorkersLookAndItsClearingStillInterruptsTheItem() {
        try (Interleaving il = Interleaving.begin(2, START_NANOS)) {
            ThreadPool pool = pool(il);
            Boolean[] startedInterrupted = new Boolean[1];
            pool.execute(() -> startedInterrupted[0] = Thread.currentThread().isInterrupted());
            Party worker = il.started("p-worker-0");
            worker.runUntil("PoolWorker.runItem:interrupted"); // took the item, saw the pool running
            if (!pool.shutdownNow().isEmpty()) {
                throw new AssertionError("shutdownNow() returned an item a worker had taken");
            }
            worker.runToEnd();
            il.started("p-gate").runToEnd();
            assertRanInterruptedAndTerminated(startedInterrupted[0], pool);
        }
    }

    /** The item ran, started interrupted, and the pool then terminated. */
    private static void assertRanInterruptedAndTerminated(Boolean startedInterrupted, ThreadPool pool) {
        if (startedInterrupted == null) {
            throw new AssertionError("the accepted item never ran: " + pool);
        }
        if (!startedInterrupted) {
            throw new AssertionError("an item that started after shutdownNow() was not interrupted");
        }
        if (!pool.isTerminated()) {
            throw new AssertionError("the pool did not terminate: " + pool);
        }
    }

    private static ThreadPool pool(Interleaving il) {
        return ThreadPool.builder(context(il)).name("p").minWorkers(1).maxWorkers(1)
                .idleTimeout(1, TimeUnit.SECONDS).gateInterval(500, TimeUnit.MILLISECONDS)
                .semaphoreSpinCount(0).requestPolicy(ThreadRequestPolicy.PER_ITEM).build();
    }

    private static SpinContext context(Interleaving il) {
        return SpinContext.of(il.platform(), Tuning.current(), CheckedContexts.FixedPauseNormalizer.INSTANCE);
    }
}
