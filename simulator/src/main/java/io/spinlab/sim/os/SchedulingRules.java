package io.spinlab.sim.os;

import io.spinlab.model.machine.OperatingSystem;

/**
 * The rules of the profile's operating system that decide where a ready thread goes and what a
 * wait's end or a zero sleep does; the {@link Scheduler} keeps the queues these rules fill. One
 * implementation per {@link OperatingSystem}, so that each rule of each system is read in one
 * place. Stateless apart from the scheduler it reads.
 *
 * <ul>
 *   <li><b>Preferred processor</b> of a thread that becomes ready: Windows' ideal processor
 *       (assigned round robin in creation order: thread index mod P); Linux's last processor.</li>
 *   <li><b>Idle processor</b> it takes when some are idle: with SMT both prefer a whole idle core.
 *       Windows takes its preferred processor, then its last one, only if that one's core is
 *       idle, then the lowest processor of an idle core, before any idle processor; Linux takes
 *       its last processor whenever it is idle, then an idle core. A thread that never ran has no
 *       last processor on Linux, which places a new task on the idlest part of the machine.</li>
 *   <li><b>Wait-completion boost</b>: on Windows a wait satisfied by a signal raises the thread's
 *       priority until it completes a slice or yields; Linux has none.</li>
 *   <li><b>Wake-up preemption</b>: on Linux before 6.6 (CFS) a woken thread whose virtual runtime
 *       lies more than the wake-up granularity behind the running thread's preempts it at once
 *       ({@link WakeupPreemption}); from 6.6 (EEVDF) a woken thread preempts when the rule picks
 *       it or the running thread is past its slice, and the rule also picks the next thread of a
 *       queue and ends slices at ticks ({@link Eevdf}); Windows has the boost instead.</li>
 *   <li><b>Periodic balancing</b>: on Linux a busy processor pulls ready threads from the busiest
 *       queue at intervals of tens of ms ({@link LoadBalancer}); Windows has none (its threads
 *       wait on their ideal processor's queue unless a processor idles).</li>
 *   <li><b>Ticks</b>: Linux's processors tick together (the kernel's default, {@code skew_tick}
 *       off: {@code tick_setup_sched_timer} in {@code kernel/time/tick-sched.c} offsets a processor's
 *       tick only when it is on; on the development host two processors' ticks came a median 9 µs
 *       apart), so their slices end and they balance at the same instants; with noise on the run
 *       draws one phase for the machine. Windows' processors each take a phase of their own (not
 *       measured).</li>
 *   <li><b>Zero sleep</b>: Windows' {@code Sleep(0)} gives the rest of the slice to a thread ready
 *       on any processor; on Linux a zero sleep is {@code sched_yield}, which looks only at the
 *       caller's own queue.</li>
 * </ul>
 * A thread preempted before its slice ends (by a boosted thread, or by an injected preemption)
 * keeps the rest of its slice for when it runs again, as Windows keeps a preempted thread's
 * quantum; the engine does that bookkeeping. On both systems a processor that would idle takes a
 * ready thread from the fullest queue. Not modelled: CFS's queues ordered by virtual runtime, boosts
 * other than the wait-completion one.
 */
public abstract sealed class SchedulingRules permits SchedulingRules.Windows, SchedulingRules.Linux {
    final Scheduler scheduler;

