package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.memory.FieldLayouts;
import io.spinlab.sim.memory.MemoryModel;
import io.spinlab.sim.os.OsCosts;
import io.spinlab.sim.os.Scheduler;
import io.spinlab.sim.os.SchedulingRules;
import io.spinlab.sim.os.ThreadState;
import io.spinlab.sim.trace.Activity;

import io.spinlab.sim.trace.EventLogDigest;
import io.spinlab.sim.trace.Picos;

import io.spinlab.sim.trace.RunMetrics;

import io.spinlab.sim.trace.TraceRecorder;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The discrete-event core of one {@link Simulation}: the virtual clock, the event queue, the
 * simulated threads, and when each {@code Platform} request is handled (what a request does is
 * {@link Requests}'; putting threads on processors and taking them off, {@link Dispatcher}'s).
 * Package-private machinery; {@link Simulation} and {@link SimulatedPlatform} are its faces.
 */
final class Engine {
    /*
     * Implementation notes
     *
     * Execution: exactly one simulated thread runs at a time, on the engine's own (platform)
     * thread, which is the carrier of every simulated virtual thread. A Platform call stores a
     * request in the thread's SimThread and parks the virtual thread; that returns control to
     * runThread here, which handles the request at the current virtual time and schedules the
     * thread's next event. The loop then pops the earliest event in (time, seq) order. Java
     * code between two Platform calls therefore executes atomically at the instant of the
     * first call's completion, and costs no virtual time; the cost of each call is charged to
     * the processor the thread runs on, from OsCosts.
     *
     * Event kinds: RESUME (a running thread's current operation is over: it reaches its next
     * scheduling point, where a full time slice with others waiting preempts it, and an
     * injected preemption may hold it off), WAKE (a park or sleep ends: unpark + wake latency,
     * timeout, spurious, interrupt; superseded wakes carry an old token and are skipped), READY
     * (an injected preemption ends). A running thread has exactly one RESUME pending.
     *
     * Who pays what (see OsCosts): a running thread's operations are charged to it and to its
     * processor as working/spinning/yielding; an unpark that wakes a parked thread costs the
     * waker wakeCallNs (the system call) on top of the atomic, unless the thread parked less than
     * half a context switch before (OsCosts.goingToSleepPicos): it is not asleep yet, the waker
     * pays a bare system call (yieldIdleNs), and the parker runs again one contextSwitchNs after
     * its park (switched out and back in; jittered by costJitterPercent with noise on), with no wake latency (on Windows with the boost of
     * any satisfied wait). When a thread leaves a processor (park, sleep,
     * end, preemption) and another is ready, the processor spends contextSwitchNs before the
     * other runs (charged to the incoming thread as runnable time, and to the processor as
     * switching); a yield to a ready thread spends yieldReadyNs instead. A thread woken onto an
     * idle processor starts at once: the wake latency already covers the IPI and C-state exit.
     *
     * Scheduling (Scheduler keeps the queues, SchedulingRules holds the profile's OS rules,
     * Dispatcher puts threads on processors and takes them off by those rules):
     * each processor has its own ready queue, a ready thread goes where the rules prefer, a yield
     * looks only at the caller's own queue, a zero sleep where the rules say, and an idle
     * processor takes from another's queue. A boosted thread (the rules' wait-completion boost)
     * waits ahead of unboosted threads, preempts an unboosted thread on its preferred processor
     * at that thread's next scheduling point (a PAUSE batch in progress is cut short for it: the
     * RESUME moves earlier under a new resumeToken, the stale one is skipped, and the PAUSE time
     * not spent is owed), and loses the boost when it completes a slice or yields; the thread it
     * preempted keeps the rest of its slice (as after an injected preemption). SMT: logical
     * processors of one core are numbered next to each other, and instructions drained at a
     * scheduling point are stretched as the siblings are busy at that instant (InstructionClock).
     *
     * Running ahead (memory model on): a request whose answer is known when it is made (a PAUSE
     * batch, a clock read, a charge, an unpark) is handled on the simulated thread itself, which
     * then runs on instead of waiting for the request's RESUME: up to its next request, which it
     * files and parks in. The engine handles that request at the first one's RESUME, at the time
     * and with the instruction time it would have had if the thread had parked and been run
     * there, so the events, their times and the digest are as without running ahead; only a
     * hand-off per such request is saved (a spin loop's PAUSE no longer parks). What the thread
     * does in between is local: its shared reads and writes are memory-model requests, and the
     * free calls that read the engine's state (nextRandom, nowPicos, the spin-wait bookkeeping,
     * parkUntil's deadline) first wait for the RESUME (catchUp). Only plain, uninstrumented
     * reads of shared fields and the JDK's interrupt status are read at the request's start
     * rather than its end: values a racy read may see on hardware as well.

     * Determinism: the only inputs to any decision are the event order (time, seq), thread
     * indices (creation order), the ready queues' FIFO order, and the seeded SimRandom streams.
     * Maps keyed by Thread or blocker objects are used for lookups only, never iterated for a
     * decision. The wall clock is read only to enforce the wall-clock budget.
     *
     * Memory model (on only when built with it): guest bytecode, loaded by the instrumenting
     * GuestClassLoader, calls GuestHooks before every volatile and VarHandle access; the hook
     * finds its SimThread through RUNNING and files a REQ_MEMORY request (object, offset,
     * kind) here, a scheduling point like any Platform call. The access happens when the thread
     * reaches it: after the instruction time drained into it (a deferred RESUME, see
     * handleRequest), so accesses of all processors reach the MemoryModel in the order of their
     * virtual times. The MemoryModel prices it from
     * the line's coherence state at that time (hit, transfer, stall behind another
     * core's exclusive access, atomic base cost); the thread is charged that as working time
     * and performs the access when it resumes, at the end of the charged interval. So a CAS
     * that another thread's CAS overtook meanwhile fails, exactly as on hardware, and
     * deterministically. The digest records each access with its object's first-touch id, its
     * offset and kind. A store without a fence goes into its processor's store buffer: the
     * thread is charged a hit and goes on, and if the MemoryModel says the store commits later
     * (its line is elsewhere, or an earlier store of the processor still waits) the hook hands
     * it to BufferedStores, which keeps it out of other threads' sight until the clock passes
     * its commit: runThread shows each thread its own view, and every advance of `now` commits
     * what is due. With the memory model off nothing of this exists and runs are as before.
     * SimulatedPlatform.charge(picos) stays the plain cost hook for finer models.
     *
     * A monitor held outside the simulation: a simulated virtual thread that blocks entering a
     * monitor held by another real thread (two parallel runs loading the same guest class take
     * the loader's lock) leaves its carrier, and the JDK resubmits it from the releasing
     * thread. onResume waits for that in real time (monitorReleased) and runs it on at the same
     * instant, so contention between runs never shows in a run. A monitor held by another
     * simulated thread of this run is never released while the engine waits: after
     * MONITOR_WAIT_NANOS that is reported like any other wait outside the Platform.
     *
     * Why no watchdog thread: a simulated thread that loops forever without a Platform call,
     * or parks while pinned (inside a class initializer), hangs the engine's thread. The first
     * is a usage error; the second is prevented by initializing classes before a run (see
     * Simulation). A watchdog could only report such a hang, not recover from it.
     */

