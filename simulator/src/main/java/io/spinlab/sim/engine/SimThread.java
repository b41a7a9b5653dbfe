package io.spinlab.sim.engine;

import io.spinlab.sim.os.ThreadState;
import io.spinlab.sim.trace.Activity;

import java.util.Locale;
import java.util.concurrent.Executor;

/**
 * The engine's record of one simulated thread: its virtual thread, its OS state, the
 * {@code Platform} request it is blocked in, and its accounting. Also the virtual thread's
 * scheduler: the JDK hands the thread's continuation to {@link #execute}.
 */
final class SimThread implements Executor {
    /*
     * Implementation notes
     *
     * Threading: every field except `continuation` is touched only on the engine's thread, or
     * by the simulated thread itself while the engine is blocked running it (the same OS
     * thread, one after the other), so plain fields suffice. `continuation` is volatile because
     * a JDK-internal thread may resubmit a virtual thread (after monitor contention or a real
     * timed park); that is a usage error the engine reports, but it must not corrupt memory.
     *
     * Requests: the simulated thread fills req* and parks; the engine reads them when the
     * continuation returns, acts, writes reqResult/reqError and resumes the thread later.
     */

    /** Request kinds: what a simulated thread asks of the engine at a scheduling point. */
    static final int REQ_NONE = 0;
    static final int REQ_PAUSE = 1;
    static final int REQ_CLOCK = 2;
    static final int REQ_YIELD = 3;
    static final int REQ_SLEEP = 4;
    static final int REQ_PARK = 5;
    static final int REQ_UNPARK = 6;
    static final int REQ_START = 7;
    static final int REQ_CHARGE = 8;
    /** A volatile or VarHandle access of guest code (memory model on): reqObject, reqArg = offset << 2 | kind. */
    static final int REQ_MEMORY = 9;
    /**
     * Not a request to handle: a thread running ahead waits for its pending RESUME before it
     * reads the engine's state (Engine.catchUp), then runs on.
     */
    static final int REQ_CATCH_UP = 10;
    /**
     * {@code VarHandle.fullFence()} of guest code: a locked instruction without a line, which
     * waits for the processor's store buffer to drain (memory model on; an atomic's cost in the
     * fast mode).
     */
    static final int REQ_FENCE = 11;
    /** REQ_YIELD's argument for {@code Platform.yieldThread}: {@code SwitchToThread} or {@code sched_yield}. */
    static final long YIELD_SWITCH_TO_THREAD = 0;
    /** REQ_YIELD's argument for {@code Platform.sleep(0)}: Windows' {@code Sleep(0)}, Linux's {@code sched_yield}. */
    static final long YIELD_SLEEP_ZERO = 1;
    /** Bits of reqArg that hold the access kind of a REQ_MEMORY. */
    static final int MEMORY_KIND_BITS = 2;

    /** Why a parked or sleeping thread woke. */
    static final int CAUSE_UNPARK = 0;
    static final int CAUSE_TIMEOUT = 1;
    static final int CAUSE_SPURIOUS = 2;
    static final int CAUSE_INTERRUPT = 3;
    /** An unpark that reached the thread before it was asleep (see OsCosts.goingToSleepPicos). */
    static final int CAUSE_UNPARK_BEFORE_ASLEEP = 4;

    final Engine engine;
    final int index;
    final String name;
    final Runnable task;
    Thread thread;

    volatile Runnable continuation;
    /** The JDK resubmitted the continuation from a thread other than the engine's (a monitor was released). */
    volatile boolean resubmittedByOther;
    boolean resumed;
    boolean finished;
    Throwable failure;

    int reqKind;
    long reqArg;
    Object reqObject;
    Runnable reqTask;
    boolean reqInterrupted;
    long reqResult;
    Thread reqResultThread;
    RuntimeException reqError;

