package io.spinlab.sim.engine;

import io.spinlab.sim.memory.AccessKind;
import io.spinlab.sim.memory.MemoryModel;
import io.spinlab.sim.os.OsCosts;
import io.spinlab.sim.os.Processor;
import io.spinlab.sim.os.Scheduler;
import io.spinlab.sim.os.SchedulingRules;
import io.spinlab.sim.os.ThreadState;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.EventLogDigest;
import io.spinlab.sim.trace.TraceRecorder;

import java.util.List;
import java.util.Map;

/**
 * What each {@code Platform} request does to the thread that made it, once the {@link Engine}
 * has decided that it is due (after the instructions before it): a PAUSE batch (cut at the slice
 * end), a clock read, a charge, a fence, a memory access priced by the memory model, a yield or a
 * zero sleep by the profile's rules, a sleep, a park with its timeout and injected spurious
 * wake-ups, an unpark with its wake latency, a thread start. Each charges its thread and
 * processor and schedules the thread's next event; leaving and taking processors is the
 * {@link Dispatcher}'s. Fault draws happen here in the order the requests are handled, so runs
 * stay deterministic.
 */
final class Requests {
    private final Engine engine;
    private final Dispatcher dispatcher;
    private final Scheduler scheduler;
    private final SchedulingRules rules;
    private final OsCosts costs;
    private final Noise noise;
    private final ClockReads clock;
    /** The memory model, or null when the run has none. */
    private final MemoryModel memory;
    private final EventQueue queue;
    private final EventLogDigest digest;
    /** The trace, or null when none is recorded. */
    private final TraceRecorder trace;
    /** The last scheduling points for a failure report, or null when not recorded. */
    private final SchedulingLog schedulingLog;
    /** The engine's threads, by index, and by their virtual threads. */
    private final List<SimThread> threads;
    private final Map<Thread, SimThread> byThread;
    private final BlockerTable blockers;
    private final Faults faults;
    private final SimRandom faultRandom;
    private final long spuriousMaxPicos;
    private final long delayedWakeMaxPicos;
    /** The next id of a trace flow arrow from an unpark to its wake-up. */
    private long nextFlowId;

    Requests(Engine engine, Dispatcher dispatcher, Scheduler scheduler, SchedulingRules rules, OsCosts costs,
            Noise noise, ClockReads clock, MemoryModel memory, EventQueue queue, EventLogDigest digest,
            TraceRecorder trace, SchedulingLog schedulingLog, List<SimThread> threads, Map<Thread, SimThread> byThread,
            BlockerTable blockers, Faults faults, SimRandom faultRandom) {
        this.engine = engine;
        this.dispatcher = dispatcher;
        this.scheduler = scheduler;
        this.rules = rules;
        this.costs = costs;
        this.noise = noise;
        this.clock = clock;
        this.memory = memory;
        this.queue = queue;
        this.digest = digest;
        this.trace = trace;
        this.schedulingLog = schedulingLog;
        this.threads = threads;
        this.byThread = byThread;
        this.blockers = blockers;
        this.faults = faults;
        this.faultRandom = faultRandom;
        this.spuriousMaxPicos = OsCosts.toPicos(faults.spuriousWakeupMaxDelayNanos());
        this.delayedWakeMaxPicos = OsCosts.toPicos(faults.delayedWakeupMaxNanos());
    }

