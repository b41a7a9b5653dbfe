package io.spinlab.sim.engine;

import io.spinlab.sim.os.Eevdf;
import io.spinlab.sim.os.LoadBalancer;
import io.spinlab.sim.os.OsCosts;
import io.spinlab.sim.os.Scheduler;
import io.spinlab.sim.os.SchedulingRules;
import io.spinlab.sim.os.ThreadState;
import io.spinlab.sim.os.WakeupPreemption;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.EventLogDigest;
import io.spinlab.sim.trace.TraceRecorder;

import java.util.List;

/**
 * Puts simulated threads on processors and takes them off, by the profile's operating-system
 * rules: where a ready thread goes (an idle processor, or a queue), dispatch with its slice,
 * hand-off after a thread leaves, time-slice and priority preemption (the Windows boost, a PAUSE
 * batch cut short for it), and Linux's virtual runtimes: EEVDF's picks, ticks and wake-up
 * preemption (6.6 and later), or CFS's wake-up preemption (before), and Linux's periodic balancing
 * between the processors' queues ({@link LoadBalancer}). The
 * {@link Engine} decides when; this class is what happens to the processors then. It reads the
 * engine's clock ({@link Engine#now}) and adds RESUME, READY and BALANCE events to the engine's queue.
 */
final class Dispatcher {
    private final Engine engine;
    private final Scheduler scheduler;
    /** The profile's OS rules: where a ready thread goes, boosts, what a zero sleep gives way to. */
    private final SchedulingRules rules;
    /** Linux's CFS wake-up preemption (virtual runtimes per processor); null where the rules have none. */
    private final WakeupPreemption wakeup;
    /** Linux's EEVDF; null where the rules do not pick by deadline. */
    private final Eevdf eevdf;
    /** Linux's periodic load balancing; null where the rules have none. */
    private final LoadBalancer balancer;
    /** Per processor: a BALANCE event of it is in the queue. */
    private final boolean[] balanceArmed;
    /**
     * Per processor: a woken thread waits to preempt the running thread (Linux CFS: first in the
     * queue); EEVDF: the kernel will reschedule there at the runner's next scheduling point.
     */
    private final boolean[] wakePreemptPending;
    private final OsCosts costs;
    private final Noise noise;
    private final EventQueue queue;
    private final EventLogDigest digest;
    /** The trace, or null when none is recorded. */
    private final TraceRecorder trace;
    /** The engine's threads, by index. */
    private final List<SimThread> threads;
    /** How long an injected preemption holds its thread off, ps. */
    private final long preemptionPicos;

    Dispatcher(Engine engine, Scheduler scheduler, SchedulingRules rules, OsCosts costs, Noise noise, EventQueue queue,
            EventLogDigest digest, TraceRecorder trace, List<SimThread> threads, long preemptionPicos) {
        this.engine = engine;
        this.scheduler = scheduler;
        this.rules = rules;
        this.wakeup = rules.preemptsOnWakeup() ? new WakeupPreemption(scheduler.processorCount()) : null;
        this.eevdf = rules.picksByDeadline() ? new Eevdf(scheduler, costs.timeSlicePicos()) : null;
        this.balancer = rules.balancesPeriodically()
                ? new LoadBalancer(scheduler.processorCount(), costs.timeSlicePicos()) : null;
        this.balanceArmed = new boolean[scheduler.processorCount()];
        this.wakePreemptPending = new boolean[scheduler.processorCount()];
        this.costs = costs;
        this.noise = noise;
        this.queue = queue;
        this.digest = digest;
        this.trace = trace;
        this.threads = threads;
        this.preemptionPicos = preemptionPicos;
    }

