package io.spinlab.impl.pool;

import io.spinlab.impl.collections.ConcurrentFifo;
import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.ThreadRequestPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * A work-stealing thread pool modelled on the .NET thread pool ({@code ThreadPoolWorkQueue}
 * and the portable pool's worker management). Work submitted from outside the pool goes to a
 * global queue, chosen by the {@code global-queue} knob ({@link ConcurrentQueue} or the legacy
 * {@link QueueSegmentQueue}); work submitted by a worker goes to that worker's local
 * {@link WorkStealingQueue}. A worker looks for work in its own queue (newest first), then the
 * global queue, then steals (oldest first) from the other workers, starting at a random one.
 *
 * <p>Workers are woken through a {@link LifoSemaphore}, so idle workers spin briefly, then
 * sleep newest-first, and time out after the idle timeout. How many wake-ups queued work asks
 * for is a {@link ThreadRequestPolicy}, the {@code thread-requests} knob: one request per queued
 * item up to the processor count (every generation spinlab models), or at most one outstanding
 * request that each woken worker passes on when it finds more work (later .NET, a what-if here). The number of workers stays between the configured minimum
 * (the target) and maximum; when queued work makes no progress for a gate interval (all
 * workers blocked), the pool adds a worker (starvation injection, as .NET's gate thread).
 *
 * <p>Guarantees: every item accepted by {@link #execute} runs exactly once, unless
 * {@link #shutdownNow()} returns it; an item that throws never kills its worker (the exception
 * goes to the error handler); after {@link #shutdown()} accepted items still run, new ones
 * are rejected, and the pool terminates once they are done and its threads have exited. All
 * threads come from the {@link Platform}. Progress: submission is lock-free; workers block.
 */
public final class ThreadPool implements Executor {
    /*
     * Implementation notes.
     *
     * ctl (one long, CAS'd): bits 60..63 run state (RUNNING, SHUTDOWN, STOP, TERMINATED),
     * bits 0..59 pending = items accepted and neither finished nor drained. "Drained" means
     * run state >= SHUTDOWN and pending == 0: nothing can ever be queued again.
     *
     * threadCounts (one long, CAS'd; .NET ThreadCounts): bits 0..15 processing (workers that
     * hold a wake-up: they are dispatching or about to), bits 16..31 existing (worker threads
     * alive), bits 32..47 goal (target of processing; min..max).
     *
     * Invariants:
     *   - processing <= existing; every processing slot was paid for by one semaphore signal
     *     (maybeAddWorkingWorker raises processing, creates a thread if needed, and releases
     *     one signal; the thread that takes it owns the slot until removeWorkingWorker).
     *   - requested = thread requests not yet taken by a worker (TakeActiveRequest).
     *   - cascading: stage SCHEDULED implies a request that has not started scanning, or a
     *     scanning (DETERMINING) worker whose CAS back from DETERMINING will fail and who then
     *     rescans or requests. Per item: `outstanding` requests have not yet started scanning.
     *   Either way an item queued before a request's scan starts is seen by that scan.
     *
     * Lost wake-ups: an enqueuer queues, then reads/updates the request state; a worker
     * marks the request state, then scans the queues. All are volatile or CAS, so either the
     * scan sees the item or the enqueuer sees the state that makes it request.
     *
     * Termination: the thread that makes the pool drained wakes every idle worker (processing
     * := existing, with that many signals); a worker that finds the pool drained exits; the
     * last one to exit (existing == 0), with the gate thread stopped, sets TERMINATED. A
     * thread creation raises existing first and re-checks "drained" after, undoing itself if
     * so, which closes the race with the last exiting worker.
     *
     * Spin/wait policy: idle workers wait on the LifoSemaphore (spin count 70, Sleep(0)
     * interleaved, then park LIFO); between two requests a worker does Sleep(0) + SpinWait(1)
     * (WorkerDoWork). A worker dispatches for at most a 30 ms quantum before it lets others in.
     *
     * Why not simpler: one shared blocking queue (ThreadPoolExecutor) makes every submission
     * and every take contend on one lock and wakes a worker per item; per-worker LIFO queues
     * keep a chain of work items on one warm thread, and the request protocol wakes workers
     * one at a time only while there is more work than the woken ones can see.
     *
     * Not done: hill climbing (the goal moves only by starvation injection and idle
     * timeouts), high-priority and assignable global queues, LocalFindAndPop inlining (a
     * worker that joins a Task blocks; starvation injection then adds a worker).
     */

    /** How long a worker dispatches before returning to the request loop ({@code DispatchQuantumMs}). */
    public static final long DISPATCH_QUANTUM_NANOS = 30_000_000L;
    /** Default idle time after which a worker exits. */
    public static final long DEFAULT_IDLE_TIMEOUT_NANOS = 20_000_000_000L;
    /** Default period of the starvation check. */
    public static final long DEFAULT_GATE_INTERVAL_NANOS = 500_000_000L;
    /** Most workers a pool may have. */
    public static final int MAX_WORKERS_LIMIT = 0x7FFF;

    static final int STATE_SHIFT = 60;
    static final long PENDING_MASK = (1L << STATE_SHIFT) - 1;
    static final long RUNNING = 0;
    static final long SHUTDOWN = 1;
    static final long STOP = 2;
    static final long TERMINATED = 3;

    static final long PROCESSING_ONE = 1L;
    static final int EXISTING_SHIFT = 16;
    static final long EXISTING_ONE = 1L << EXISTING_SHIFT;
    static final int GOAL_SHIFT = 32;
    static final long GOAL_ONE = 1L << GOAL_SHIFT;
    static final long SIXTEEN_BITS = 0xFFFF;

    static final long NOT_SCHEDULED = 0;
    static final long DETERMINING = 1;
    static final long SCHEDULED = 2;

    static final long GATE_NOT_STARTED = 0;
    static final long GATE_RUNNING = 1;
    static final long GATE_STOPPED = 2;

    private final SpinContext context;
    private final Platform platform;
    private final String name;
    private final int minWorkers;
    private final int maxWorkers;
    private final long idleTimeoutNanos;
    private final long gateIntervalNanos;
    private final BiConsumer<Runnable, Throwable> errorHandler;
    private final ThreadRequestPolicy requestPolicy;
    private final ConcurrentFifo<Runnable> globalQueue;
    private final LifoSemaphore semaphore;
    private final MonitorLock workersLock;
    private final ManualResetEvent terminated;
    private final ThreadLocal<Worker> currentWorker = new ThreadLocal<>();
    private final Object gateBlocker = new Object();

    private final PaddedLong ctl = new PaddedLong(RUNNING << STATE_SHIFT);
    private final PaddedLong threadCounts;
    private final PaddedLong requested = new PaddedLong(0);
    private final PaddedLong stage = new PaddedLong(NOT_SCHEDULED);
    private final PaddedLong outstanding = new PaddedLong(0);
    private final PaddedLong gateState = new PaddedLong(GATE_NOT_STARTED);

    /** Registered workers (copy-on-write under workersLock). */
    private volatile Worker[] workers = new Worker[0];
    private volatile Thread gateThread;
    /** Steals of workers that have exited; written under workersLock. */
    private volatile long retiredSteals;
    /** Guarded by workersLock. */
    private int nextWorkerId;

    private ThreadPool(Builder builder) {
        this.context = builder.context;
        this.platform = context.platform();
        this.name = builder.name;
        this.minWorkers = builder.minWorkers;
        this.maxWorkers = builder.maxWorkers;
        this.idleTimeoutNanos = builder.idleTimeoutNanos;
        this.gateIntervalNanos = builder.gateIntervalNanos;
        this.errorHandler = builder.errorHandler;
        GlobalQueuePolicy queuePolicy = context.tuning().globalQueue();
        this.requestPolicy = builder.requestPolicy != null ? builder.requestPolicy : context.tuning().threadRequests();
        this.globalQueue = queuePolicy == GlobalQueuePolicy.QUEUE_SEGMENT ? new QueueSegmentQueue<>(context)
                : new ConcurrentQueue<>(context);
        this.semaphore = new LifoSemaphore(context, 0, Integer.MAX_VALUE, builder.semaphoreSpinCount);
        this.workersLock = new MonitorLock(context, this);
        this.terminated = new ManualResetEvent(context, false, 0);
        this.threadCounts = new PaddedLong((long) minWorkers << GOAL_SHIFT);
    }

    /** A pool on real hardware with the current tuning and default settings. */
    public static ThreadPool create() {
        return builder(SpinContext.hardware()).build();
    }

    /** Settings for a pool that runs on {@code context}'s platform with its tuning. */
    public static Builder builder(SpinContext context) {
        return new Builder(context);
    }

    // ---------------------------------------------------------------- packed words

    static long runState(long c) {
        return c >>> STATE_SHIFT;
    }

    static long pending(long c) {
        return c & PENDING_MASK;
    }

    static int processing(long t) {
        return (int) (t & SIXTEEN_BITS);
    }

    static int existing(long t) {
        return (int) ((t >>> EXISTING_SHIFT) & SIXTEEN_BITS);
    }

    static int goal(long t) {
        return (int) ((t >>> GOAL_SHIFT) & SIXTEEN_BITS);
    }

    static long threadCountsOf(int processing, int existing, int goal) {
        return processing | ((long) existing << EXISTING_SHIFT) | ((long) goal << GOAL_SHIFT);
    }

    private static boolean drained(long c) {
        return runState(c) >= SHUTDOWN && pending(c) == 0;
    }

    private boolean drained() {
        return drained(ctl.value);
    }

    // ---------------------------------------------------------------- submission

    /**
     * Queues {@code command}: on a worker of this pool into its local queue, elsewhere into
     * the global queue.
     *
     * @throws RejectedExecutionException after shutdown
     */
    @Override
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command");
        accept();
        Worker w = currentWorker.get();
        if (w != null) {
            w.local.push(command);
        } else {
            globalQueue.offer(command);
        }
        ensureThreadRequested();
    }

    /**
     * Queues {@code command} in the global queue even from a worker ({@code forceGlobal}), so
     * that it runs in submission order with other global work.
     *
     * @throws RejectedExecutionException after shutdown
     */
    public void executeGlobal(Runnable command) {
        Objects.requireNonNull(command, "command");
        accept();
        globalQueue.offer(command);
        ensureThreadRequested();
    }

    /** Runs {@code callable} on the pool; the task completes with its value or exception. */
    public <T> Task<T> submit(Callable<T> callable) {
        Task<T> task = new Task<>(this, context, callable);
        execute(task);
        return task;
    }

    /** Runs {@code runnable} on the pool; the task completes with null or its exception. */
    public Task<Void> submit(Runnable runnable) {
        Objects.requireNonNull(runnable, "runnable");
        return submit(() -> {
            runnable.run();
            return null;
        });
    }

    private void accept() {
        for (;;) {
            long c = ctl.value;
            if (runState(c) != RUNNING) {
                throw new RejectedExecutionException(name + " is shut down");
            }
            if (pending(c) == PENDING_MASK) {
                throw new RejectedExecutionException(name + " holds too many pending items: " + pending(c));
            }
            if (casValue(ctl, c, c + 1)) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- thread requests

    private void ensureThreadRequested() {
        if (requestPolicy == ThreadRequestPolicy.CASCADING) {
            if ((long) VALUE.getAndSet(stage, SCHEDULED) == NOT_SCHEDULED) {
                requestWorker();
            }
            return;
        }
        int limit = platform.processorCount();
        for (;;) {
            long n = outstanding.value;
            if (n >= limit) {
                return;
            }
            if (casValue(outstanding, n, n + 1)) {
                requestWorker();
                return;
            }
        }
    }

    private void markThreadRequestSatisfied() {
        for (;;) {
            long n = outstanding.value;
            if (n <= 0 || casValue(outstanding, n, n - 1)) {
                return;
            }
        }
    }

    private void requestWorker() {
        VALUE.getAndAdd(requested, 1L);
        maybeAddWorkingWorker();
        ensureGateRunning();
    }

    private boolean takeActiveRequest() {
        for (;;) {
            long n = requested.value;
            if (n <= 0) {
                return false;
            }
            if (casValue(requested, n, n - 1)) {
                return true;
            }
        }
    }

    /** Raises processing by one if below the goal: wakes an idle worker or creates one. */
    private void maybeAddWorkingWorker() {
        long t;
        int processing;
        int existing;
        int newExisting;
        for (;;) {
            t = threadCounts.value;
            processing = processing(t);
            if (processing >= goal(t)) {
                return;
            }
            existing = existing(t);
            newExisting = Math.max(existing, processing + 1);
            if (casValue(threadCounts, t, threadCountsOf(processing + 1, newExisting, goal(t)))) {
                break;
            }
        }
        int toCreate = newExisting - existing;
        if (toCreate > 0 && drained()) {
            // Nothing can be queued any more: do not start a thread that could outlive termination.
            updateThreadCounts(-1, -toCreate);
            maybeTerminate();
            return;
        }
        semaphore.release(1);
        for (int i = 0; i < toCreate; i++) {
            startWorker();
        }
    }

    private void removeWorkingWorker() {
        updateThreadCounts(-1, 0);
        // A request may have arrived while processing was at the goal, after our last look.
        if (requested.value > 0) {
            maybeAddWorkingWorker();
        }
    }

    private long updateThreadCounts(int processingDelta, int existingDelta) {
        for (;;) {
            long t = threadCounts.value;
            int processing = processing(t) + processingDelta;
            int existing = existing(t) + existingDelta;
            assert processing >= 0 && existing >= 0 : "thread counts underflow: " + t;
            long next = threadCountsOf(Math.max(0, processing), Math.max(0, existing), goal(t));
            if (casValue(threadCounts, t, next)) {
                return next;
            }
        }
    }

    private void startWorker() {
        Worker w;
        workersLock.enter();
        try {
            w = new Worker(this, nextWorkerId++);
        } finally {
            workersLock.exit();
        }
        platform.startThread(name + "-worker-" + w.id, w);
    }

    // ---------------------------------------------------------------- dispatch

    private Runnable dequeue(Worker w, WorkStealingQueue.MissedSteal missed) {
        Runnable item = w.local.pop();
        if (item != null) {
            return item;
        }
        item = globalQueue.poll();
        if (item != null) {
            return item;
        }
        Worker[] all = workers;
        int n = all.length;
        if (n > 1) {
            int start = platform.nextRandom(n);
            for (int i = 0; i < n; i++) {
                Worker victim = all[(start + i) % n];
                if (victim != w) {
                    item = victim.local.trySteal(missed);
                    if (item != null) {
                        w.steals++;
                        return item;
                    }
                }
            }
        }
        return null;
    }

    private boolean moreWorkLikely(Worker w) {
        return !w.local.isEmpty() || !globalQueue.isEmpty();
    }

    /** Serves one thread request: finds work and runs it for up to a quantum. */
    private void dispatch(Worker w) {
        WorkStealingQueue.MissedSteal missed = w.missed;
        missed.clear();
        Runnable item = requestPolicy == ThreadRequestPolicy.CASCADING ? firstItemCascading(w, missed)
                : firstItemPerItem(w, missed);
        if (item == null) {
            return;
        }
        long start = platform.nanoTime();
        for (;;) {
            runItem(w, item);
            if (platform.nanoTime() - start >= DISPATCH_QUANTUM_NANOS) {
                ensureThreadRequested(); // let another worker (maybe this one) continue
                return;
            }
            missed.clear();
            item = dequeue(w, missed);
            if (item == null) {
                if (missed.missed()) {
                    ensureThreadRequested();
                }
                return;
            }
        }
    }

    private Runnable firstItemCascading(Worker w, WorkStealingQueue.MissedSteal missed) {
        stage.value = DETERMINING; // volatile: ordered before the scan's reads
        Runnable item;
        for (;;) {
            item = dequeue(w, missed);
            if (item != null) {
                break;
            }
            long witness = (long) VALUE.compareAndExchange(stage, DETERMINING, NOT_SCHEDULED);
            if (witness != SCHEDULED) {
                if (missed.missed()) {
                    ensureThreadRequested();
                }
                return null;
            }
            // An enqueuer saw DETERMINING and relied on this scan: scan again.
            stage.value = DETERMINING;
            missed.clear();
        }
        if (missed.missed() || moreWorkLikely(w)) {
            stage.value = SCHEDULED;
            requestWorker(); // cascade: one more worker, before running this item
        } else if ((long) VALUE.compareAndExchange(stage, DETERMINING, NOT_SCHEDULED) == SCHEDULED) {
            requestWorker(); // an enqueuer relied on this worker; it will be busy running the item
        }
        return item;
    }

    private Runnable firstItemPerItem(Worker w, WorkStealingQueue.MissedSteal missed) {
        markThreadRequestSatisfied();
        Runnable item = dequeue(w, missed);
        if (item == null) {
            if (missed.missed()) {
                ensureThreadRequested();
            }
            return null;
        }
        ensureThreadRequested();
        return item;
    }

    private void runItem(Worker w, Runnable item) {
        w.markStarted();
        if (runState(ctl.value) < STOP) {
            Thread.interrupted(); // an interrupt meant for an earlier item must not leak into this one
        }
        try {
            item.run();
        } catch (Throwable t) {
            reportError(item, t);
        }
        long before = (long) VALUE.getAndAdd(ctl, -1L);
        if (runState(before) >= SHUTDOWN && pending(before) == 1) {
            wakeAllForExit();
        }
    }

    private void reportError(Runnable item, Throwable t) {
        try {
            errorHandler.accept(item, t);
        } catch (Throwable ignored) {
            // The handler itself failed: nothing sensible is left to tell; the worker survives.
        }
    }

    /** Default handler: the thread's uncaught-exception handler, as an escaped exception would reach. */
    static void reportToUncaughtHandler(Runnable item, Throwable t) {
        Thread me = Thread.currentThread();
        me.getUncaughtExceptionHandler().uncaughtException(me, t);
    }

    // ---------------------------------------------------------------- workers

    private void register(Worker w) {
        workersLock.enter();
        try {
            Worker[] old = workers;
            Worker[] bigger = Arrays.copyOf(old, old.length + 1);
            bigger[old.length] = w;
            workers = bigger;
        } finally {
            workersLock.exit();
        }
    }

    private void deregister(Worker w) {
        workersLock.enter();
        try {
            Worker[] old = workers;
            List<Worker> kept = new ArrayList<>(old.length);
            for (Worker x : old) {
                if (x != w) {
                    kept.add(x);
                }
            }
            workers = kept.toArray(new Worker[0]);
        } finally {
            workersLock.exit();
        }
    }

    /** The worker thread's life: wait for a wake-up, serve requests, exit when idle or drained. */
    void workerLoop(Worker w) {
        currentWorker.set(w);
        register(w);
        boolean holdsSlot = false;
        try {
            boolean spinWait = true;
            for (;;) {
                if (drained()) {
                    return;
                }
                if (semaphore.await(idleTimeoutNanos, spinWait)) {
                    holdsSlot = true;
                    if (drained()) {
                        return;
                    }
                    doWork(w);
                    holdsSlot = false;
                    spinWait = true;
                } else if (shouldExitWorker()) {
                    w.exitedAfterTimeout = true;
                    return;
                }
            }
        } finally {
            finishWorker(w, holdsSlot);
        }
    }

    private void doWork(Worker w) {
        try {
            while (takeActiveRequest()) {
                dispatch(w);
                if (requested.value <= 0) {
                    break;
                }
                // WorkerDoWork: a short pause before serving the next request, against thrashing.
                platform.sleep(0);
                if (!context.singleProcessor()) {
                    context.spinWait(1);
                }
            }
        } finally {
            removeWorkingWorker();
        }
    }

    /** Idle timeout: exit unless more work came in meanwhile. */
    private boolean shouldExitWorker() {
        for (;;) {
            long t = threadCounts.value;
            int existing = existing(t);
            if (existing <= processing(t)) {
                return false;
            }
            int newGoal = Math.max(minWorkers, Math.min(existing - 1, goal(t)));
            if (casValue(threadCounts, t, threadCountsOf(processing(t), existing - 1, newGoal))) {
                return true;
            }
        }
    }

    private void finishWorker(Worker w, boolean holdsSlot) {
        // The local queue is empty unless the worker dies from an Error inside the pool itself.
        boolean moved = false;
        for (Runnable left = w.local.pop(); left != null; left = w.local.pop()) {
            globalQueue.offer(left);
            moved = true;
        }
        if (moved) {
            ensureThreadRequested();
        }
        deregister(w);
        currentWorker.remove();
        if (!w.exitedAfterTimeout) {
            updateThreadCounts(holdsSlot ? -1 : 0, -1);
        }
        maybeTerminate();
    }

    /** The pool is drained: give every idle worker a wake-up so that it sees it and exits. */
    private void wakeAllForExit() {
        int toRelease;
        for (;;) {
            long t = threadCounts.value;
            toRelease = existing(t) - processing(t);
            if (toRelease <= 0 || casValue(threadCounts, t, threadCountsOf(existing(t), existing(t), goal(t)))) {
                break;
            }
        }
        if (toRelease > 0) {
            semaphore.release(toRelease);
        }
        Thread gate = gateThread;
        if (gate != null) {
            platform.unpark(gate);
        }
        maybeTerminate();
    }

    private void maybeTerminate() {
        for (;;) {
            long c = ctl.value;
            if (!drained(c) || existing(threadCounts.value) != 0 || gateState.value == GATE_RUNNING) {
                return;
            }
            if (runState(c) == TERMINATED) {
                terminated.set();
                return;
            }
            if (casValue(ctl, c, TERMINATED << STATE_SHIFT)) {
                terminated.set();
                return;
            }
        }
    }

    // ---------------------------------------------------------------- starvation gate

    private void ensureGateRunning() {
        if (gateState.value != GATE_NOT_STARTED || !casValue(gateState, GATE_NOT_STARTED, GATE_RUNNING)) {
            return;
        }
        if (drained()) {
            gateState.value = GATE_STOPPED;
            maybeTerminate();
            return;
        }
        gateThread = platform.startThread(name + "-gate", this::gateLoop);
    }

    /** Every gate interval: if requests wait and no worker started an item since, add a worker. */
    private void gateLoop() {
        try {
            long lastStarted = -1;
            while (!drained()) {
                platform.parkNanos(gateBlocker, gateIntervalNanos);
                long started = itemsStarted();
                if (requested.value > 0 && started == lastStarted) {
                    injectWorker();
                }
                lastStarted = started;
            }
        } finally {
            gateState.value = GATE_STOPPED;
            maybeTerminate();
        }
    }

    private void injectWorker() {
        for (;;) {
            long t = threadCounts.value;
            int goal = goal(t);
            if (goal >= maxWorkers || processing(t) < goal) {
                break;
            }
            if (casValue(threadCounts, t, threadCountsOf(processing(t), existing(t), goal + 1))) {
                break;
            }
        }
        maybeAddWorkingWorker();
    }

    private long itemsStarted() {
        long n = 0;
        for (Worker w : workers) {
            n += w.started;
        }
        return n;
    }

    // ---------------------------------------------------------------- shutdown

    /** Rejects new work; accepted work still runs; the pool terminates when it is done. */
    public void shutdown() {
        for (;;) {
            long c = ctl.value;
            if (runState(c) >= SHUTDOWN) {
                return;
            }
            if (casValue(ctl, c, (SHUTDOWN << STATE_SHIFT) | pending(c))) {
                if (pending(c) == 0) {
                    wakeAllForExit();
                }
                return;
            }
        }
    }

    /**
     * Rejects new work, removes every queued item that has not started and returns them,
     * and interrupts the workers. An item accepted concurrently with this call may still run
     * instead of being returned; none is lost or run twice.
     */
    public List<Runnable> shutdownNow() {
        for (;;) {
            long c = ctl.value;
            if (runState(c) >= STOP || casValue(ctl, c, (STOP << STATE_SHIFT) | pending(c))) {
                break;
            }
        }
        List<Runnable> drainedItems = new ArrayList<>();
        for (Runnable r = globalQueue.poll(); r != null; r = globalQueue.poll()) {
            drainedItems.add(r);
        }
        for (Worker w : workers) {
            while (w.local.canSteal()) {
                Runnable r = w.local.trySteal();
                if (r != null) {
                    drainedItems.add(r);
                } else {
                    platform.yieldThread();
                }
            }
        }
        if (!drainedItems.isEmpty()) {
            long before = (long) VALUE.getAndAdd(ctl, -(long) drainedItems.size());
            if (pending(before) == drainedItems.size()) {
                wakeAllForExit();
            }
        } else if (drained()) {
            wakeAllForExit();
        }
        for (Worker w : workers) {
            Thread thread = w.thread;
            if (thread != null) {
                thread.interrupt();
            }
        }
        return drainedItems;
    }

    /** True after {@link #shutdown()} or {@link #shutdownNow()}. */
    public boolean isShutdown() {
        return runState(ctl.value) >= SHUTDOWN;
    }

    /** True once shut down, every accepted item is done and every pool thread has exited. */
    public boolean isTerminated() {
        return terminated.isSet();
    }

    /**
     * Waits until terminated or the timeout passes.
     *
     * @return true if terminated
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    // ---------------------------------------------------------------- observation

    /** Items accepted and not yet finished or drained. */
    public long pendingCount() {
        return pending(ctl.value);
    }

    /** Worker threads alive (a snapshot). */
    public int workerCount() {
        return existing(threadCounts.value);
    }

    /** The current target of busy workers (min..max). */
    public int workerGoal() {
        return goal(threadCounts.value);
    }

    /** Items workers have taken from other workers' local queues so far (approximate while running). */
    public long stealCount() {
        long n = 0;
        for (Worker w : workers) {
            n += w.steals;
        }
        return n + retiredSteals;
    }

    /** Threads of this pool alive now: workers and the gate thread (for leak checks). */
    public List<Thread> threads() {
        List<Thread> out = new ArrayList<>();
        for (Worker w : workers) {
            if (w.thread != null) {
                out.add(w.thread);
            }
        }
        Thread gate = gateThread;
        if (gate != null && gate.isAlive()) {
            out.add(gate);
        }
        return out;
    }

    /** The name that prefixes this pool's thread names. */
    public String name() {
        return name;
    }

    public ThreadRequestPolicy requestPolicy() {
        return requestPolicy;
    }

    /** The global queue's type, as the {@code global-queue} knob chose it. */
    public GlobalQueuePolicy globalQueuePolicy() {
        return context.tuning().globalQueue();
    }

    @Override
    public String toString() {
        long c = ctl.value;
        long t = threadCounts.value;
        String[] states = {"running", "shutdown", "stop", "terminated"};
        return "ThreadPool[" + name + ", " + states[(int) runState(c)] + ", pending=" + pending(c) + ", workers="
                + existing(t) + ", processing=" + processing(t) + ", goal=" + goal(t) + "]";
    }

    private static boolean casValue(PaddedLong word, long expected, long next) {
        return VALUE.compareAndSet(word, expected, next);
    }

    // ---------------------------------------------------------------- machinery

    /** A worker: its thread's local queue and bookkeeping. */
    static final class Worker implements Runnable {
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

        Worker(ThreadPool pool, int id) {
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
                pool.workerLoop(this);
            } finally {
                pool.retireSteals(steals);
                thread = null;
            }
        }

        private static final VarHandle STARTED;

        static {
            try {
                STARTED = MethodHandles.lookup().findVarHandle(Worker.class, "started", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    private void retireSteals(long n) {
        workersLock.enter();
        try {
            retiredSteals = retiredSteals + n;
        } finally {
            workersLock.exit();
        }
    }

    /*
     * Padding: ctl is hit by every submission and completion, threadCounts and requested by
     * every wake-up, stage by every enqueue; each alone on a 128-byte span so that they do not
     * false-share with each other or with the pool's read-mostly final fields.
     * Chain: LongPad1 → LongField → PaddedLong.
     */

    abstract static class LongPad1 {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    abstract static class LongField extends LongPad1 {
        volatile long value;
    }

    static final class PaddedLong extends LongField {
        long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;

        PaddedLong(long initial) {
            this.value = initial;
        }
    }

    /** Settings of a {@link ThreadPool}. */
    public static final class Builder {
        private final SpinContext context;
        private String name = "spinlab-pool";
        private int minWorkers;
        private int maxWorkers;
        private long idleTimeoutNanos = DEFAULT_IDLE_TIMEOUT_NANOS;
        private long gateIntervalNanos = DEFAULT_GATE_INTERVAL_NANOS;
        private int semaphoreSpinCount = LifoSemaphore.DEFAULT_SPIN_COUNT;
        private BiConsumer<Runnable, Throwable> errorHandler = ThreadPool::reportToUncaughtHandler;
        private ThreadRequestPolicy requestPolicy;

        Builder(SpinContext context) {
            this.context = Objects.requireNonNull(context, "context");
            int processors = context.platform().processorCount();
            this.minWorkers = Math.min(processors, MAX_WORKERS_LIMIT);
            this.maxWorkers = Math.min(Math.max(processors * 64, 256), MAX_WORKERS_LIMIT);
        }

        /** Thread name prefix. */
        public Builder name(String poolName) {
            this.name = Objects.requireNonNull(poolName, "name");
            return this;
        }

        /** Busy-worker target without starvation (default: the processor count). */
        public Builder minWorkers(int n) {
            this.minWorkers = n;
            return this;
        }

        /** Most workers, starvation injection included (default: max(64 × processors, 256)). */
        public Builder maxWorkers(int n) {
            this.maxWorkers = n;
            return this;
        }

        /** Idle time after which a worker exits (default 20 s). */
        public Builder idleTimeout(long time, TimeUnit unit) {
            this.idleTimeoutNanos = unit.toNanos(time);
            return this;
        }

        /** Period of the starvation check (default 500 ms). */
        public Builder gateInterval(long time, TimeUnit unit) {
            this.gateIntervalNanos = unit.toNanos(time);
            return this;
        }

        /** Spin iterations of an idle worker before it blocks (default 70). */
        public Builder semaphoreSpinCount(int n) {
            this.semaphoreSpinCount = n;
            return this;
        }

        /** Receives the exceptions of failed work items (default: the thread's uncaught-exception handler). */
        public Builder errorHandler(BiConsumer<Runnable, Throwable> handler) {
            this.errorHandler = Objects.requireNonNull(handler, "errorHandler");
            return this;
        }

        /**
         * How queued work requests workers. Default: the tuning's {@code thread-requests} knob,
         * independent of the global queue.
         */
        public Builder requestPolicy(ThreadRequestPolicy policy) {
            this.requestPolicy = Objects.requireNonNull(policy, "requestPolicy");
            return this;
        }

        /**
         * @throws IllegalArgumentException if a setting is out of range
         */
        public ThreadPool build() {
            if (minWorkers < 1 || minWorkers > maxWorkers || maxWorkers > MAX_WORKERS_LIMIT) {
                throw new IllegalArgumentException("workers: need 1 <= min (" + minWorkers + ") <= max ("
                        + maxWorkers + ") <= " + MAX_WORKERS_LIMIT);
            }
            if (idleTimeoutNanos <= 0 || gateIntervalNanos <= 0) {
                throw new IllegalArgumentException("idle timeout (" + idleTimeoutNanos + " ns) and gate interval ("
                        + gateIntervalNanos + " ns) must be positive");
            }
            if (semaphoreSpinCount < 0) {
                throw new IllegalArgumentException("semaphoreSpinCount = " + semaphoreSpinCount + " is negative");
            }
            return new ThreadPool(this);
        }
    }

    // VarHandle mechanics
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(LongField.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
