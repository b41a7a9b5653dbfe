package io.spinlab.sim.os;

import java.util.Arrays;

/**
 * Linux's fair scheduler since 6.6, EEVDF ("earliest eligible virtual deadline first"), for the
 * threads of one simulation, all of the default weight (nice 0). Each processor's run queue holds
 * its running thread and the threads ready on its {@link Scheduler} queue.
 *
 * <ul>
 *   <li><b>Virtual runtime</b> {@code v}: processor time received, relative to the queue the thread
 *       is on. The queue's average {@code V} is the mean over its members (the running one
 *       included); a thread is <b>eligible</b> when {@code v ≤ V} (it has received no more than
 *       its share).</li>
 *   <li><b>Slice and deadline</b>: the base slice is 0.7 ms times {@code 1 + log2(min(P, 8))}
 *       (P processors: 1.4 ms on two, 2.8 ms on eight or more); a thread's virtual deadline is
 *       {@code v} plus a slice, renewed (from its {@code v} then) whenever its {@code v} has
 *       reached it. The next thread is the eligible one with the earliest deadline.</li>
 *   <li><b>Run to parity</b>: a thread that starts running is protected until its {@code v}
 *       reaches the deadline it had then, as long as it stays eligible. When another thread is
 *       queued and the runner is past that point, the kernel reschedules; without a timer of its
 *       own (no HRTICK) it notices at the <b>scheduler tick</b> (the profile's time slice) or
 *       when a thread wakes onto the processor.</li>
 *   <li><b>Lag</b>: a thread that leaves a queue (it sleeps, parks, or is taken by another
 *       processor) keeps its lag {@code V − v}, clamped to ± the larger of two slices and a tick;
 *       where it is placed again, {@code v = V − lag × (n + 1) / n} for the queue's {@code n}
 *       members, so that adding it leaves it that far from the new average (no lag on an empty
 *       queue). Its deadline is a slice later, half a slice for a new thread; a thread taken by
 *       another processor keeps its deadline's distance from its {@code v}.</li>
 *   <li><b>Yield</b> ({@code sched_yield}, with "Forfeit vruntime on yield", 6.18.y and 6.19): an
 *       eligible caller's {@code v} jumps to its deadline and its deadline moves a slice on, so it
 *       gives up the rest of its slice; then the rule picks again among its queue's members.</li>
 * </ul>
 * Sources: {@code kernel/sched/fair.c} and {@code features.h} of Linux 6.18 ({@code avg_vruntime},
 * {@code entity_eligible}, {@code __pick_eevdf}, {@code update_curr}/{@code update_deadline},
 * {@code set_protect_slice}, {@code place_entity}, {@code update_entity_lag},
 * {@code check_preempt_wakeup_fair}, {@code yield_task_fair}; the forfeit is mainline 79104becf42b,
 * backported to 6.18.y) and {@code sysctl_sched_base_slice} (0.7 ms since 6.14, 0.75 ms before),
 * read from the commits' diffs (see {@code simulator/SIMULATOR-RESULTS.md}). Not modelled:
 * {@code DELAY_DEQUEUE} (6.12 and later: a thread that sleeps while ineligible stays on its queue,
 * counted in the average, until the rule would pick it, when it leaves with its lag clipped to 0;
 * woken before that, it is queued again where it is, without looking for an idle processor; here it
 * leaves at once and keeps its negative lag for its wake-up, because without Linux's idle balancing
 * a thread woken onto a busy processor's queue would wait there while others idle), buddies
 * ({@code NEXT_BUDDY} is off by default) and weights other than nice 0. Periodic load balancing moves
 * threads between queues ({@link LoadBalancer}); such a thread keeps its lag ({@link #detach}).
 * Not thread-safe: only the engine touches it.
 */