    /**
     * Handles request {@code kind} (any but a memory access) of running thread {@code t},
     * {@code work} ps of instructions after now.
     */
    void handle(SimThread t, int kind, long work) {
        switch (kind) {
            case SimThread.REQ_PAUSE -> pauseFor(t, work, noise.cost(costs.pausePicos((int) t.reqArg)));
            case SimThread.REQ_CLOCK -> {
                t.reqResult = clock.read(t, engine.later(work));
                continueAfter(t, work, noise.cost(costs.clockReadPicos()), Activity.WORKING);
            }
            case SimThread.REQ_CHARGE -> continueAfter(t, work, costs.atLeastFloor(t.reqArg), Activity.WORKING);
            case SimThread.REQ_FENCE -> continueAfter(t, work, costs.atLeastFloor(memory != null
                    ? memory.fence(t.processor, engine.later(work)) : costs.atomicOpPicos()), Activity.WORKING);
            case SimThread.REQ_YIELD -> {
                if (t.reqArg == SimThread.YIELD_SLEEP_ZERO) {
                    sleepZero(t);
                } else {
                    yieldProcessor(t);
                }
            }
            case SimThread.REQ_SLEEP -> sleep(t, t.reqArg);
            case SimThread.REQ_PARK -> park(t);
            case SimThread.REQ_UNPARK -> {
                // The unpark's locked instruction (the parker's mutex, the futex word) waits for the waker's
                // store buffer first: the thread it wakes sees every store made before the unpark.
                long drain = memory != null ? memory.drainWait(t.processor, engine.later(work)) : 0;
                long call = costs.atomicOpPicos() + switch (unpark(t, (Thread) t.reqObject, work + drain)) {
                    case WOKE_ASLEEP -> costs.wakeCallPicos();
                    case WOKE_BEFORE_ASLEEP -> costs.yieldIdlePicos();
                    default -> 0L;
                };
                continueAfter(t, work, drain + call, Activity.WORKING);
            }
            case SimThread.REQ_START -> {
                SimThread child = engine.newThread((String) t.reqObject, t.reqTask, t.index);
                t.reqResultThread = child.thread;
                dispatcher.makeRunnable(child);
                continueAfter(t, work, costs.threadStartPicos(), Activity.WORKING);
            }
            default -> throw new AssertionError("request kind " + kind);
        }
    }

    /**
     * The memory access {@code t} stopped at, {@code work} ps of instructions after now: priced by
     * the memory model from the line's state now, charged as working time after the instructions;
     * a store that commits after that time is kept from other threads' sight until it does.
     */
    void memoryAccess(SimThread t, long work) {
        long arg = t.reqArg;
        AccessKind kind = AccessKind.ofCode((int) (arg & Engine.MEMORY_KIND_MASK));
        if (schedulingLog != null) {
            schedulingLog.access(engine.now, t, t.reqObject, arg >>> SimThread.MEMORY_KIND_BITS, kind);
        }
        long cost = memory.access(t.processor, t.reqObject, arg >>> SimThread.MEMORY_KIND_BITS, kind, engine.now);
        digest.record(engine.now, SimThread.REQ_MEMORY, t.index, arg, memory.lastObjectId());
        t.reqObject = null;
        long total = costs.atLeastFloor(cost);
        continueAfter(t, work, total, Activity.WORKING);
        if (kind == AccessKind.WRITE) {
            long done = memory.storesDoneAt(t.processor);
            t.storeCommitAt = done > engine.later(work, total) ? done : 0; // others see it then (BufferedStores)
        }
    }

    /**
     * {@code pause} ps of PAUSE after {@code work} ps of instructions. A batch that would run
     * past the end of the time slice stops there (the rest is kept in pauseRemainingPicos), so
     * that the slice-end check at that RESUME can preempt it like any other code.
     */
    void pauseFor(SimThread t, long work, long pause) {
        long start = engine.later(work);
        long sliceEnd = scheduler.sliceEndPicos(t.processor);
        long batch = pause;
        if (sliceEnd > start && pause > sliceEnd - start) {
            batch = sliceEnd - start;
            t.pauseRemainingPicos = pause - batch;
        }
        continueAfter(t, work, batch, Activity.SPINNING);
        t.pauseStartPicos = start;
        t.pauseEndPicos = start + batch < start ? Long.MAX_VALUE : start + batch;
    }

    private void continueAfter(SimThread t, long cost, Activity activity) {
        continueAfter(t, 0, cost, activity);
    }

    /** The thread works {@code work} ps (its instructions), then spends {@code cost} ps in {@code activity}. */
    void continueAfter(SimThread t, long work, long cost, Activity activity) {
        Processor processor = scheduler.processor(t.processor);
        long start = engine.later(work);
        if (work > 0) {
            t.charge(Activity.WORKING, engine.now, work);
            processor.addBusy(work);
            if (trace != null) {
                trace.threadActivity(t.index, Activity.WORKING, engine.now, start, -1);
            }
        }
        t.charge(activity, start, cost);
        processor.addBusy(cost);
        long end = start + cost < start ? Long.MAX_VALUE : start + cost;
        if (trace != null) {
            if (cost > 0) {
                trace.threadActivity(t.index, activity, start, end, -1);
            }
            trace.processorRun(t.processor, t.index, engine.now, end);
        }
        queue.add(end, Event.RESUME, t, t.resumeToken);
    }