    ThreadState state = ThreadState.RUNNABLE;
    int processor = -1;
    /** When the current non-running state began (a yield may set it slightly in the future). */
    long stateSince;
    boolean permit;
    /** When the unpark that gave the permit took effect: a park before then waits for it. */
    long permitAt;
    Object blocker;
    int blockerId = -1;
    long blockedSince;
    /** The blocker of the spin wait in progress (Platform.beginSpinWait), or -1. */
    int spinBlockerId = -1;
    long spinSince;
    long pendingWakeTime = Long.MAX_VALUE;
    long wakeToken;
    int wakeCause;
    long wakeFlowId = -1;
    boolean heldOff;
    /**
     * Of its time slice, what the thread had run when an injected preemption or a higher
     * priority took its processor: it keeps the rest of that slice when it runs again (as a
     * Windows thread keeps the rest of its quantum when something else preempts it), so a boost
     * still ends after one slice of its own running. 0 otherwise.
     */
    long sliceUsedPicos;
    /** Linux only: processor time used, ps, relative to the last processor's queue (see WakeupPreemption). */
    long vruntimePicos;
    /** When the thread last got its processor (Linux's virtual runtime counts from there). */
    long runStartPicos;
    /** When the thread last left a processor (Linux's balancing leaves a recently run thread where it is), ps. */
    long offProcessorPicos;
    /** The last scheduling point was an injected preemption (the next one is exempt). */
    boolean heldOffLast;
    /** Static initializers of guest classes being run by this thread: no hook schedules while above 0. */
    int initializerDepth;
    /** Bytecode instructions executed since the last scheduling point (the instruction clock). */
    long pendingInstructions;
    /**
     * The last request, a store without a fence, commits after the thread goes on: when, ps (the
     * hook then reports the store to {@link BufferedStores}); 0 otherwise.
     */
    long storeCommitAt;
    /** The buffered store the thread is making: begun before the guest's store, recorded after it. */
    BufferedStores.Pending storeInFlight;
    /** Bytes of new arrays zeroed and of {@code System.arraycopy} copied since the last scheduling point. */
    long pendingStoredBytes;
    /**
     * The request in req* waits for the instruction time that preceded it to pass: the engine
     * handles it at the next RESUME instead of running the thread.
     */
    boolean requestDeferred;
    /** The request in req* was handled on the thread itself, which then parked anyway (Engine.call). */
    boolean requestHandled;
    /**
     * The thread runs ahead of its pending RESUME: its last request was handled on it and it
     * went on without waiting for the request's time to pass (Engine "Running ahead").
     */
    boolean ahead;
    /** The request in req* (or the thread's end) was made running ahead: the engine handles it at the pending RESUME. */
    boolean requestAtResume;
    /** PAUSE time still owed by a batch that a time-slice end or a preemption interrupted, ps. */
    long pauseRemainingPicos;
    /** When the PAUSE batch in progress ends, or 0 when the thread's current operation is not one, ps. */
    long pauseEndPicos;
    /** When the PAUSE time of the batch in progress began (after its instructions), ps. */
    long pauseStartPicos;
    /** The token of this thread's one valid RESUME; cutting a PAUSE batch short supersedes the pending one. */
    long resumeToken;
    /** The last value this thread's clock reads returned, ns (they never go backwards). */
    long lastClockNanos;
    /** The processor this thread ran on last, or its ideal processor before it first runs. */
    int lastProcessor;
    /** Whether the thread has been on a processor yet. */
    boolean hasRun;
    /**
     * Windows' priority boost: set when a signal ends the thread's wait, cleared when the thread
     * completes a time slice; a boosted thread runs ahead of unboosted ones.
     */
    boolean boosted;

    final long startPicos;
    long endPicos = -1;
    final long[] activityPicos = new long[Activity.values().length];
    long contextSwitches;
    long wakeUps;
    long spuriousWakeUps;
    long preemptions;

    SimThread(Engine engine, int index, String name, Runnable task, long startPicos) {
        this.engine = engine;
        this.index = index;
        this.name = name;
        this.task = task;
        this.startPicos = startPicos;
    }

    /** The body of the virtual thread: the task, with failures recorded instead of thrown. */
    void body() {
        Engine.RUNNING.set(this);
        try {
            if (!engine.killing) {
                task.run();
            }
        } catch (SimulationAbort abort) {
            // unwound at the end of a run
        } catch (Throwable t) {
            failure = t;
        } finally {
            Engine.RUNNING.remove();
            finished = true;
        }
    }

    /** The virtual thread's scheduler: called by the JDK with the continuation to run. */
    @Override
    public void execute(Runnable command) {
        continuation = command;
        if (engine.expecting != this) {
            engine.unexpectedSubmit(this);
        }
    }

    /**
     * Charges {@code picos} ps of {@code activity} from virtual time {@code from} (the interval
     * {@code [from, from + |picos|)}; negative takes back time charged before), also to the
     * measured window's processor time.
     */
    void charge(Activity activity, long from, long picos) {
        activityPicos[activity.ordinal()] += picos;
        engine.window.charge(activity, from, picos);
    }

    @Override
    public String toString() {
        return "'" + name + "' (" + state.name().toLowerCase(Locale.ROOT) + ")";
    }
}