public final class Eevdf {
    /*
     * Implementation notes
     *
     * Times are picoseconds. A running thread's v is brought up to date lazily: vruntime[t] holds
     * it as of runStart[p], so v(now) = vruntime[t] + (now − runStart[p]). Averages are taken over
     * the members on demand (the running thread, the queue, sometimes one thread on its way in or
     * out): queues are short and the rule is asked at slice ends, yields and wake-ups only, not at
     * every scheduling point. Eligibility compares n·v with the sum, as the kernel does, without
     * a division.
     *
     * Deadline renewals while a thread runs alone happen at ticks in the kernel; here they are
     * replayed when someone next asks (catchUp), tick by tick, so that a thread that joins the
     * queue meets the deadline the runner really has.
     */

    /** The normalized base slice, 0.7 ms ({@code normalized_sysctl_sched_base_slice} since Linux 6.14). */
    static final long BASE_SLICE_PICOS = 700_000_000L;
    /** Processors counted when scaling the slice ({@code get_update_sysctl_factor}). */
    private static final int SCALING_CPUS_CAP = 8;

    /** How a thread comes onto a queue. */
    public enum Arrival {
        /** It has never run: deadline half a slice on ({@code PLACE_DEADLINE_INITIAL}). */
        NEW,
        /** It woke or became ready again: its lag from when it left, a slice to its deadline. */
        WOKEN,
        /** Another processor took it from its queue: its lag and its deadline's distance. */
        MIGRATED
    }

    private final Scheduler scheduler;
    private final long tickPicos;
    private final long slicePicos;
    private final long lagLimitPicos;

    private final int[] running;
    private final long[] runStart;
    private final long[] tickOrigin;
    /** A queue's average when it last emptied: where a thread placed on the empty queue starts. */
    private final long[] zero;

    private long[] vruntime = new long[16];
    private long[] deadline = new long[16];
    private long[] protectedUntil = new long[16];
    private long[] lag = new long[16];
    private long[] deadlineDistance = new long[16];
    private int[] home = new int[16];
    private boolean[] migrating = new boolean[16];

    /**
     * @param scheduler the processors and their queues
     * @param tickPicos the scheduler tick, ps (the profile's time slice), positive
     */
    public Eevdf(Scheduler scheduler, long tickPicos) {
        if (tickPicos <= 0) {
            throw new IllegalArgumentException("tickPicos = " + tickPicos + "; allowed 1 or more");
        }
        int processors = scheduler.processorCount();
        this.scheduler = scheduler;
        this.tickPicos = tickPicos;
        this.slicePicos = slicePicos(processors);
        this.lagLimitPicos = Math.max(2 * slicePicos, tickPicos);
        this.running = new int[processors];
        this.runStart = new long[processors];
        this.tickOrigin = new long[processors];
        this.zero = new long[processors];
        Arrays.fill(running, -1);
        Arrays.fill(tickOrigin, Long.MIN_VALUE);
        Arrays.fill(home, -1);
    }

    /** The base slice on {@code processors} processors: 0.7 ms times {@code 1 + log2(min(processors, 8))}. */
    public static long slicePicos(int processors) {
        if (processors < 1) {
            throw new IllegalArgumentException("processors = " + processors + "; allowed 1 or more");
        }
        int cpus = Math.min(processors, SCALING_CPUS_CAP);
        return BASE_SLICE_PICOS * (1 + (31 - Integer.numberOfLeadingZeros(cpus)));
    }

    /** The base slice, ps. */
    public long slicePicos() {
        return slicePicos;
    }

    /** Thread {@code t}'s virtual runtime now (relative to its queue), ps. */
    public long vruntime(int t, long now) {
        int p = t < home.length ? home[t] : -1;
        return p >= 0 && running[p] == t ? vruntime[t] + ranSince(p, now) : vruntime[t];
    }

    /** Thread {@code t}'s virtual deadline, ps. */
    public long deadline(int t) {
        return deadline[t];
    }

    /** The processor whose queue holds thread {@code t} (running or ready), or -1. */
    public int queueOf(int t) {
        return t < home.length ? home[t] : -1;
    }