    /** Digest codes for engine events; request kinds (1..8) are recorded with their own codes. */
    static final int DIGEST_DISPATCH = 16;
    private static final int DIGEST_WAKE = 17;
    static final int DIGEST_PREEMPT = 18;
    private static final int DIGEST_READY = 19;
    private static final int DIGEST_DONE = 20;
    private static final int DIGEST_START = 21;
    static final int DIGEST_MIGRATE = 22;
    /** Most resumes spent unwinding one thread at the end of an aborted run. */
    private static final int UNWIND_ATTEMPTS = 1_000;
    private static final long WALL_CHECK_MASK = 4095;
    static final long MEMORY_KIND_MASK = (1L << SimThread.MEMORY_KIND_BITS) - 1;
    /** Longest a simulated thread may wait, in wall time, for a monitor another real thread holds. */
    private static final long MONITOR_WAIT_NANOS = 10_000_000_000L;
    private static final long MONITOR_POLL_NANOS = 20_000;
    /** The simulated thread a virtual thread belongs to, set by the thread itself (see GuestHooks). */
    static final ThreadLocal<SimThread> RUNNING = new ThreadLocal<>();

    final MachineProfile machine;
    /** The profile's OS rules: where a ready thread goes, boosts, what a zero sleep gives way to. */
    private final SchedulingRules rules;
    /** Puts threads on processors and takes them off, by those rules. */
    private final Dispatcher dispatcher;
    /** What each request does to its thread once it is due. */
    private final Requests requests;
    final OsCosts costs;
    /** Prices the code a thread ran between two scheduling points. */
    private final InstructionClock instructions;
    final Scheduler scheduler;
    final Faults faults;
    final Budgets budgets;
    final long seed;
    final String context;
    /** The memory model, or null when the run has none. */
    final MemoryModel memory;
    /** Stores waiting in store buffers, and the running thread's view of them. */
    final BufferedStores stores = new BufferedStores();
    /** Threads may run ahead of requests whose answer is known when made (memory model on; see the notes). */
    private final boolean runAhead;
    /** The platform of this engine's simulation (set once by Simulation). */
    SimulatedPlatform platform;
    private final SimRandom faultRandom;
    /** The run-to-run noise: wake latency, PAUSE and clock-read costs, timer phases (drawing nothing when off). */
    private final Noise noise;
    private final SimRandom platformRandom;
    private final EventQueue queue = new EventQueue();
    private final ArrayList<SimThread> threads = new ArrayList<>();
    /** Threads started before the run, placed on processors in this order when it begins. */
    private final List<SimThread> startedBeforeRun = new ArrayList<>();
    private final HashMap<Thread, SimThread> byThread = new HashMap<>();
    private final BlockerTable blockers = new BlockerTable();
    /** The processor time inside the window the run's harness measures, once it is announced. */
    final WindowAccounting window = new WindowAccounting();
    private final ArrayDeque<SimThread> interrupted = new ArrayDeque<>();
    private final EventLogDigest digest = new EventLogDigest();
    private final TraceRecorder trace;
    /** The last scheduling points for a failure report, or null when not recorded. */
    private final SchedulingLog schedulingLog;
    private final long preemptionPicos;