    private SchedulingRules(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** The rules of {@code os}, reading {@code scheduler}'s processors. */
    public static SchedulingRules of(OperatingSystem os, Scheduler scheduler) {
        return switch (os) {
            case WINDOWS -> new Windows(scheduler);
            case LINUX -> new Linux(scheduler, true);
            case LINUX_CFS -> new Linux(scheduler, false);
        };
    }

    /** The processor whose queue thread {@code index}, last run on {@code last}, waits on when it becomes ready. */
    public abstract int preferredProcessor(int index, int last);

    /**
     * The idle processor a ready thread takes; some processor is idle.
     *
     * @param preferred its {@linkplain #preferredProcessor preferred processor}
     * @param last the processor it ran on last (or its initial placement, if it never ran)
     * @param hasRun whether it has run at all
     */
    public abstract int idleProcessorFor(int preferred, int last, boolean hasRun);

    /** Whether a wait that a signal (an unpark) satisfied boosts the woken thread. */
    public abstract boolean boostsSignalledWake();

    /** Whether a zero sleep gives way to a thread ready on any processor (else only on the caller's own). */
    public abstract boolean zeroSleepLooksEverywhere();

    /** Whether a woken thread may preempt the running thread by CFS's virtual runtime rule (see {@link WakeupPreemption}). */
    public abstract boolean preemptsOnWakeup();

    /**
     * Whether EEVDF decides who runs next on a processor, when a slice ends and whether a woken
     * thread preempts (see {@link Eevdf}); the queues' order decides otherwise.
     */
    public abstract boolean picksByDeadline();

    /** Whether busy processors pull ready threads from busier queues at intervals (Linux; see {@link LoadBalancer}). */
    public abstract boolean balancesPeriodically();

    /**
     * Whether every processor's scheduler ticks fall at the same instants (Linux), so that slices
     * end and balances run on one grid; otherwise each processor's timer has a phase of its own.
     */
    public abstract boolean alignsTicks();

    /** An idle core's lowest processor, else {@code preferred} or {@code last} if idle, else the lowest idle one. */
    final int anyIdle(int preferred, int last) {
        int core = scheduler.lowestIdleCoreProcessor();
        if (core >= 0) {
            return core;
        }
        if (scheduler.isIdle(preferred)) {
            return preferred;
        }
        return scheduler.isIdle(last) ? last : scheduler.lowestIdleProcessor();
    }

    /** Windows: ideal processors, wait-completion boosts, {@code Sleep(0)} to any ready thread. */
    static final class Windows extends SchedulingRules {
        Windows(Scheduler scheduler) {
            super(scheduler);
        }

        @Override
        public int preferredProcessor(int index, int last) {
            return index % scheduler.processorCount();
        }

        @Override
        public int idleProcessorFor(int preferred, int last, boolean hasRun) {
            if (scheduler.coreIdle(preferred)) {
                return preferred;
            }
            if (scheduler.coreIdle(last)) {
                return last;
            }
            return anyIdle(preferred, last);
        }

        @Override
        public boolean boostsSignalledWake() {
            return true;
        }

        @Override
        public boolean zeroSleepLooksEverywhere() {
            return true;
        }

        @Override
        public boolean preemptsOnWakeup() {
            return false;
        }

        @Override
        public boolean picksByDeadline() {
            return false;
        }

        @Override
        public boolean balancesPeriodically() {
            return false;
        }

        @Override
        public boolean alignsTicks() {
            return false;
        }
    }

    /**
     * Linux: the last processor first, no boosts, a zero sleep is {@code sched_yield}; EEVDF
     * (6.6 and later) or CFS's wake-up preemption (before).
     */
    static final class Linux extends SchedulingRules {
        private final boolean eevdf;

        Linux(Scheduler scheduler, boolean eevdf) {
            super(scheduler);
            this.eevdf = eevdf;
        }

        @Override
        public int preferredProcessor(int index, int last) {
            return last;
        }

        @Override
        public int idleProcessorFor(int preferred, int last, boolean hasRun) {
            if (hasRun && scheduler.isIdle(last)) {
                return last;
            }
            return anyIdle(preferred, last);
        }

        @Override
        public boolean boostsSignalledWake() {
            return false;
        }

        @Override
        public boolean zeroSleepLooksEverywhere() {
            return false;
        }

        @Override
        public boolean preemptsOnWakeup() {
            return !eevdf;
        }

        @Override
        public boolean picksByDeadline() {
            return eevdf;
        }

        @Override
        public boolean balancesPeriodically() {
            return true;
        }

        @Override
        public boolean alignsTicks() {
            return true;
        }
    }
}