    /**
     * The first dispatch on processor {@code p} fixes where its ticks fall: at {@code origin}
     * plus whole ticks. Later calls change nothing.
     */
    public void setTickOrigin(int p, long origin) {
        if (tickOrigin[p] == Long.MIN_VALUE) {
            tickOrigin[p] = origin;
        }
    }

    /** The first tick of processor {@code p} at or after {@code time}. */
    long tickAtOrAfter(int p, long time) {
        long origin = tickOrigin[p] == Long.MIN_VALUE ? 0 : tickOrigin[p];
        long ticks = Math.ceilDiv(time - origin, tickPicos);
        return origin + ticks * tickPicos;
    }

    /**
     * Thread {@code t} starts running on processor {@code p} at {@code begin}; if it is not on
     * {@code p}'s queue yet it is placed there first: as a thread taken from another queue if
     * {@link #detach} took it, else as new ({@code isNew}) or woken.
     */
    public void run(int p, int t, long begin, boolean isNew) {
        ensure(t);
        assert running[p] < 0 : "cpu" + p + " runs " + running[p];
        if (home[t] != p) {
            place(p, t, begin, migrating[t] ? Arrival.MIGRATED : isNew ? Arrival.NEW : Arrival.WOKEN);
        }
        migrating[t] = false;
        running[p] = t;
        runStart[p] = begin;
        protectedUntil[t] = deadline[t]; // set_protect_slice: every slice is the base slice
    }

    /** The running thread of processor {@code p} stops at {@code now} and stays on its queue (preempted, yielded). */
    public void stepAside(int p, long now) {
        int t = running[p];
        vruntime[t] += ranSince(p, now);
        running[p] = -1;
    }

    /**
     * The running thread of processor {@code p} stops at {@code now} and leaves the queue (it
     * sleeps, parks or ends): it keeps its lag for where it is placed next.
     */
    public void leave(int p, long now) {
        int t = running[p];
        stepAside(p, now);
        dequeue(p, t, now, t);
    }

    /**
     * Ready thread {@code t} is taken off processor {@code from}'s queue (still on it) by another
     * processor: it keeps its lag and its deadline's distance.
     */
    public void detach(int t, int from, long now) {
        dequeue(from, t, now, -1);
        migrating[t] = true;
    }

    /**
     * Thread {@code t} arrives on busy processor {@code p}'s queue (the caller queues it there):
     * placed by its lag. Returns whether it preempts the running thread at once: the runner is
     * past its protected slice (the kernel reschedules at any update while another is queued),
     * or the rule now picks the newcomer.
     */
    public boolean arrive(int p, int t, long now, Arrival arrival) {
        ensure(t);
        catchUp(p, now);
        int r = running[p];
        if (r >= 0) {
            renewIfReached(r, now); // enqueue_entity's update_curr
        }
        place(p, t, now, arrival);
        if (r < 0) {
            return false;
        }
        long v = vruntime(r, now);
        return v >= protectedUntil[r] || pick(p, now, t) == t;
    }

    /**
     * At a scheduling point at {@code now} of processor {@code p}'s running thread, at or after
     * the slice end this rule set: whether the rule picks another of its queue (then the runner
     * is preempted). Renews the runner's deadline where the ticks would have.
     */
    public boolean picksAnother(int p, long now) {
        catchUp(p, now);
        if (scheduler.queue(p).isEmpty()) {
            return false;
        }
        int r = running[p];
        return vruntime(r, now) >= protectedUntil[r] && pick(p, now, -1) != r;
    }

    /**
     * Whether the running thread of processor {@code p} would lose the processor to a queued one
     * if the kernel rescheduled now (a wake-up preemption that was asked for).
     */
    public boolean wouldPickAnother(int p, long now) {
        catchUp(p, now);
        int r = running[p];
        renewIfReached(r, now);
        return !scheduler.queue(p).isEmpty() && pick(p, now, -1) != r;
    }