    long now;
    long steps;
    /** Scheduling events the fast path took on the running thread itself (see continueInline). */
    long inlineContinuations;
    private final long virtualLimitPicos;
    private final long maxSteps;
    /** Times a simulated thread's continuation was run (hand-offs between the engine and a thread). */
    long handOffs;
    private int live;
    /** The simulated thread running right now, or null. */
    SimThread current;
    /** The thread whose continuation the engine is about to receive through SimThread.execute. */
    SimThread expecting;
    volatile boolean killing;
    private Thread engineThread;
    private boolean started;
    private volatile String foreignSubmit;
    private boolean monitorWaitTimedOut;
    private Outcome outcome;
    private String problem;
    private Throwable failure;
    private SimThread blockedOutside;

    Engine(MachineProfile machine, long seed, Faults faults, Budgets budgets, boolean traceOn, long traceLimit,
            String context, boolean memoryModel, int schedulingPoints, FieldLayouts layouts, boolean noise,
            boolean runAhead) {
        this.machine = machine;
        this.costs = OsCosts.of(machine);
        this.scheduler = new Scheduler(machine.logicalProcessors(), machine.smtThreadsPerCore(),
                costs.timeSlicePicos());
        this.rules = SchedulingRules.of(machine.os(), scheduler);
        this.instructions = new InstructionClock(machine, costs, scheduler, threads);
        this.faults = faults;
        this.budgets = budgets;
        this.seed = seed;
        this.context = context;
        this.runAhead = runAhead && memoryModel;
        SimRandom root = new SimRandom(seed);
        this.platformRandom = root.split();
        this.faultRandom = root.split();
        // Split after the others, so that turning noise on leaves their streams as they were.
        this.noise = new Noise(machine, costs, rules.alignsTicks(), noise ? root.split() : null);
        // The handover points of contended lines: their own stream, split after the noise's so that it stays as it was.
        this.memory = !memoryModel ? null
                : noise ? new MemoryModel(machine, Noise.handoverLegs(root.split()))
                : new MemoryModel(machine);
        this.trace = traceOn ? new TraceRecorder(machine.logicalProcessors(), traceLimit) : null;
        this.schedulingLog = schedulingPoints > 0 ? new SchedulingLog(schedulingPoints, layouts) : null;
        this.preemptionPicos = OsCosts.toPicos(faults.preemptionNanos());
        this.virtualLimitPicos = OsCosts.toPicos(budgets.maxVirtualNanos());
        this.maxSteps = budgets.maxSteps();
        this.dispatcher = new Dispatcher(this, scheduler, rules, costs, this.noise, queue, digest, trace, threads,
                preemptionPicos);
        ClockReads clock = new ClockReads(faultRandom, OsCosts.toPicos(faults.clockJitterNanos()));
        this.requests = new Requests(this, dispatcher, scheduler, rules, costs, this.noise, clock, memory, queue, digest,
                trace, schedulingLog, threads, byThread, blockers, faults, faultRandom);
    }

    // ------------------------------------------------------------------ simulated side

    /**
     * A scheduling point, called by a simulated thread: files the request, parks the virtual
     * thread (handing control to the engine) and returns the engine's answer once resumed.
     */
    long call(int kind, long arg, Object object) {
        SimThread me = current;
        if (me == null || me.thread != Thread.currentThread()) {
            throw notInSimulation();
        }
        if (killing) {
            throw new SimulationAbort();
        }
        me.reqKind = kind;
        me.reqArg = arg;
        me.reqObject = object;
        boolean wasInterrupted = Thread.interrupted();
        me.reqInterrupted = wasInterrupted;
        if (me.ahead) {
            // running ahead of an earlier request: this one waits for that one's RESUME (afterRun)
        } else if (!wasInterrupted && keepsProcessor(kind)) {
            afterRun(me);
            if (continueInline(me)) {
                return answer(me);
            }
            if (mayRunAhead(me, kind)) {
                me.ahead = true;
                me.reqKind = SimThread.REQ_NONE;
                return answer(me);
            }
            me.requestHandled = true;
        }
        me.resumed = false;
        do {
            LockSupport.park();
        } while (!me.resumed);
        if (wasInterrupted) {
            Thread.currentThread().interrupt();
        }
        if (killing) {
            throw new SimulationAbort();
        }
        return answer(me);
    }

    private static long answer(SimThread me) {
        RuntimeException error = me.reqError;
        if (error != null) {
            me.reqError = null;
            throw error;
        }
        return me.reqResult;
    }