    /** Time slice over (or an injected preemption): off the processor, back to the run queue. */
    void preempt(SimThread t, boolean injected) {
        long now = engine.now;
        t.preemptions++;
        t.contextSwitches++;
        digest.record(now, Engine.DIGEST_PREEMPT, t.index, injected ? 1 : 0, 0);
        if (trace != null) {
            trace.preempted(now, t.index, injected);
        }
        int p = t.processor;
        boolean byPriority = false;
        if (eevdf != null) {
            // EEVDF: a preempted thread stays on its queue, and the rule picks among it and the others
            // there; an injected preemption takes it off the queue until it is ready again.
            t.processor = -1;
            t.offProcessorPicos = now;
            if (injected) {
                eevdf.leave(p, now);
            } else {
                eevdf.stepAside(p, now);
                scheduler.enqueue(t.index, p, false, false);
            }
        } else {
            // Preempted by a higher priority, a thread keeps its place at the head of its level and,
            // like one whose preemption was injected, the rest of its slice (Windows Internals,
            // "Quantum": a preempted thread's quantum is not reset).
            byPriority = !t.boosted && scheduler.boostedReadyCount(p) > 0;
            if (injected || byPriority) {
                t.sliceUsedPicos = Math.max(0, now - scheduler.processor(p).sliceStartPicos());
            }
            leaveProcessor(t, p);
        }
        t.state = ThreadState.RUNNABLE;
        t.stateSince = now;
        handOff(p);
        if (injected) {
            t.heldOff = true;
            queue.add(engine.later(preemptionPicos), Event.READY, t, 0);
        } else if (eevdf == null) {
            scheduler.enqueue(t.index, p, t.boosted, byPriority);
        }
    }

    /**
     * Whether running thread {@code t} is preempted at its scheduling point at {@code time}: a
     * boosted thread waits on its processor while it is not boosted (Windows), or it has used up
     * its slice while another waits there. A boost ends when its thread completes a slice.
     */
    boolean preemptDue(SimThread t, long time) {
        int p = t.processor;
        if (eevdf != null) {
            return eevdfPreemptDue(p, time);
        }
        if (t.boosted && scheduler.sliceUsedUp(p, time)) {
            t.boosted = false;
        }
        if (!t.boosted && scheduler.boostedReadyCount(p) > 0) {
            return true;
        }
        if (wakePreemptPending[p]) {
            return true; // Linux: a woken thread waits first in line to preempt this one
        }
        return scheduler.shouldPreempt(p, time);
    }

    /**
     * EEVDF at a scheduling point of processor {@code p}'s runner: a reschedule that a wake-up
     * asked for, or the slice end this rule set (a tick), preempts it when the rule picks another
     * thread; otherwise the next slice end is set.
     */
    private boolean eevdfPreemptDue(int p, long time) {
        boolean asked = wakePreemptPending[p];
        if (!asked && time < scheduler.sliceEndPicos(p)) {
            return false;
        }
        boolean preempt = asked ? eevdf.wouldPickAnother(p, time) : eevdf.picksAnother(p, time);
        if (!preempt) {
            wakePreemptPending[p] = false;
            scheduler.endSliceAt(p, eevdf.nextCheck(p, time));
        }
        return preempt;
    }

    /** Processor {@code p}'s thread has left it: the next ready thread gets it after a switch, or it idles. */
    void handOff(int p) {
        int next = eevdf != null ? nextOnEevdf(p) : scheduler.pollForIdle(p);
        scheduler.vacate(p);
        if (next < 0) {
            return;
        }
        long switchPicos = costs.contextSwitchPicos();
        scheduler.processor(p).addSwitch(switchPicos);
        dispatch(p, threads.get(next), engine.later(switchPicos));
    }

    /**
     * EEVDF: the thread the rule picks from processor {@code p}'s own queue, taken off it; with that
     * empty, the first thread of the fullest other queue (Linux's idle balance), which keeps its lag;
     * -1 when nobody is ready.
     */
    private int nextOnEevdf(int p) {
        long now = engine.now;
        int next = eevdf.pickQueued(p, now);
        if (next >= 0) {
            scheduler.take(p, next);
            return next;
        }
        int from = scheduler.queueToStealFrom(p);
        if (from < 0) {
            return -1;
        }
        next = scheduler.pollLocal(from);
        eevdf.detach(next, from, now);
        return next;
    }

