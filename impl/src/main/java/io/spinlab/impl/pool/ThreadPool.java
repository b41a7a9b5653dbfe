package io.spinlab.impl.pool;

import io.spinlab.impl.collections.ConcurrentFifo;
import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.ThreadRequestPolicy;

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
 * request that each woken worker passes on when it finds more work (later .NET, a what-if
 * here). The {@code global-queue} knob chooses the global queue and nothing else. The number
 * of workers stays between the configured minimum (the target) and maximum; when queued work
 * makes no progress for a gate interval (all workers blocked), the pool adds a worker
 * (starvation injection, as .NET's gate thread).
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
     * The pool's parts, one file each: this class (submission, run state, worker registry,
     * termination, queries); PoolWorker (a worker's loop: dequeue, steal, wait on the
     * LifoSemaphore, retire); ThreadRequests with PerItemThreadRequests and
     * CascadingThreadRequests (the thread-requests knob); StarvationGate (starvation
     * injection); ThreadCounts (the processing/existing/goal word); PaddedLong (the padded,
     * CAS'd words they share).
     *
     * ctl (one long, CAS'd): bits 60..63 run state (RUNNING, SHUTDOWN, STOP, TERMINATED),
     * bits 0..59 pending = items accepted and neither finished nor drained. "Drained" means
     * run state >= SHUTDOWN and pending == 0: nothing can ever be queued again.
     *
     * Invariants:
     *   - requested = thread requests not yet taken by a worker (TakeActiveRequest). Each
     *     request tries to raise processing (maybeAddWorkingWorker); a worker that gives its
     *     slot back while requests remain tries again (removeWorkingWorker), so no request
     *     waits while processing is below the goal. ThreadCounts holds the
     *     processing/existing/goal invariants.
     *   - the global queue is the one the global-queue knob chose, and that knob chooses
     *     nothing else: the request policy comes from thread-requests (or the builder), the
     *     idle spin from the builder, the wake order from LifoSemaphore.
     *
     * Termination: the thread that makes the pool drained wakes every idle worker (processing
     * := existing, with that many signals); a worker that finds the pool drained exits; the
     * last one to exit (existing == 0), with the gate thread stopped, sets TERMINATED. A
     * thread creation raises existing first and re-checks "drained" after, undoing itself if
     * so, which closes the race with the last exiting worker.
     *
     * Why not simpler: one shared blocking queue (ThreadPoolExecutor) makes every submission
     * and every take contend on one lock and wakes a worker per item; per-worker LIFO queues
     * keep a chain of work items on one warm thread, and the request protocol wakes workers
     * one at a time only while there is more work than the woken ones can see.
     *
     * Not done: high-priority and assignable global queues (hill climbing: StarvationGate;
     * LocalFindAndPop inlining: PoolWorker).
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

    final SpinContext context;
    final Platform platform;
    private final String name;
    final int minWorkers;
    final int maxWorkers;
    final long idleTimeoutNanos;
    final BiConsumer<Runnable, Throwable> errorHandler;
    final ThreadRequests requests;
    final ConcurrentFifo<Runnable> globalQueue;
    private final GlobalQueuePolicy globalQueuePolicy;
    final LifoSemaphore semaphore;
    private final MonitorLock workersLock;
    private final ManualResetEvent terminated;
    private final ThreadLocal<PoolWorker> currentWorker = new ThreadLocal<>();

    private final PaddedLong ctl = new PaddedLong(RUNNING << STATE_SHIFT);
    final ThreadCounts counts;
    private final PaddedLong requested = new PaddedLong(0);
    private final StarvationGate gate;

    /** Registered workers (copy-on-write under workersLock). */
    private volatile PoolWorker[] workers = new PoolWorker[0];
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
        this.errorHandler = builder.errorHandler;
        this.requests = ThreadRequests.create(
                builder.requestPolicy != null ? builder.requestPolicy : context.tuning().threadRequests(), this);
        this.globalQueuePolicy = context.tuning().globalQueue();
        this.globalQueue = globalQueuePolicy == GlobalQueuePolicy.QUEUE_SEGMENT ? new QueueSegmentQueue<>(context)
                : new ConcurrentQueue<>(context);
        this.semaphore = new LifoSemaphore(context, 0, Integer.MAX_VALUE, builder.semaphoreSpinCount);
        this.workersLock = new MonitorLock(context, this);
        this.terminated = new ManualResetEvent(context, false, 0);
        this.counts = new ThreadCounts(minWorkers);
        this.gate = new StarvationGate(this, builder.gateIntervalNanos);
    }

    /** A pool on real hardware with the current tuning and default settings. */
    public static ThreadPool create() {
        return builder(SpinContext.hardware()).build();
    }

    /** Settings for a pool that runs on {@code context}'s platform with its tuning. */
    public static Builder builder(SpinContext context) {
        return new Builder(context);
    }

    // ---------------------------------------------------------------- run state

    static long runState(long c) {
        return c >>> STATE_SHIFT;
    }

    static long pending(long c) {
        return c & PENDING_MASK;
    }

    private static boolean drained(long c) {
        return runState(c) >= SHUTDOWN && pending(c) == 0;
    }

    /** True once shut down with nothing pending: nothing can ever be queued again. */
    boolean drained() {
        return drained(ctl.value);
    }

    /** True after {@link #shutdownNow()}. */
    boolean stopping() {
        return runState(ctl.value) >= STOP;
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
        PoolWorker w = currentWorker.get();
        if (w != null) {
            w.local.push(command);
        } else {
            globalQueue.offer(command);
        }
        requests.ensureRequested();
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
        requests.ensureRequested();
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
            if (ctl.compareAndSet(c, c + 1)) {
                return;
            }
        }
    }

    /** A worker finished an item (ran it, or it threw). */
    void itemDone() {
        long before = ctl.getAndAdd(-1L);
        if (runState(before) >= SHUTDOWN && pending(before) == 1) {
            wakeAllForExit();
        }
    }

    // ---------------------------------------------------------------- serving requests

    /** One more worker request: raises processing if below the goal, and starts the gate. */
    void requestWorker() {
        requested.getAndAdd(1L);
        maybeAddWorkingWorker();
        gate.ensureRunning();
    }

    /** True if some request has not been taken by a worker yet. */
    boolean hasRequests() {
        return requested.value > 0;
    }

    /** A woken worker takes one request ({@code TakeActiveRequest}); false if none is left. */
    boolean takeActiveRequest() {
        for (;;) {
            long n = requested.value;
            if (n <= 0) {
                return false;
            }
            if (requested.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** Raises processing by one if below the goal: wakes an idle worker or creates one. */
    void maybeAddWorkingWorker() {
        int toCreate = counts.tryAddWorking();
        if (toCreate == ThreadCounts.AT_GOAL) {
            return;
        }
        if (toCreate > 0 && drained()) {
            // Nothing can be queued any more: do not start a thread that could outlive termination.
            counts.update(-1, -toCreate);
            maybeTerminate();
            return;
        }
        semaphore.release(1);
        for (int i = 0; i < toCreate; i++) {
            startWorker();
        }
    }

    /** A worker gives its processing slot back. */
    void removeWorkingWorker() {
        counts.update(-1, 0);
        // A request may have arrived while processing was at the goal, after our last look.
        if (requested.value > 0) {
            maybeAddWorkingWorker();
        }
    }

    /**
     * A worker died of {@code death} inside the pool's code: starts a worker in its place, which keeps
     * its existing count (see PoolWorker). False, with nothing started, once the pool is drained
     * (nothing is left to serve: the dead worker's count is lowered and the pool may terminate) or if
     * the new thread could not be started (that failure is added to {@code death} as suppressed).
     */
    boolean replaceDeadWorker(Throwable death) {
        if (drained()) {
            return false;
        }
        try {
            startWorker();
            return true;
        } catch (Throwable t) {
            death.addSuppressed(t);
            return false;
        }
    }

    private void startWorker() {
        PoolWorker w;
        workersLock.enter();
        try {
            w = new PoolWorker(this, nextWorkerId++);
        } finally {
            workersLock.exit();
        }
        platform.startThread(name + "-worker-" + w.id, w);
    }

    // ---------------------------------------------------------------- worker registry

    /** The registered workers (a snapshot; do not modify). */
    PoolWorker[] workers() {
        return workers;
    }

    /** A worker thread starts: it becomes the current thread's worker and a steal victim. */
    void bind(PoolWorker w) {
        currentWorker.set(w);
        workersLock.enter();
        try {
            PoolWorker[] old = workers;
            PoolWorker[] bigger = Arrays.copyOf(old, old.length + 1);
            bigger[old.length] = w;
            workers = bigger;
        } finally {
            workersLock.exit();
        }
    }

    /** A worker thread ends: the reverse of {@link #bind}. */
    void unbind(PoolWorker w) {
        workersLock.enter();
        try {
            PoolWorker[] old = workers;
            List<PoolWorker> kept = new ArrayList<>(old.length);
            for (PoolWorker x : old) {
                if (x != w) {
                    kept.add(x);
                }
            }
            workers = kept.toArray(new PoolWorker[0]);
        } finally {
            workersLock.exit();
        }
        currentWorker.remove();
    }

    /** Keeps the steal count of a worker that exits. */
    void retireSteals(long n) {
        workersLock.enter();
        try {
            retiredSteals = retiredSteals + n;
        } finally {
            workersLock.exit();
        }
    }

    // ---------------------------------------------------------------- termination

    /** The pool is drained: give every idle worker a wake-up so that it sees it and exits. */
    private void wakeAllForExit() {
        int toRelease = counts.claimAllForExit();
        if (toRelease > 0) {
            semaphore.release(toRelease);
        }
        gate.wake();
        maybeTerminate();
    }

    /** Sets TERMINATED if the pool is drained, no worker thread exists and the gate has stopped. */
    void maybeTerminate() {
        for (;;) {
            long c = ctl.value;
            long t = counts.snapshot();
            if (!drained(c) || ThreadCounts.existing(t) != 0 || gate.isRunning()) {
                return;
            }
            if (runState(c) == TERMINATED || ctl.compareAndSet(c, TERMINATED << STATE_SHIFT)) {
                if (ThreadCounts.processing(t) != 0) {
                    counts.clearProcessing(); // wake-ups that no worker took: nobody is left to take them
                }
                terminated.set();
                return;
            }
        }
    }

    /** Default handler: the thread's uncaught-exception handler, as an escaped exception would reach. */
    static void reportToUncaughtHandler(Runnable item, Throwable t) {
        Thread me = Thread.currentThread();
        me.getUncaughtExceptionHandler().uncaughtException(me, t);
    }

    // ---------------------------------------------------------------- shutdown

    /** Rejects new work; accepted work still runs; the pool terminates when it is done. */
    public void shutdown() {
        for (;;) {
            long c = ctl.value;
            if (runState(c) >= SHUTDOWN) {
                return;
            }
            if (ctl.compareAndSet(c, (SHUTDOWN << STATE_SHIFT) | pending(c))) {
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
     * instead of being returned; none is lost or run twice, and every item that starts after
     * this call starts with its thread interrupted.
     */
    public List<Runnable> shutdownNow() {
        for (;;) {
            long c = ctl.value;
            if (runState(c) >= STOP || ctl.compareAndSet(c, (STOP << STATE_SHIFT) | pending(c))) {
                break;
            }
        }
        List<Runnable> drainedItems = new ArrayList<>();
        for (Runnable r = globalQueue.poll(); r != null; r = globalQueue.poll()) {
            drainedItems.add(r);
        }
        for (PoolWorker w : workers) {
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
            long before = ctl.getAndAdd(-(long) drainedItems.size());
            if (pending(before) == drainedItems.size()) {
                wakeAllForExit();
            }
        } else if (drained()) {
            wakeAllForExit();
        }
        for (PoolWorker w : workers) {
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
        return ThreadCounts.existing(counts.snapshot());
    }

    /** The current target of busy workers (min..max). */
    public int workerGoal() {
        return ThreadCounts.goal(counts.snapshot());
    }

    /** Items workers have taken from other workers' local queues so far (approximate while running). */
    public long stealCount() {
        long n = 0;
        for (PoolWorker w : workers) {
            n += w.steals;
        }
        return n + retiredSteals;
    }

    /** Threads of this pool alive now: workers and the gate thread (for leak checks). */
    public List<Thread> threads() {
        List<Thread> out = new ArrayList<>();
        for (PoolWorker w : workers) {
            if (w.thread != null) {
                out.add(w.thread);
            }
        }
        Thread gateThread = gate.thread();
        if (gateThread != null && gateThread.isAlive()) {
            out.add(gateThread);
        }
        return out;
    }

    /** The name that prefixes this pool's thread names. */
    public String name() {
        return name;
    }

    /** How queued work requests workers: the {@code thread-requests} knob, or the builder's choice. */
    public ThreadRequestPolicy requestPolicy() {
        return requests.policy();
    }

    /** The global queue's type, as the {@code global-queue} knob chose it. */
    public GlobalQueuePolicy globalQueuePolicy() {
        return globalQueuePolicy;
    }

    @Override
    public String toString() {
        long c = ctl.value;
        long t = counts.snapshot();
        String[] states = {"running", "shutdown", "stop", "terminated"};
        return "ThreadPool[" + name + ", " + states[(int) runState(c)] + ", pending=" + pending(c) + ", workers="
                + ThreadCounts.existing(t) + ", processing=" + ThreadCounts.processing(t) + ", goal="
                + ThreadCounts.goal(t) + "]";
    }

    // ---------------------------------------------------------------- settings

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
}