    /**
     * Requests that read or change state other threads see (a memory access, an unpark, a
     * thread start) or give up the processor: handled at the instant the thread reaches them,
     * after the instructions before them, never earlier (see handleRequest).
     */
    private static boolean touchesOthers(int kind) {
        return kind == SimThread.REQ_MEMORY || kind == SimThread.REQ_UNPARK || kind == SimThread.REQ_START
                || kind == SimThread.REQ_YIELD || kind == SimThread.REQ_SLEEP || kind == SimThread.REQ_PARK;
    }

    /** Requests after which the thread runs on, on its processor: the ones the fast path may handle inline. */
    private static boolean keepsProcessor(int kind) {
        return kind == SimThread.REQ_MEMORY || kind == SimThread.REQ_PAUSE || kind == SimThread.REQ_CLOCK
                || kind == SimThread.REQ_CHARGE || kind == SimThread.REQ_UNPARK || kind == SimThread.REQ_FENCE;
    }

    /**
     * The fast path, on the simulated thread itself after its request was handled: if the
     * thread's RESUME is now the earliest event, and nothing the loop and onResume would do at
     * that event differs from running the thread on (no preemption due, no budget reached, no
     * wall-clock check due, no injected preemption possible), take the event here and let the
     * thread continue without parking. The loop would have taken the same event next and done
     * the same, so the event order and the digest are unchanged; only the hand-off is saved.
     * A RESUME that ends the instructions before a deferred request is taken the same way and
     * the request handled here, as onResume would; then its own RESUME is tried in turn.
     */
    private boolean continueInline(SimThread me) {
        while (true) {
            if (outcome != null || killing || !interrupted.isEmpty() || me.pauseRemainingPicos > 0
                    || faults.preemptionRate() > 0) {
                return false;
            }
            Event e = queue.peek();
            if (e == null || e.thread != me || e.kind != Event.RESUME || e.token != me.resumeToken) {
                return false;
            }
            long time = e.time;
            if (time > virtualLimitPicos || steps == maxSteps || ((steps + 1) & WALL_CHECK_MASK) == 0
                    || time >= window.sampleAt()) {
                return false;
            }
            if (dispatcher.preemptDue(me, time)) {
                return false;
            }
            queue.recycle(queue.poll());
            me.pauseEndPicos = 0;
            now = time;
            stores.commitUpTo(now);
            steps++;
            inlineContinuations++;
            me.heldOffLast = false;
            if (!me.requestDeferred) {
                me.reqKind = SimThread.REQ_NONE;
                return true;
            }
            me.requestDeferred = false; // its instructions are over: the request is due now (as in onResume)
            handleRequest(me, 0); // schedules its RESUME: take that one too if it is the earliest
        }
    }

    /**
     * Whether the running thread, whose request of {@code kind} was just handled on it and whose
     * RESUME is pending, may run on to its next request (see "Running ahead"). A memory access
     * may not: its value is read when the access's time is over.
     */
    private boolean mayRunAhead(SimThread me, int kind) {
        return runAhead && kind != SimThread.REQ_MEMORY && outcome == null && !killing
                && me.reqError == null && !me.requestDeferred;
    }

    /**
     * Called by a running thread before it reads the engine's state without a request: if it is
     * running ahead, it waits until the engine is at its pending RESUME and then runs on from
     * there, as if it had not run ahead. No event and no cost.
     */
    void catchUp(SimThread me) {
        if (me.ahead) {
            call(SimThread.REQ_CATCH_UP, 0, null);
        }
    }

    /** The running simulated thread if the caller is it, else null. */
    private SimThread runningCaller() {
        SimThread me = current;
        return me != null && me.thread == Thread.currentThread() ? me : null;
    }

    /** A memory access of guest code on {@code t}, the running thread (memory model on). */
    void memoryAccess(SimThread t, Object target, long offset, int kind) {
        call(SimThread.REQ_MEMORY, (offset << SimThread.MEMORY_KIND_BITS) | kind, target);
    }

    /** {@code Platform.startThread} from a simulated thread. */
    Thread callStart(String name, Runnable task) {
        SimThread me = current;
        if (me == null || me.thread != Thread.currentThread()) {
            throw notInSimulation();
        }
        me.reqTask = task;
        call(SimThread.REQ_START, 0, name);
        Thread child = me.reqResultThread;
        me.reqResultThread = null;
        return child;
    }

    /**
     * {@code Platform.measuredWindow}: the harness measures {@code [startNanos, endNanos)} of the
     * virtual clock, and {@code counted} (null for none) tells how many operations it has counted
     * so far, which the loop reads at the window's midpoint and end ({@link WindowAccounting#sampleAt()}).
     * Bookkeeping only, like the spin-wait attribution: not a scheduling point and not in the digest.
     */
    void measuredWindow(long startNanos, long endNanos, LongSupplier counted) {
        SimThread me = current;
        if (me == null || me.thread != Thread.currentThread()) {
            throw notInSimulation();
        }
        window.announce(OsCosts.toPicos(startNanos), OsCosts.toPicos(endNanos), counted);
    }