    /** A thread that just became ready: an idle processor takes it now, or it queues. */
    void makeRunnable(SimThread t) {
        t.state = ThreadState.RUNNABLE;
        t.stateSince = engine.now;
        place(t);
    }

    /**
     * A woken thread, already runnable: on Linux with no processor idle it goes through the
     * wake-up preemption rule ({@link #placeWokenOnLinux}), elsewhere it is placed as any ready thread.
     */
    void placeWoken(SimThread t) {
        if (eevdf != null) {
            place(t);
        } else if (wakeup != null && scheduler.idleCount() == 0) {
            placeWokenOnLinux(t);
        } else {
            place(t);
        }
    }

    /**
     * A ready thread takes an idle processor (which one: {@link SchedulingRules#idleProcessorFor});
     * with none idle it waits on its preferred processor's queue, and a boosted thread there
     * preempts an unboosted one (Windows: a higher priority preempts at once, so a PAUSE batch in
     * progress is cut short).
     */
    void place(SimThread t) {
        int home = rules.preferredProcessor(t.index, t.lastProcessor);
        if (scheduler.idleCount() > 0) {
            dispatch(rules.idleProcessorFor(home, t.lastProcessor, t.hasRun), t, engine.now);
            return;
        }
        if (eevdf != null) {
            arriveOnEevdf(t, home, t.hasRun ? Eevdf.Arrival.WOKEN : Eevdf.Arrival.NEW);
            return;
        }
        scheduler.enqueue(t.index, home, t.boosted, false);
        if (t.boosted) {
            SimThread running = threads.get(scheduler.processor(home).thread());
            if (!running.boosted) {
                cutPauseShort(running);
            }
        }
    }

    /**
     * EEVDF, no processor idle: {@code t} joins processor {@code home}'s queue, placed by its lag;
     * if the rule says so, the kernel reschedules there at once (a PAUSE batch in progress is cut
     * short, so that the runner's next scheduling point comes now); otherwise the runner's next
     * slice end may now come sooner.
     */
    private void arriveOnEevdf(SimThread t, int home, Eevdf.Arrival arrival) {
        long now = engine.now;
        boolean preempts = eevdf.arrive(home, t.index, now, arrival);
        t.lastProcessor = home;
        scheduler.enqueue(t.index, home, false, false);
        if (wakePreemptPending[home]) {
            return; // a reschedule is already due there
        }
        if (preempts) {
            wakePreemptPending[home] = true;
            cutPauseShort(threads.get(scheduler.processor(home).thread()));
        } else {
            scheduler.endSliceAt(home, eevdf.nextCheck(home, now));
        }
    }

    /** Puts {@code t} on idle processor {@code p}; it runs from {@code start}. */
    void dispatch(int p, SimThread t, long start) {
        long begin = Math.max(start, t.stateSince);
        long waited = begin - t.stateSince;
        if (waited > 0) {
            t.charge(Activity.RUNNABLE, t.stateSince, waited);
            if (trace != null) {
                trace.threadActivity(t.index, Activity.RUNNABLE, t.stateSince, begin, -1);
            }
        }
        if (wakeup != null) {
            // Linux: a thread's virtual runtime follows it to the processor's queue it runs from.
            t.vruntimePicos = t.hasRun ? wakeup.migrate(t.vruntimePicos, t.lastProcessor, p) : wakeup.minVruntime(p);
            t.runStartPicos = begin;
            wakePreemptPending[p] = false;
        }
        boolean isNew = !t.hasRun;
        t.state = ThreadState.RUNNING;
        t.processor = p;
        t.lastProcessor = p;
        t.hasRun = true;
        long sliceStart = noise.sliceStart(p, begin);
        if (t.sliceUsedPicos > 0) {
            sliceStart = begin - t.sliceUsedPicos; // the rest of the slice a preemption interrupted
            t.sliceUsedPicos = 0;
        }
        scheduler.occupy(p, t.index, sliceStart);
        if (balancer != null) {
            armBalancing(p, sliceStart, begin);
        }
        if (eevdf != null) {
            // the first slice's random start is where this processor's ticks fall
            eevdf.setTickOrigin(p, sliceStart);
            eevdf.run(p, t.index, begin, isNew);
            wakePreemptPending[p] = false;
            scheduler.endSliceAt(p, eevdf.nextCheck(p, begin));
        }
        digest.record(begin, Engine.DIGEST_DISPATCH, t.index, p, 0);
        queue.add(begin, Event.RESUME, t, t.resumeToken);
    }