    /**
     * {@code SwitchToThread} and {@code sched_yield}: gives the processor to the first thread
     * ready on this processor's own queue (on EEVDF: the one the rule picks after the caller
     * forfeits its slice, perhaps the caller itself), never to one waiting elsewhere, and goes to
     * the end of that queue; with nobody ready here it returns after the system call.
     */
    private void yieldProcessor(SimThread t) {
        int p = t.processor;
        if (scheduler.readyCount(p) == 0) {
            continueAfter(t, costs.yieldIdlePicos(), Activity.YIELDING);
            return;
        }
        int next = dispatcher.yieldsByDeadline() ? dispatcher.yieldOnEevdf(t) : scheduler.pollLocal(p);
        if (next < 0) {
            continueAfter(t, costs.yieldIdlePicos(), Activity.YIELDING); // the rule keeps it running
            return;
        }
        switchTo(t, next);
    }

    /**
     * A zero sleep. Windows' {@code Sleep(0)} gives up the rest of the slice to a thread ready
     * anywhere (this processor's own first, else one it takes from another's queue); with nobody
     * ready at all it returns after the system call. Elsewhere it is {@code sched_yield}.
     */
    private void sleepZero(SimThread t) {
        if (!rules.zeroSleepLooksEverywhere()) {
            yieldProcessor(t);
            return;
        }
        if (scheduler.readyCount() == 0) {
            continueAfter(t, costs.yieldIdlePicos(), Activity.YIELDING);
            return;
        }
        switchTo(t, scheduler.pollForIdle(t.processor));
    }

    /**
     * {@code t} yields its processor to ready thread {@code nextIndex}, taken off its queue, and
     * waits at the end of its own processor's queue. Yielding ends the time slice, and with it a
     * boost (Windows lowers a boosted priority when a quantum ends).
     */
    private void switchTo(SimThread t, int nextIndex) {
        long cost = costs.yieldReadyPicos();
        int p = t.processor;
        t.charge(Activity.YIELDING, engine.now, cost);
        scheduler.processor(p).addSwitch(cost);
        if (trace != null) {
            trace.threadActivity(t.index, Activity.YIELDING, engine.now, engine.now + cost, -1);
        }
        t.contextSwitches++;
        SimThread next = threads.get(nextIndex);
        dispatcher.stepAside(t, p);
        t.state = ThreadState.RUNNABLE;
        t.stateSince = engine.later(cost);
        t.boosted = false;
        scheduler.enqueue(t.index, p, false, false);
        scheduler.vacate(p);
        dispatcher.dispatch(p, next, engine.later(cost));
    }

    private void sleep(SimThread t, long nanos) {
        long duration = costs.sleepPicos(nanos);
        t.state = ThreadState.SLEEPING;
        t.stateSince = engine.now;
        t.pendingWakeTime = Long.MAX_VALUE;
        t.wakeToken++;
        scheduleWake(t, engine.later(duration), SimThread.CAUSE_TIMEOUT, -1);
        t.contextSwitches++;
        int p = t.processor;
        dispatcher.leaveProcessor(t, p);
        dispatcher.handOff(p);
    }