    /**
     * When processor {@code p}'s running thread next needs the rule's attention: the first tick at
     * which it is past its protected slice while others are queued; the next tick while none is
     * (so that a PAUSE batch stops there, in case a thread arrives meanwhile; that tick only
     * renews a reached deadline, which {@link #catchUp} replays).
     */
    public long nextCheck(int p, long now) {
        if (scheduler.queue(p).isEmpty()) {
            return tickAtOrAfter(p, now + 1);
        }
        int r = running[p];
        long v = vruntime(r, now);
        if (v >= protectedUntil[r]) {
            return tickAtOrAfter(p, now + 1);
        }
        return tickAtOrAfter(p, now + (protectedUntil[r] - v));
    }

    /**
     * {@code sched_yield} by processor {@code p}'s running thread at {@code now}, with others
     * queued there: an eligible caller forfeits the rest of its slice. Returns the thread the rule
     * picks next, the caller itself when it keeps the processor.
     */
    public int yield(int p, long now) {
        catchUp(p, now);
        int r = running[p];
        renewIfReached(r, now);
        if (eligible(p, now, r, -1)) {
            vruntime[r] = deadline[r] - ranSince(p, now); // so that v(now) is the deadline
            deadline[r] += slicePicos;
        }
        return pick(p, now, -1);
    }

    /**
     * The thread processor {@code p} runs next from its queue once its runner has stepped aside
     * or left: the eligible one with the earliest deadline (ties: the first queued); -1 if none.
     */
    public int pickQueued(int p, long now) {
        return scheduler.queue(p).isEmpty() ? -1 : pick(p, now, -1);
    }

    // ------------------------------------------------------------------ the rule's parts

    /**
     * {@code __pick_eevdf} over processor {@code p}'s members (its runner, its queue, and
     * {@code extra} if not -1 and not queued yet), with the runner's protection.
     */
    private int pick(int p, long now, int extra) {
        RunQueue queue = scheduler.queue(p);
        int r = running[p];
        int members = queue.size() + (r >= 0 ? 1 : 0) + (extra >= 0 && !queued(queue, extra) ? 1 : 0);
        if (members == 1) {
            return r >= 0 ? r : queue.isEmpty() ? extra : queue.get(0);
        }
        long sum = sum(p, now, extra);
        int curr = r >= 0 && isEligible(vruntime(r, now), sum, members) ? r : -1;
        if (curr >= 0 && vruntime(curr, now) < protectedUntil[curr]) {
            return curr;
        }
        int best = -1;
        for (int i = 0; i < queue.size(); i++) {
            int q = queue.get(i);
            if (isEligible(vruntime[q], sum, members) && (best < 0 || deadline[q] < deadline[best])) {
                best = q;
            }
        }
        if (extra >= 0 && !queued(queue, extra) && isEligible(vruntime[extra], sum, members)
                && (best < 0 || deadline[extra] < deadline[best])) {
            best = extra;
        }
        if (best < 0 || (curr >= 0 && deadline[curr] < deadline[best])) {
            best = curr;
        }
        assert best >= 0 : "no eligible thread on cpu" + p;
        return best;
    }

    private static boolean isEligible(long v, long sum, int members) {
        return Math.multiplyExact(v, (long) members) <= sum;
    }

    private boolean eligible(int p, long now, int t, int extra) {
        int members = scheduler.queue(p).size() + (running[p] >= 0 ? 1 : 0) + (extra >= 0 ? 1 : 0);
        return isEligible(vruntime(t, now), sum(p, now, extra), members);
    }

