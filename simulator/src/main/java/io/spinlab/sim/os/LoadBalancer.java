package io.spinlab.sim.os;

import java.util.Arrays;
import java.util.function.IntToLongFunction;

/**
 * Linux's periodic load balancing between the processors' run queues, for threads of equal
 * weight: at its scheduler ticks, once per balance interval, a busy processor looks for the
 * busiest other queue and pulls ready threads from it when the loads are far enough apart.
 * (A processor that goes idle takes a ready thread at once; {@link Scheduler#pollForIdle} does
 * that, so the engine never leaves a processor idle while a thread waits.)
 *
 * <ul>
 *   <li><b>When</b>: processor {@code p} balances at its first tick at or after its last balance
 *       plus its busy interval: {@code balance_interval} ms (from {@code min_interval}, the
 *       domain's processor count, to {@code max_interval}, twice that) times {@code busy_factor}
 *       16, in jiffies (rounded up), less one, at least one and at most {@code HZ × P / 10}
 *       jiffies. On two processors at HZ 250: 7 jiffies (28 ms), or 15 (60 ms) at the longer
 *       interval. Its balancing runs from boot, so at its first dispatch in a simulation it last
 *       balanced some ticks before (the engine draws how many with noise on). The balance itself runs
 *       {@link #SOFTIRQ_DELAY_PICOS} after the tick, when the other processors' slices that end at
 *       that tick (Linux's ticks are aligned) have switched.</li>
 *   <li><b>Whether</b>: loads are counted in threads (each running or ready thread one; PELT's
 *       averages are not modelled). The busiest other queue must hold two or more. If {@code p}
 *       holds two or more itself, the busiest must exceed it, and by more than 17 %
 *       ({@code imbalance_pct} 117). If {@code p}'s load is at or above the domain's average
 *       ({@code total / P}), nothing moves. The imbalance is then the lesser of the busiest's excess
 *       over the average and {@code p}'s shortfall below it.</li>
 *   <li><b>What</b>: the busiest queue's ready threads, least recently run first (at most 32);
 *       one that ran there within the last 0.5 ms ({@code sysctl_sched_migration_cost}) is cache-hot
 *       and stays unless two balances in a row failed ({@code cache_nice_tries} 1); a thread moves
 *       while its load, halved once per failed balance before this one, does not exceed what is left
 *       of the imbalance, which each move lowers by a whole thread.</li>
 *   <li><b>After</b>: a balance that found nothing to do doubles the interval (up to its maximum)
 *       and clears the failure count; one that moved threads clears the count, one that found an
 *       imbalance but moved nothing adds one to it; both set the interval back to its minimum.</li>
 * </ul>
 * So three busy threads on two processors move one of the pair to the lone one's processor at the
 * second balance after a move (its load fits once halved) if the pair's processor did not switch at
 * that tick, else at the third (the thread it switched out there is cache-hot): the lone processor
 * changes hands every 60 to 120 ms (on the development host every 28 to 338 ms, a median of 84 ms
 * in one run and of 132 ms in another; see {@code simulator/SIMULATOR-RESULTS.md}).
 * <p>
 * Sources: {@code kernel/sched/fair.c} of Linux 6.12 ({@code sched_balance_domains},
 * {@code get_sd_balance_interval}, {@code sched_balance_rq} and its {@code out_balanced} path,
 * {@code should_we_balance}, {@code sched_balance_find_src_group}, {@code calculate_imbalance},
 * {@code detach_tasks}, {@code can_migrate_task}, {@code task_hot}) and {@code sd_init} in
 * {@code kernel/sched/topology.c} (the intervals, {@code busy_factor}, {@code imbalance_pct} and
 * {@code cache_nice_tries} of the cache-sharing level). Not modelled: the domain hierarchy (one
 * domain spans every processor, each its own group: SMT siblings and sockets are not levels of
 * their own), PELT's load and utilization averages (a thread that mostly sleeps counts as much as a
 * busy one while it is ready), active balancing (pushing a running thread), the idle processors'
 * NOHZ balancing (no processor idles here while a thread waits) and affinity. Not thread-safe:
 * only the engine touches it.
 */