    /**
     * {@code t} leaves processor {@code p}; on Linux its virtual runtime grows by its time there,
     * and the processor's minimum moves up to the least of it and the queued threads' runtimes.
     */
    void leaveProcessor(SimThread t, int p) {
        t.processor = -1;
        t.offProcessorPicos = engine.now;
        if (eevdf != null) {
            eevdf.leave(p, engine.now);
        }
        if (wakeup != null) {
            t.vruntimePicos += Math.max(0, engine.now - t.runStartPicos);
            wakeup.observe(p, leastVruntime(p, t.vruntimePicos));
        }
    }

    /**
     * {@code t} yields processor {@code p} to another thread and stays ready there: off the
     * processor, on its queue (the caller queues it).
     */
    void stepAside(SimThread t, int p) {
        if (eevdf != null) {
            t.processor = -1;
            t.offProcessorPicos = engine.now;
            eevdf.stepAside(p, engine.now);
        } else {
            leaveProcessor(t, p);
        }
    }

    /** Whether EEVDF decides what a yield gives way to ({@link #yieldOnEevdf}). */
    boolean yieldsByDeadline() {
        return eevdf != null;
    }

    /**
     * {@code sched_yield} by running thread {@code t} on EEVDF, with others ready on its
     * processor: it forfeits the rest of its slice; returns the ready thread the rule picks, taken
     * off the queue, or -1 when {@code t} keeps the processor.
     */
    int yieldOnEevdf(SimThread t) {
        int p = t.processor;
        int next = eevdf.yield(p, engine.now);
        if (next == t.index) {
            scheduler.endSliceAt(p, eevdf.nextCheck(p, engine.now));
            return -1;
        }
        scheduler.take(p, next);
        return next;
    }

    /**
     * Busy processor {@code p} gets a BALANCE event at its next balance time, unless one is
     * queued; on its first dispatch its ticks, whose first is {@code tick}, fix when it balances
     * (with noise on it last balanced a random number of its first interval's ticks before), and
     * after an idle spell its overdue balances are taken as done ({@link LoadBalancer#resume}).
     */
    private void armBalancing(int p, long tick, long begin) {
        if (!balancer.start(p, tick, noise.ticksAgo(balancer.firstIntervalJiffies()))) {
            balancer.resume(p, begin);
        }
        if (!balanceArmed[p]) {
            balanceArmed[p] = true;
            queue.add(balancer.nextBalance(p) + LoadBalancer.SOFTIRQ_DELAY_PICOS, Event.BALANCE, null, p);
        }
    }

    /**
     * Whether processor {@code p}'s BALANCE event, now due, still has a busy processor to balance;
     * an idle one's event lapses (its next dispatch arms another), so that balancing never keeps a
     * finished or deadlocked simulation going.
     */
    boolean balanceStillDue(int p) {
        if (scheduler.processor(p).idle()) {
            balanceArmed[p] = false;
            return false;
        }
        return true;
    }

