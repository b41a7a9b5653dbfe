package io.spinlab.impl.pool;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker thread of a {@link ThreadPool} and its life: it waits on the pool's
 * {@link LifoSemaphore} for a wake-up, serves thread requests (its own queue newest first,
 * then the global queue, then steals oldest first from the other workers, starting at a
 * random one), and exits after the idle timeout or once the pool is drained. Its local
 * {@link WorkStealingQueue} takes the work it submits. An item that throws goes to the pool's
 * error handler; the worker survives. Internal to the pool.
 */
final class PoolWorker implements Runnable {
    /*
     * Implementation notes.
     *
     * Invariants: a worker that returned from the semaphore holds one processing slot
     * (ThreadCounts) until doWork gives it back (removeWorkingWorker, in a finally, so on every
     * exit); holdsSlot covers the window before doWork, so that a worker leaving there gives it
     * back once. `started` and `steals` have one writer, this worker; the gate reads `started`
     * to see progress.
     *
     * Death: an Error thrown inside the pool's own code (items' throwables are caught) ends the
     * worker. Its existing count is not lowered: a replacement worker takes its place, because a
     * wake-up may already be counted for it (removeWorkingWorker re-adds a slot for a waiting
     * request and signals the semaphore, expecting an existing worker to take it). Lowering
     * existing instead would leave processing above existing and the signal with no taker.
     * .NET has no counterpart: an unhandled exception on a pool thread ends the process.
     *
     * Spin/wait policy: idle workers wait on the LifoSemaphore (spin count 70, Sleep(0)
     * interleaved, then park LIFO); between two requests a worker does Sleep(0) + SpinWait(1)
     * (WorkerDoWork). A worker dispatches for at most a 30 ms quantum before it lets others in.
     *
     * Retirement: after the idle timeout a worker exits unless every existing worker is
     * processing (more work came in meanwhile); its exit lowers the goal back towards the
     * minimum. A worker that finds the pool drained exits, and the last one to exit lets the
     * pool terminate.
     *
     * Not done: LocalFindAndPop inlining (a worker that joins a Task blocks; starvation
     * injection then adds a worker).
     */

    final ThreadPool pool;
    final int id;
    final WorkStealingQueue<Runnable> local;
    final WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();
    volatile Thread thread;
    /** Items this worker started; written by the worker only, read by the gate. */
    volatile long started;
    /** Items this worker stole; written by the worker only. */
    volatile long steals;
    boolean exitedAfterTimeout;

    PoolWorker(ThreadPool pool, int id) {
        this.pool = pool;
        this.id = id;
        this.local = new WorkStealingQueue<>(pool.context);
    }