public final class LoadBalancer {
    /** One thread's load, in the kernel's fixed point ({@code SCHED_CAPACITY_SCALE}). */
    static final long THREAD_LOAD = 1024;
    /** {@code busy_factor} of every domain level. */
    static final int BUSY_FACTOR = 16;
    /** {@code imbalance_pct} of the cache-sharing level. */
    static final int IMBALANCE_PCT = 117;
    /** {@code cache_nice_tries} of the cache-sharing level. */
    static final int CACHE_NICE_TRIES = 1;
    /** {@code sysctl_sched_migration_cost}, 0.5 ms, in ps. */
    static final long MIGRATION_COST_PICOS = 500_000_000L;
    /** {@code sysctl_sched_nr_migrate}: threads looked at per balance. */
    static final int NR_MIGRATE = 32;
    /**
     * How long after its tick a processor's balance runs, ps: the balance is work of the
     * {@code SCHED_SOFTIRQ} that the tick raises, run on the way out of the tick's interrupt, so the
     * slices that end at the same (aligned) tick on the other processors have switched by then, and a
     * thread switched out there ran a moment ago (cache-hot). Measured on the development host
     * (Linux 6.18, 2 vCPUs; {@code perf} on the {@code timer}, {@code irq} and {@code sched}
     * tracepoints): the balancer's migrations 13–39 µs after the pulling processor's tick, the
     * other processor's slice-end switch at the same tick 0–14 µs after it. 30 µs.
     */
    public static final long SOFTIRQ_DELAY_PICOS = 30_000_000L;

    /** What a balance decided: threads to move from one queue to the balancing processor's. */
    public record Pull(int from, int[] threads) {
    }

    private static final Pull NONE = new Pull(-1, new int[0]);

    private final int processors;
    private final long tickPicos;
    private final int minIntervalMs;
    private final int maxIntervalMs;
    private final long maxJiffies;
    private final int[] intervalMs;
    private final int[] failed;
    private final long[] lastBalance;
    private final long[] origin;
    private final boolean[] started;

    /**
     * @param processors the processors of the one domain, at least 1
     * @param tickPicos the scheduler tick (a jiffy), ps, positive
     */
    public LoadBalancer(int processors, long tickPicos) {
        if (processors < 1) {
            throw new IllegalArgumentException("processors = " + processors + "; allowed 1 or more");
        }
        if (tickPicos <= 0) {
            throw new IllegalArgumentException("tickPicos = " + tickPicos + "; allowed 1 or more");
        }
        this.processors = processors;
        this.tickPicos = tickPicos;
        this.minIntervalMs = processors;
        this.maxIntervalMs = 2 * processors;
        // HZ × P / 10 jiffies: a tenth of a second per processor
        this.maxJiffies = Math.max(1, 100_000_000_000L * processors / tickPicos);
        this.intervalMs = new int[processors];
        this.failed = new int[processors];
        this.lastBalance = new long[processors];
        this.origin = new long[processors];
        this.started = new boolean[processors];
        Arrays.fill(intervalMs, minIntervalMs);
    }

    /**
     * Processor {@code p}'s first dispatch, at a tick at {@code tick}: its ticks fall at {@code tick}
     * plus whole jiffies, and it last balanced {@code ticksAgo} jiffies before (its balancing runs from
     * boot, not from the simulation's start; {@code 0 ≤ ticksAgo <} {@link #firstIntervalJiffies}).
     * Returns whether this was the first (later calls change nothing).
     */
    public boolean start(int p, long tick, long ticksAgo) {
        if (started[p]) {
            return false;
        }
        if (ticksAgo < 0 || ticksAgo >= firstIntervalJiffies()) {
            throw new IllegalArgumentException("ticksAgo = " + ticksAgo + "; allowed 0 to "
                    + (firstIntervalJiffies() - 1));
        }
        started[p] = true;
        lastBalance[p] = tick - ticksAgo * tickPicos;
        origin[p] = tick;
        return true;
    }

    /** The busy interval a processor starts with, in jiffies (its minimum's). */
    public long firstIntervalJiffies() {
        return busyJiffies(minIntervalMs);
    }

    /**
     * Processor {@code p}, idle since before its balance fell due, is busy again at {@code now}.
     * While idle it balanced at its idle interval and found nothing to pull (no thread waits while
     * a processor idles): its interval has doubled to the maximum, its failures are cleared, and
     * its last balance was its last tick at or before {@code now}. Nothing changes if the balance
     * is not overdue.
     */
    public void resume(int p, long now) {
        if (nextBalance(p) >= now) {
            return;
        }
        failed[p] = 0;
        intervalMs[p] = maxIntervalMs;
        lastBalance[p] = origin[p] + Math.floorDiv(now - origin[p], tickPicos) * tickPicos;
    }