    /**
     * {@code Platform.beginSpinWait}: bookkeeping at the current instant, not a scheduling point
     * and not in the digest (it changes no decision).
     */
    void beginSpinWait(Object blocker) {
        SimThread me = current;
        if (me == null || me.thread != Thread.currentThread()) {
            throw notInSimulation();
        }
        if (killing) {
            return;
        }
        catchUp(me);
        if (me.spinBlockerId >= 0) {
            throw new IllegalStateException("'" + me.name + "' began a spin wait on " + blockers.of(blocker).name
                    + " inside its spin wait on " + blockers.get(me.spinBlockerId).name
                    + ": spin waits do not nest");
        }
        BlockerStats stats = blockers.of(blocker);
        stats.spinWaitBegan();
        me.spinBlockerId = stats.id;
        me.spinSince = now;
    }

    /** {@code Platform.endSpinWait}: as {@link #beginSpinWait}. */
    void endSpinWait(Object blocker) {
        SimThread me = current;
        if (me == null || me.thread != Thread.currentThread()) {
            if (killing) {
                return; // a thread unwinding at the end of an aborted run
            }
            throw notInSimulation();
        }
        if (me.spinBlockerId < 0) {
            if (killing) {
                return;
            }
            throw new IllegalStateException("'" + me.name + "' ended a spin wait on " + blockers.of(blocker).name
                    + " that it had not begun");
        }
        if (!killing) {
            catchUp(me);
        }
        BlockerStats stats = blockers.get(me.spinBlockerId);
        if (!BlockerTable.isOf(stats, blocker)) {
            throw new IllegalStateException("'" + me.name + "' ended a spin wait on " + blockers.of(blocker).name
                    + " while spin-waiting on " + stats.name);
        }
        stats.spinWaitEnded(now - me.spinSince);
        me.spinBlockerId = -1;
    }

    /** True when the caller is the simulated thread that runs now. */
    boolean onSimulatedThread() {
        SimThread me = current;
        return me != null && me.thread == Thread.currentThread();
    }

    int nextRandom(int bound) {
        if (started && !onSimulatedThread() && Thread.currentThread() != engineThread) {
            throw notInSimulation();
        }
        SimThread me = runningCaller();
        if (me != null) {
            catchUp(me);
        }
        return platformRandom.nextInt(bound);
    }

    private IllegalStateException notInSimulation() {
        return new IllegalStateException("Platform call from " + Thread.currentThread()
                + ", which is not the running thread of this simulation (calls are allowed only from threads "
                + "the simulation started, while it runs)");
    }

    /** Called from SimThread.execute when the JDK submits a continuation the engine did not ask for. */
    void unexpectedSubmit(SimThread t) {
        Thread caller = Thread.currentThread();
        SimThread running = current;
        boolean onEngine = caller == engineThread || (running != null && caller == running.thread);
        if (!onEngine) {
            t.resubmittedByOther = true;
            foreignSubmit = t.name;
            return;
        }
        if (t == running) {
            return; // Thread.yield() or a JDK-internal block by the running thread: seen in afterRun
        }
        interrupted.add(t);
    }

    // ------------------------------------------------------------------ setup

    /** Creates a simulated thread, runnable at the current virtual time. */
    SimThread newThread(String name, Runnable task, int parent) {
        SimThread s = new SimThread(this, threads.size(), name, task, now);
        s.lastProcessor = s.index % scheduler.processorCount();
        Thread vt = VirtualThreads.unstarted(s, name, s::body);
        s.thread = vt;
        threads.add(s);
        byThread.put(vt, s);
        live++;
        expecting = s;
        try {
            vt.start();
        } finally {
            expecting = null;
        }
        if (s.continuation == null) {
            throw new IllegalStateException("the JDK did not hand the new virtual thread '" + name + "' to the engine");
        }
        digest.record(now, DIGEST_START, s.index, parent, 0);
        s.stateSince = now;
        return s;
    }

    Thread startBeforeRun(String name, Runnable task) {
        if (started) {
            throw new IllegalStateException("the simulation is running or has run; start threads from inside it");
        }
        SimThread s = newThread(name, task, -1);
        s.state = ThreadState.RUNNABLE;
        startedBeforeRun.add(s);
        return s.thread;
    }

    // ------------------------------------------------------------------ the loop

    SimulationResult run() {
        if (started) {
            throw new IllegalStateException("a simulation runs once");
        }
        if (Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("run a simulation from a platform thread, not a virtual thread");
        }
        started = true;
        engineThread = Thread.currentThread();
        placeInitialThreads();
        loop();
        stores.commitAll();
        if (outcome == null) {
            outcome = live == 0 ? Outcome.COMPLETED : Outcome.DEADLOCK;
            if (outcome == Outcome.DEADLOCK) {
                problem = "deadlock: every live thread is parked and no timer is pending";
            }
        }
        String report = report();
        if (outcome != Outcome.COMPLETED) {
            unwind();
        }
        return result(report);
    }

    private void placeInitialThreads() {
        for (SimThread s : startedBeforeRun) {
            dispatcher.place(s);
        }
        startedBeforeRun.clear();
    }