    private void park(SimThread t) {
        if (t.permit || t.reqInterrupted) {
            // a permit counts from when the unpark that gave it took effect (it may still be on its way)
            long notYet = t.permit && !t.reqInterrupted ? Math.max(0, t.permitAt - engine.now) : 0;
            t.permit = false;
            continueAfter(t, notYet + costs.atomicOpPicos(), Activity.WORKING);
            return;
        }
        Object blocker = t.reqObject;
        BlockerStats stats = blockers.of(blocker);
        stats.parked();
        t.state = ThreadState.PARKED;
        t.stateSince = engine.now;
        t.blocker = blocker;
        t.blockerId = stats.id;
        t.pendingWakeTime = Long.MAX_VALUE;
        t.wakeToken++;
        long timeoutNanos = t.reqArg;
        if (timeoutNanos >= 0) {
            scheduleWake(t, engine.later(OsCosts.toPicos(timeoutNanos), noise.wakeLatency()), SimThread.CAUSE_TIMEOUT,
                    -1);
        }
        if (faults.spuriousWakeupRate() > 0 && faultRandom.chance(faults.spuriousWakeupRate())) {
            long delay = faultRandom.nextLong(spuriousMaxPicos + 1);
            scheduleWake(t, engine.later(delay, noise.wakeLatency()), SimThread.CAUSE_SPURIOUS, -1);
        }
        t.contextSwitches++;
        int p = t.processor;
        dispatcher.leaveProcessor(t, p);
        dispatcher.handOff(p);
    }

    /** What an unpark did: nothing to wake (a permit at most), or it woke a parked thread, asleep or not yet. */
    private static final int WOKE_NONE = 0;
    private static final int WOKE_ASLEEP = 1;
    private static final int WOKE_BEFORE_ASLEEP = 2;

    /**
     * {@code waker} unparks {@code target} {@code work} ps from now (after its instructions and the
     * drain of its store buffer); returns what it woke, so that the waker pays the wake-up's system
     * call: a thread asleep wakes after the wake latency; one that parked less than half a context
     * switch before ({@link OsCosts#goingToSleepPicos}) is still on its way into the kernel and
     * runs again one context switch after its park (switched out and back in; with noise on the
     * switch within ± {@code costJitterPercent}).
     */
    private int unpark(SimThread waker, Thread target, long work) {
        if (target == null) {
            return WOKE_NONE;
        }
        SimThread s = byThread.get(target);
        if (s == null) {
            waker.reqError = new IllegalArgumentException("unpark of " + target
                    + ", which is not a thread of this simulation");
            return WOKE_NONE;
        }
        switch (s.state) {
            case DONE -> {
                // nothing to wake
            }
            case PARKED -> {
                long at = engine.later(work);
                long asleepAt = s.stateSince + costs.goingToSleepPicos();
                boolean asleep = at >= asleepAt;
                // not asleep yet: the kernel completes the switch out and switches it back in, a context switch
                // jittered like the other costs (exactly one switch every time held two threads that unpark
                // each other in a state where each unpark came 5 ns before the other was asleep); a switch drawn
                // shorter than the time since the park brings it back at the unpark, never before it
                long latency = asleep ? noise.wakeLatency()
                        : Math.max(0, s.stateSince + noise.cost(costs.contextSwitchPicos()) - at);
                if (faults.delayedWakeupRate() > 0 && faultRandom.chance(faults.delayedWakeupRate())) {
                    latency += faultRandom.nextLong(delayedWakeMaxPicos + 1);
                }
                long flow = trace != null ? nextFlowId++ : -1;
                boolean scheduled = scheduleWake(s, engine.later(work, latency),
                        asleep ? SimThread.CAUSE_UNPARK : SimThread.CAUSE_UNPARK_BEFORE_ASLEEP, flow);
                if (trace != null) {
                    trace.unpark(engine.now, waker.index, s.index, scheduled ? flow : -1);
                }
                // a thread already being woken earlier costs no second wake-up
                return !scheduled ? WOKE_NONE : asleep ? WOKE_ASLEEP : WOKE_BEFORE_ASLEEP;
            }
            default -> {
                long at = engine.later(work);
                s.permitAt = s.permit ? Math.min(s.permitAt, at) : at;
                s.permit = true;
            }
        }
        return WOKE_NONE;
    }

    /** Schedules a wake-up unless an earlier one is pending; returns whether it did. */
    boolean scheduleWake(SimThread t, long time, int cause, long flowId) {
        if (time >= t.pendingWakeTime) {
            return false;
        }
        t.pendingWakeTime = time;
        t.wakeCause = cause;
        t.wakeFlowId = flowId;
        queue.add(time, Event.WAKE, t, ++t.wakeToken);
        return true;
    }

}