    /**
     * Linux's periodic balance of busy processor {@code p} ({@link LoadBalancer}): pulls the
     * threads it picks from the busiest queue onto {@code p}'s, then sets the next balance.
     */
    void balance(int p) {
        long now = engine.now;
        int n = scheduler.processorCount();
        int[] load = new int[n];
        int[][] ready = new int[n][];
        for (int q = 0; q < n; q++) {
            ready[q] = scheduler.readyThreads(q);
            load[q] = ready[q].length + (scheduler.processor(q).idle() ? 0 : 1);
        }
        LoadBalancer.Pull pull = balancer.balance(p, now, load, ready, i -> {
            SimThread t = threads.get(i);
            return t.hasRun ? t.offProcessorPicos : Long.MIN_VALUE;
        });
        for (int index : pull.threads()) {
            migrate(threads.get(index), pull.from(), p);
        }
        queue.add(balancer.nextBalance(p) + LoadBalancer.SOFTIRQ_DELAY_PICOS, Event.BALANCE, null, p);
    }

    /** Ready thread {@code t} moves from processor {@code from}'s queue to busy processor {@code to}'s. */
    private void migrate(SimThread t, int from, int to) {
        long now = engine.now;
        scheduler.take(from, t.index);
        digest.record(now, Engine.DIGEST_MIGRATE, t.index, from, to);
        if (eevdf != null) {
            eevdf.detach(t.index, from, now);
            arriveOnEevdf(t, to, Eevdf.Arrival.MIGRATED);
            return;
        }
        t.vruntimePicos = wakeup.migrate(t.vruntimePicos, from, to);
        t.lastProcessor = to;
        scheduler.enqueue(t.index, to, false, false);
    }

    /**
     * Ends running thread {@code r}'s PAUSE batch now (or where its PAUSEs begin, if its
     * instructions before them still run), so that its next scheduling point comes at once: a
     * higher-priority thread preempts it there. The PAUSE time not spent is owed, as at a
     * slice end; charges and trace are taken back to the cut. Nothing happens when the current
     * operation is not a PAUSE batch: every other one ends within nanoseconds.
     */
    private void cutPauseShort(SimThread r) {
        long now = engine.now;
        if (r.pauseEndPicos <= now) {
            return;
        }
        long cut = Math.max(now, r.pauseStartPicos);
        long rest = r.pauseEndPicos - cut;
        r.charge(Activity.SPINNING, cut, -rest);
        scheduler.processor(r.processor).addBusy(-rest);
        if (trace != null) {
            trace.cutShort(r.index, r.processor, cut);
        }
        r.pauseRemainingPicos += rest;
        r.pauseEndPicos = cut;
        r.resumeToken++;
        queue.add(cut, Event.RESUME, r, r.resumeToken);
    }

    /** The least of {@code vruntime} and the virtual runtimes of the threads queued on processor {@code p}. */
    private long leastVruntime(int p, long vruntime) {
        long least = vruntime;
        for (int queued : scheduler.readyThreads(p)) {
            least = Math.min(least, threads.get(queued).vruntimePicos);
        }
        return least;
    }

    /**
     * Linux, no processor idle: woken thread {@code t} is placed on its preferred processor's queue
     * by {@link WakeupPreemption}; if it lies more than the wake-up granularity behind the running
     * thread there, it goes first in the queue and preempts that thread at once (a PAUSE batch in
     * progress is cut short), else it waits at the end of the queue.
     */
    private void placeWokenOnLinux(SimThread t) {
        long now = engine.now;
        int home = rules.preferredProcessor(t.index, t.lastProcessor);
        SimThread running = threads.get(scheduler.processor(home).thread());
        long runningVruntime = running.vruntimePicos + Math.max(0, now - running.runStartPicos);
        wakeup.observe(home, leastVruntime(home, runningVruntime));
        long base = t.hasRun ? wakeup.migrate(t.vruntimePicos, t.lastProcessor, home) : wakeup.minVruntime(home);
        t.vruntimePicos = wakeup.placeWoken(home, base);
        t.lastProcessor = home;
        boolean preempts = wakeup.preempts(runningVruntime, t.vruntimePicos);
        scheduler.enqueue(t.index, home, false, preempts);
        if (preempts) {
            wakePreemptPending[home] = true;
            cutPauseShort(running);
        }
    }
}