    private void loop() {
        long wallStart = System.nanoTime();
        long wallLimitNanos = budgets.maxWallMillis() * 1_000_000L;
        long virtualLimit = virtualLimitPicos;
        for (;;) {
            if (outcome != null) {
                return;
            }
            Event e = queue.poll();
            if (e == null) {
                return;
            }
            SimThread t = e.thread;
            int kind = e.kind;
            long time = e.time;
            long token = e.token;
            queue.recycle(e);
            if (kind == Event.WAKE && (token != t.wakeToken
                    || (t.state != ThreadState.PARKED && t.state != ThreadState.SLEEPING))) {
                continue;
            }
            if (kind == Event.RESUME && token != t.resumeToken) {
                continue; // a PAUSE batch cut short: its RESUME moved earlier
            }
            if (kind == Event.BALANCE && !dispatcher.balanceStillDue((int) token)) {
                continue; // its processor idles: nothing to balance, and no reason to go on
            }
            if (time > virtualLimit) {
                now = virtualLimit;
                exhausted("virtual-time budget of " + Picos.format(virtualLimit) + " exhausted");
                return;
            }
            if (steps == maxSteps) {
                exhausted("step budget of " + maxSteps + " scheduling events exhausted");
                return;
            }
            now = time;
            stores.commitUpTo(now);
            if (time >= window.sampleAt()) {
                window.sample(); // here, on the engine's thread, never on a simulated one (continueInline)
            }
            steps++;
            if ((steps & WALL_CHECK_MASK) == 0 && System.nanoTime() - wallStart > wallLimitNanos) {
                exhausted("wall-clock budget of " + budgets.maxWallMillis() + " ms exhausted");
                return;
            }
            switch (kind) {
                case Event.RESUME -> onResume(t);
                case Event.WAKE -> onWake(t);
                case Event.READY -> onReady(t);
                case Event.BALANCE -> dispatcher.balance((int) token);
                default -> throw new AssertionError("event kind " + kind);
            }
        }
    }

    private void exhausted(String what) {
        outcome = Outcome.BUDGET_EXHAUSTED;
        problem = what + " at t=" + Picos.format(now) + " after " + steps + " steps";
    }

    // ------------------------------------------------------------------ event handlers

    private void onResume(SimThread t) {
        t.pauseEndPicos = 0;
        if (dispatcher.preemptDue(t, now)) {
            dispatcher.preempt(t, false);
            return;
        }
        if (t.heldOffLast) {
            t.heldOffLast = false; // runs at least one operation between injected preemptions
        } else if (faults.preemptionRate() > 0 && faultRandom.chance(faults.preemptionRate())) {
            t.heldOffLast = true;
            dispatcher.preempt(t, true);
            return;
        }
        if (t.requestDeferred) {
            t.requestDeferred = false;
            handleRequest(t, 0);
            return;
        }
        if (t.pauseRemainingPicos > 0) {
            long remaining = t.pauseRemainingPicos;
            t.pauseRemainingPicos = 0;
            requests.pauseFor(t, 0, remaining);
            return;
        }
        if (t.requestAtResume) {
            t.requestAtResume = false;
            if (t.reqKind != SimThread.REQ_CATCH_UP) {
                afterRun(t); // what the thread would have reached had it run from here
                return;
            }
        }
        runThread(t);
        while (t.reqKind == SimThread.REQ_NONE && !t.finished && monitorReleased(t)) {
            runThread(t); // same instant, same events: the wait was in real time only
        }
        afterRun(t);
        if (!interrupted.isEmpty()) {
            drainInterrupts();
        }
    }

    /**
     * Whether {@code t}, which gave up its carrier without a request, was blocked entering a
     * monitor that another real thread held and has been handed back since. That happens when
     * rows run in parallel and two simulations load the same guest class at once (the class
     * loader's lock). The engine waits for the JDK to resubmit the thread, up to
     * {@link #MONITOR_WAIT_NANOS} of wall time; no virtual time passes, so the run is the same
     * as if there had been no contention. Any other way of leaving the carrier (a JDK sleep,
     * yield or park) is reported as an error at once.
     */
    private boolean monitorReleased(SimThread t) {
        boolean blocked = t.thread.getState() == Thread.State.BLOCKED
                || (t.continuation != null && t.resubmittedByOther);
        if (!blocked) {
            return false;
        }
        long deadline = System.nanoTime() + MONITOR_WAIT_NANOS;
        while (t.continuation == null) {
            if (System.nanoTime() - deadline > 0) {
                monitorWaitTimedOut = true;
                return false;
            }
            LockSupport.parkNanos(MONITOR_POLL_NANOS);
        }
        foreignSubmit = null;
        return true;
    }

    private void runThread(SimThread t) {
        current = t;
        t.reqKind = SimThread.REQ_NONE;
        t.resumed = true;
        Runnable c = t.continuation;
        if (c == null) {
            expecting = t;
            LockSupport.unpark(t.thread);
            expecting = null;
            c = t.continuation;
            if (c == null) {
                current = null;
                throw new IllegalStateException("the JDK did not hand simulated thread " + t + " back to the engine");
            }
        }
        t.continuation = null;
        t.resubmittedByOther = false;
        handOffs++;
        stores.show(t);
        try {
            c.run();
        } finally {
            stores.showNewest();
            current = null;
        }
    }