    void markStarted() {
        // Single writer: a plain increment published with release semantics is enough.
        STARTED.setRelease(this, started + 1);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            loop();
        } finally {
            pool.retireSteals(steals);
            thread = null;
        }
    }

    /** The worker thread's life: wait for a wake-up, serve requests, exit when idle or drained. */
    private void loop() {
        ThreadPool p = pool;
        p.bind(this);
        boolean holdsSlot = false;
        Throwable death = null;
        try {
            boolean spinWait = true;
            for (;;) {
                if (p.drained()) {
                    return;
                }
                if (p.semaphore.await(p.idleTimeoutNanos, spinWait)) {
                    holdsSlot = true;
                    if (p.drained()) {
                        return;
                    }
                    holdsSlot = false; // doWork gives the slot back, however it ends
                    doWork();
                    spinWait = true;
                } else if (p.counts.tryRetireIdle(p.minWorkers)) {
                    exitedAfterTimeout = true;
                    return;
                }
            }
        } catch (Throwable t) {
            death = t;
            throw t;
        } finally {
            finish(holdsSlot, death);
        }
    }

    private void doWork() {
        ThreadPool p = pool;
        try {
            while (p.takeActiveRequest()) {
                dispatch();
                if (!p.hasRequests()) {
                    break;
                }
                // WorkerDoWork: a short pause before serving the next request, against thrashing.
                p.platform.sleep(0);
                if (!p.context.singleProcessor()) {
                    p.context.spinWait(1);
                }
            }
        } finally {
            p.removeWorkingWorker();
        }
    }

    /** Serves one thread request: finds work and runs it for up to a quantum. */
    private void dispatch() {
        ThreadRequests requests = pool.requests;
        Platform platform = pool.platform;
        WorkStealingQueue.MissedSteal m = missed;
        m.clear();
        Runnable item = requests.firstItem(this, m);
        if (item == null) {
            return;
        }
        long start = platform.nanoTime();
        for (;;) {
            runItem(item);
            if (platform.nanoTime() - start >= ThreadPool.DISPATCH_QUANTUM_NANOS) {
                requests.ensureRequested(); // let another worker (maybe this one) continue
                return;
            }
            m.clear();
            item = dequeue(m);
            if (item == null) {
                if (m.missed()) {
                    requests.ensureRequested();
                }
                return;
            }
        }
    }

    /** The next item for this worker: its own newest, the global queue's oldest, or a stolen one; null if none. */
    Runnable dequeue(WorkStealingQueue.MissedSteal missedSteal) {
        Runnable item = local.pop();
        if (item != null) {
            return item;
        }
        item = pool.globalQueue.poll();
        if (item != null) {
            return item;
        }
        PoolWorker[] all = pool.workers();
        int n = all.length;
        if (n > 1) {
            int start = pool.platform.nextRandom(n);
            for (int i = 0; i < n; i++) {
                PoolWorker victim = all[(start + i) % n];
                if (victim != this) {
                    item = victim.local.trySteal(missedSteal);
                    if (item != null) {
                        STEALS.setRelease(this, steals + 1); // single writer, read as an estimate
                        return item;
                    }
                }
            }
        }
        return null;
    }

    /** True if this worker's queue or the global queue holds work (a hint: no steal is tried). */
    boolean moreWorkLikely() {
        return !local.isEmpty() || !pool.globalQueue.isEmpty();
    }

    private void runItem(Runnable item) {
        markStarted();
        // Every item that starts after shutdownNow() starts interrupted, as in ThreadPoolExecutor's
        // runWorker: shutdownNow() interrupts only the workers it finds registered, so a worker that
        // registered after its look (started for an item accepted while it ran) interrupts itself. Before
        // the stop, an interrupt meant for an earlier item must not leak into this one; but one that
        // shutdownNow() delivered between the look at the run state and the clearing is put back.
        if (pool.stopping() || (Thread.interrupted() && pool.stopping())) {
            Thread.currentThread().interrupt();
        }
        try {
            item.run();
        } catch (Throwable t) {
            reportError(item, t);
        }
        pool.itemDone();
    }

    private void reportError(Runnable item, Throwable t) {
        try {
            pool.errorHandler.accept(item, t);
        } catch (Throwable ignored) {
            // The handler itself failed: nothing sensible is left to tell; the worker survives.
        }
    }

    /**
     * The worker's exit: hands leftover local items to the global queue, leaves the registry and the
     * counts (or, after a death, hands its place to a replacement), and lets the pool terminate.
     */
    private void finish(boolean holdsSlot, Throwable death) {
        ThreadPool p = pool;
        // The local queue is empty unless the worker dies from an Error inside the pool itself.
        boolean moved = false;
        for (Runnable left = local.pop(); left != null; left = local.pop()) {
            p.globalQueue.offer(left);
            moved = true;
        }
        if (moved) {
            p.requests.ensureRequested();
        }
        p.unbind(this);
        if (holdsSlot) {
            p.counts.update(-1, 0);
        }
        if (!exitedAfterTimeout && !(death != null && p.replaceDeadWorker(death))) {
            p.counts.update(0, -1);
        }
        p.maybeTerminate();
    }

    // VarHandle mechanics
    private static final VarHandle STARTED;
    private static final VarHandle STEALS;

    static {
        try {
            STARTED = MethodHandles.lookup().findVarHandle(PoolWorker.class, "started", long.class);
            STEALS = MethodHandles.lookup().findVarHandle(PoolWorker.class, "steals", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