    /** The sum of the virtual runtimes of {@code p}'s runner, queue and {@code extra} (-1: none), ps. */
    private long sum(int p, long now, int extra) {
        RunQueue queue = scheduler.queue(p);
        long sum = 0;
        for (int i = 0; i < queue.size(); i++) {
            sum = Math.addExact(sum, vruntime[queue.get(i)]);
        }
        if (running[p] >= 0) {
            sum = Math.addExact(sum, vruntime(running[p], now));
        }
        if (extra >= 0 && !queued(queue, extra)) {
            sum = Math.addExact(sum, vruntime[extra]);
        }
        return sum;
    }

    private static boolean queued(RunQueue queue, int t) {
        for (int i = 0; i < queue.size(); i++) {
            if (queue.get(i) == t) {
                return true;
            }
        }
        return false;
    }

    /** {@code place_entity}: thread {@code t} (not a member yet) joins {@code p}'s queue at {@code now}. */
    private void place(int p, int t, long now, Arrival arrival) {
        RunQueue queue = scheduler.queue(p);
        int members = queue.size() + (running[p] >= 0 ? 1 : 0);
        long average = members == 0 ? zero[p] : Math.floorDiv(sum(p, now, -1), members);
        long kept = arrival == Arrival.NEW || members == 0 ? 0 : lag[t] * (members + 1) / members;
        vruntime[t] = average - kept;
        deadline[t] = vruntime[t] + switch (arrival) {
            case NEW -> slicePicos / 2;
            case WOKEN -> slicePicos;
            case MIGRATED -> deadlineDistance[t];
        };
        home[t] = p;
    }

    /**
     * {@code update_entity_lag} and the dequeue: thread {@code t} leaves {@code p}'s queue; its lag
     * is taken over the members with {@code extra} (the leaving thread when it is no longer the
     * runner nor queued) counted too.
     */
    private void dequeue(int p, int t, long now, int extra) {
        RunQueue queue = scheduler.queue(p);
        int members = queue.size() + (running[p] >= 0 ? 1 : 0) + (extra >= 0 ? 1 : 0);
        long sum = sum(p, now, extra);
        long average = Math.floorDiv(sum, members);
        lag[t] = Math.clamp(average - vruntime[t], -lagLimitPicos, lagLimitPicos);
        deadlineDistance[t] = deadline[t] - vruntime[t];
        home[t] = -1;
        if (members == 1) {
            zero[p] = average;
        }
    }

    /**
     * Replays the deadline renewals of processor {@code p}'s runner at the ticks up to
     * {@code now} ({@code update_curr} at each tick renews a reached deadline from the runner's
     * {@code v} then).
     */
    private void catchUp(int p, long now) {
        int r = running[p];
        if (r < 0) {
            return;
        }
        while (true) {
            long reached = runStart[p] + (deadline[r] - vruntime[r]); // when v(t) reaches the deadline
            long tick = tickAtOrAfter(p, Math.max(reached, runStart[p]));
            if (tick > now) {
                return;
            }
            deadline[r] = vruntime(r, tick) + slicePicos;
        }
    }

    /** {@code update_deadline} at an update outside the ticks (a wake-up, a yield): renews a reached deadline. */
    private void renewIfReached(int r, long now) {
        long v = vruntime(r, now);
        if (v >= deadline[r]) {
            deadline[r] = v + slicePicos;
        }
    }

    /** How long processor {@code p}'s runner has run by {@code now} (0 while its switch in is still under way). */
    private long ranSince(int p, long now) {
        return Math.max(0, now - runStart[p]);
    }

    private void ensure(int t) {
        if (t >= home.length) {
            int size = Math.max(t + 1, home.length * 2);
            vruntime = Arrays.copyOf(vruntime, size);
            deadline = Arrays.copyOf(deadline, size);
            protectedUntil = Arrays.copyOf(protectedUntil, size);
            lag = Arrays.copyOf(lag, size);
            deadlineDistance = Arrays.copyOf(deadlineDistance, size);
            migrating = Arrays.copyOf(migrating, size);
            int old = home.length;
            home = Arrays.copyOf(home, size);
            Arrays.fill(home, old, size, -1);
        }
    }
}