    /** The thread stopped at a scheduling point (or ended): its instruction time drains into the request. */
    private void afterRun(SimThread t) {
        if (t.requestHandled) {
            t.requestHandled = false; // handled on the thread itself before it parked (see call)
            return;
        }
        if (t.ahead) {
            t.ahead = false; // it ran ahead of its pending RESUME: the request (or end) waits for it
            t.requestAtResume = true;
            return;
        }
        handleRequest(t, instructions.drain(t, now));
    }

    /**
     * Handles the request the running thread stopped at, {@code work} ps of instruction time
     * after now: added to the cost of a request whose effect is the thread's own (PAUSE, clock
     * read, charge), waited out first (one deferred RESUME) by one that reads or changes what
     * other threads see, leaves the processor or ends the thread, so that it happens at its own
     * time, in order with the other processors' requests.
     */
    private void handleRequest(SimThread t, long work) {
        int kind = t.reqKind;
        if (work > 0 && (t.finished || touchesOthers(kind))) {
            if (t.finished || !nothingComesFirst(t, later(work))) {
                t.requestDeferred = true;
                requests.continueAfter(t, work, 0, Activity.WORKING);
                return;
            }
            workThrough(t, work);
            work = 0;
        }
        if (t.finished) {
            onDone(t);
            return;
        }
        if (kind == SimThread.REQ_NONE) {
            blockedOutsidePlatform(t);
            return;
        }
        if (kind == SimThread.REQ_MEMORY) {
            requests.memoryAccess(t, work);
            return;
        }
        digest.record(now, kind, t.index, t.reqArg, 0);
        if (schedulingLog != null) {
            schedulingLog.request(now, t, kind == SimThread.REQ_UNPARK && t.reqObject != null
                    ? byThread.get((Thread) t.reqObject) : null);
        }
        requests.handle(t, kind, work);
        t.reqObject = null;
        t.reqTask = null;
    }

    /**
     * Whether the deferred RESUME of {@code t} at {@code time} would be the next event and
     * onResume would do nothing at it but handle the request: no other event at or before it,
     * within the virtual budget, no preemption due or injectable, no interrupt to deliver.
     * Then the engine need not queue it (see workThrough).
     */
    private boolean nothingComesFirst(SimThread t, long time) {
        Event next = queue.peek();
        return (next == null || next.time > time) && time <= virtualLimitPicos && interrupted.isEmpty()
                && faults.preemptionRate() == 0 && !dispatcher.preemptDue(t, time);
    }

    /**
     * {@code t} works off {@code work} ps of instructions and the clock moves past them: what
     * taking its deferred RESUME would do when nothing comes first (the same charges, trace and
     * time, one event fewer).
     */
    private void workThrough(SimThread t, long work) {
        long end = later(work);
        t.charge(Activity.WORKING, now, work);
        scheduler.processor(t.processor).addBusy(work);
        if (trace != null) {
            trace.threadActivity(t.index, Activity.WORKING, now, end, -1);
            trace.processorRun(t.processor, t.index, now, end);
        }
        now = end;
        stores.commitUpTo(now);
    }

    /** {@code SimpleName: first line of the message}, for one table cell. */
    private static String thrown(Throwable failure) {
        String message = String.valueOf(failure.getMessage()).strip();
        int nl = message.indexOf('\n');
        return failure.getClass().getSimpleName() + ": " + (nl < 0 ? message : message.substring(0, nl).strip());
    }

    /** The last scheduling points, oldest first (empty unless recorded). */
    List<SchedulingPoint> schedulingPoints() {
        return schedulingLog == null ? List.of() : schedulingLog.points();
    }

    private void onWake(SimThread t) {
        long waited = now - t.stateSince;
        if (t.state == ThreadState.PARKED) {
            t.charge(Activity.PARKED, t.stateSince, waited);
            if (trace != null) {
                trace.threadActivity(t.index, Activity.PARKED, t.stateSince, now, t.blockerId);
            }
            blockers.get(t.blockerId).woke(waited);
            t.blocker = null;
            t.blockerId = -1;
        } else {
            t.charge(Activity.SLEEPING, t.stateSince, waited);
            if (trace != null) {
                trace.threadActivity(t.index, Activity.SLEEPING, t.stateSince, now, -1);
            }
        }
        t.wakeUps++;
        if ((t.wakeCause == SimThread.CAUSE_UNPARK || t.wakeCause == SimThread.CAUSE_UNPARK_BEFORE_ASLEEP)
                && rules.boostsSignalledWake()) {
            // A signal satisfied the wait. Windows boosts a thread when it takes it out of an object's wait
            // list, where the thread is from early in its wait call, also if it has not switched away yet.
            t.boosted = true;
        }
        if (t.wakeCause == SimThread.CAUSE_SPURIOUS) {
            t.spuriousWakeUps++;
        }
        if (trace != null) {
            trace.woken(now, t.index, t.wakeCause, t.wakeFlowId);
        }
        t.pendingWakeTime = Long.MAX_VALUE;
        t.wakeFlowId = -1;
        digest.record(now, DIGEST_WAKE, t.index, t.wakeCause, 0);
        t.state = ThreadState.RUNNABLE;
        t.stateSince = now;
        dispatcher.placeWoken(t);
    }