    /** When processor {@code p} balances next while busy: its first tick at or after the last balance plus its interval. */
    public long nextBalance(int p) {
        return lastBalance[p] + busyJiffies(intervalMs[p]) * tickPicos;
    }

    /** The busy balance interval of {@code ms} ms in jiffies: × 16, rounded up to jiffies, less one, clamped. */
    long busyJiffies(int ms) {
        long picos = (long) ms * BUSY_FACTOR * 1_000_000_000L;
        long jiffies = Math.ceilDiv(picos, tickPicos) - 1;
        return Math.max(1, Math.min(maxJiffies, jiffies));
    }

    /** Processor {@code p}'s balance interval now, ms (before the busy factor). */
    public int intervalMs(int p) {
        return intervalMs[p];
    }

    /** Balances in a row on processor {@code p} that found an imbalance and moved nothing. */
    public int failures(int p) {
        return failed[p];
    }

    /**
     * Busy processor {@code p} balances at {@code now}, in the softirq of its due tick (at or
     * {@link #SOFTIRQ_DELAY_PICOS} after it: the balance counts as that tick's). {@code load} gives each
     * processor's running and ready threads; {@code ready} each processor's ready threads;
     * {@code lastRan} when a thread last left a processor ({@code Long.MIN_VALUE} if never).
     * Returns the threads to pull (none when balanced or nothing may move) and updates the
     * interval, the failure count and the last balance.
     */
    public Pull balance(int p, long now, int[] load, int[][] ready, IntToLongFunction lastRan) {
        lastBalance[p] = origin[p] + Math.floorDiv(now - origin[p], tickPicos) * tickPicos;
        int busiest = -1;
        long total = 0;
        for (int step = 0; step < processors; step++) {
            int q = (p + step) % processors;
            total += load[q];
            if (q != p && load[q] >= 2 && (busiest < 0 || load[q] > load[busiest])) {
                busiest = q;
            }
        }
        long imbalance = busiest < 0 ? 0 : imbalance(load[p], load[busiest], total);
        if (imbalance <= 0) {
            failed[p] = 0;
            intervalMs[p] = Math.min(maxIntervalMs, 2 * intervalMs[p]);
            return NONE;
        }
        int[] candidates = coldestFirst(ready[busiest], lastRan);
        int[] moved = new int[candidates.length];
        int count = 0;
        int looked = 0;
        for (int t : candidates) {
            if (imbalance <= 0 || looked == NR_MIGRATE) {
                break;
            }
            looked++;
            long ran = lastRan.applyAsLong(t);
            boolean hot = ran != Long.MIN_VALUE && now - ran < MIGRATION_COST_PICOS;
            if (hot && failed[p] <= CACHE_NICE_TRIES) {
                continue;
            }
            if ((THREAD_LOAD >> Math.min(failed[p], 63)) > imbalance) {
                continue;
            }
            moved[count++] = t;
            imbalance -= THREAD_LOAD;
        }
        intervalMs[p] = minIntervalMs;
        if (count == 0) {
            failed[p]++;
            return NONE;
        }
        failed[p] = 0;
        return new Pull(busiest, Arrays.copyOf(moved, count));
    }

    /**
     * The imbalance, in thread loads × {@link #THREAD_LOAD}, between the balancing processor's
     * {@code local} threads and the busiest queue's {@code busiest}, of {@code total} in the
     * domain; 0 or less when balanced.
     */
    long imbalance(int local, int busiest, long total) {
        long average = total * THREAD_LOAD / processors;
        long localLoad = local * THREAD_LOAD;
        long busiestLoad = busiest * THREAD_LOAD;
        if (localLoad >= busiestLoad || localLoad >= average) {
            return 0;
        }
        if (local >= 2 && 100L * busiestLoad <= (long) IMBALANCE_PCT * localLoad) {
            return 0; // both overloaded: the busiest must exceed the local by more than 17 %
        }
        return Math.min(busiestLoad - average, average - localLoad);
    }

    /** {@code ready}, least recently run first (ties: the queue's order). */
    private static int[] coldestFirst(int[] ready, IntToLongFunction lastRan) {
        Integer[] order = new Integer[ready.length];
        for (int i = 0; i < ready.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int byTime = Long.compare(lastRan.applyAsLong(ready[a]), lastRan.applyAsLong(ready[b]));
            return byTime != 0 ? byTime : Integer.compare(a, b);
        });
        int[] sorted = new int[ready.length];
        for (int i = 0; i < ready.length; i++) {
            sorted[i] = ready[order[i]];
        }
        return sorted;
    }
}