    private void onReady(SimThread t) {
        t.heldOff = false;
        digest.record(now, DIGEST_READY, t.index, 0, 0);
        dispatcher.place(t);
    }

    private void onDone(SimThread t) {
        t.state = ThreadState.DONE;
        t.endPicos = now;
        live--;
        digest.record(now, DIGEST_DONE, t.index, t.failure == null ? 0 : 1, 0);
        if (schedulingLog != null) {
            schedulingLog.point(now, t, t.failure == null ? "end" : "threw " + thrown(t.failure), "");
        }
        int p = t.processor;
        dispatcher.leaveProcessor(t, p);
        dispatcher.handOff(p);
        if (t.failure != null && outcome == null) {
            outcome = Outcome.THREAD_FAILED;
            failure = t.failure;
            problem = "simulated thread '" + t.name + "' threw " + t.failure;
        }
    }

    private void blockedOutsidePlatform(SimThread t) {
        blockedOutside = t;
        outcome = Outcome.THREAD_FAILED;
        problem = "simulated thread '" + t.name + "' gave up its processor without a Platform call: it blocked or "
                + "yielded in the JDK (contended synchronized, a java.util.concurrent lock, Object.wait, Thread.sleep, "
                + "Thread.yield, LockSupport.park or I/O). Code under simulation must wait only through Platform."
                + (monitorWaitTimedOut ? " It waited more than " + MONITOR_WAIT_NANOS / 1_000_000_000L
                        + " s of wall time to enter a monitor (synchronized) that another thread held." : "")
                + (foreignSubmit != null ? " A JDK thread later resubmitted '" + foreignSubmit + "'." : "");
    }

    private void drainInterrupts() {
        while (!interrupted.isEmpty()) {
            SimThread t = interrupted.poll();
            if (t.state == ThreadState.PARKED || t.state == ThreadState.SLEEPING) {
                requests.scheduleWake(t, later(noise.wakeLatency()), SimThread.CAUSE_INTERRUPT, -1);
            }
        }
    }

    // ------------------------------------------------------------------ time

    /** {@code delta} ps from now, or the end of time where that overflows. */
    long later(long delta) {
        long at = now + delta;
        return at < now ? Long.MAX_VALUE : at;
    }

    /** {@code a + b} ps from now, or the end of time where that overflows. */
    long later(long a, long b) {
        long delta = a + b;
        return later(delta < a ? Long.MAX_VALUE : delta);
    }

    // ------------------------------------------------------------------ the end

    /** Unwinds every unfinished simulated thread so that no virtual thread outlives the run. */
    private void unwind() {
        killing = true;
        for (SimThread t : threads) {
            if (t == blockedOutside && t.continuation == null) {
                continue;
            }
            for (int attempt = 0; attempt < UNWIND_ATTEMPTS && !t.finished; attempt++) {
                current = t;
                t.resumed = true;
                Runnable c = t.continuation;
                if (c == null) {
                    expecting = t;
                    LockSupport.unpark(t.thread);
                    expecting = null;
                    c = t.continuation;
                }
                if (c == null) {
                    break;
                }
                t.continuation = null;
                try {
                    c.run();
                } finally {
                    current = null;
                }
            }
        }
        interrupted.clear();
    }

    String reproduction() {
        String spec = MachineSpec.describe(machine);
        String machineText = spec.contains(" ") ? "'" + spec + "'" : spec;
        return "machine=" + machineText + (context.isEmpty() ? "" : " " + context) + " seed=" + seed + " faults="
                + faults.describe() + (memory != null ? " memory=on" : "") + (noise.on() ? " noise=on" : "");
    }

    private String report() {
        return RunSummary.report(outcome, now, steps, problem, threads, blockers, blockedOutside, reproduction());
    }

    private SimulationResult result(String report) {
        RunMetrics metrics = RunSummary.metrics(now, steps, threads, scheduler, blockers, window.result());
        String hex = digest.hex();
        if (trace != null) {
            List<String> names = new ArrayList<>(threads.size());
            for (SimThread t : threads) {
                names.add(t.name);
            }
            List<String> blockerNames = new ArrayList<>();
            for (BlockerStats b : blockers.all()) {
                blockerNames.add(b.name);
            }
            Map<String, String> meta = new LinkedHashMap<>();
            meta.put("machine", machine.name());
            meta.put("seed", Long.toString(seed));
            meta.put("faults", faults.describe());
            meta.put("context", context);
            meta.put("outcome", outcome.name());
            meta.put("digest", hex);
            meta.put("memoryModel", memory != null ? "on" : "off");
            trace.finish(names, blockerNames, meta);
        }
        return new SimulationResult(outcome, now, steps, handOffs, hex, digest.events(), metrics, report,
                Optional.ofNullable(failure), reproduction(), Optional.ofNullable(trace), machine, seed, faults,
                Optional.ofNullable(memory).map(MemoryModel::metrics), schedulingPoints());
    }
}
