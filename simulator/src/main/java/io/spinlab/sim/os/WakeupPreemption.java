package io.spinlab.sim.os;

/**
 * Linux's wake-up preemption before 6.6 ({@code os: linux-cfs}), as the CFS scheduler decides it
 * (kernel/sched/fair.c, v4.x–v6.5):
 * every thread has a virtual runtime, the processor time it has used (all threads here have the
 * default weight, so it is plain time); each processor keeps a monotonic {@code min_vruntime}; a
 * thread that wakes is placed no further back than half the scheduling latency behind that
 * minimum (GENTLE_FAIR_SLEEPERS: a long sleeper gets a bounded credit), and it preempts the running
 * thread at once when the running thread's virtual runtime exceeds its own by more than the wake-up
 * granularity. Otherwise it waits in the queue for the slice end.
 *
 * <p>The kernel's defaults, scaled by {@code 1 + log2(min(processors, 8))} (SCHED_TUNABLESCALING_LOG,
 * {@code get_update_sysctl_factor}): {@code sysctl_sched_latency} 6 ms and
 * {@code sysctl_sched_wakeup_granularity} 1 ms, so 24 ms and 4 ms on 8 processors or more, 6 ms and
 * 1 ms on one. Not modelled: the run queue's order by virtual runtime (the simulator's queues stay
 * first in first out), a new thread's start debit (new threads never preempt on start), the buddy
 * heuristics. EEVDF, which replaced this rule in Linux 6.6, is {@link Eevdf}. State only: the
 * engine decides when to ask.
 */
public final class WakeupPreemption {
    /*
     * Implementation notes
     *
     * Virtual runtimes are picoseconds of processor time. A value is relative to the processor
     * whose queue the thread last belonged to; moving it to another processor re-bases it on that
     * processor's minimum (migrate_task_rq_fair: vruntime − old min + new min), as the kernel does.
     *
     * The engine observes a processor's least runtime (the running or leaving thread's and the
     * queued threads') when a thread leaves it and when a thread wakes onto it; the kernel also
     * does at every tick, which moves the minimum no further than these observations do before the
     * next wake-up asks for it.
     */

    private static final long MS = 1_000_000_000L;
    private static final long LATENCY_BASE_PICOS = 6 * MS;
    private static final long GRANULARITY_BASE_PICOS = MS;
    private static final int SCALING_CPUS_CAP = 8;

    private final long latencyPicos;
    private final long granularityPicos;
    private final long[] minVruntime;

    /** The rule for {@code processors} logical processors (at least 1). */
    public WakeupPreemption(int processors) {
        if (processors < 1) {
            throw new IllegalArgumentException("processors = " + processors + "; allowed 1 or more");
        }
        long factor = factor(processors);
        this.latencyPicos = LATENCY_BASE_PICOS * factor;
        this.granularityPicos = GRANULARITY_BASE_PICOS * factor;
        this.minVruntime = new long[processors];
    }

    /** The kernel's scaling factor: 1 + log2 of the processor count, counted up to 8. */
    static long factor(int processors) {
        int cpus = Math.min(processors, SCALING_CPUS_CAP);
        return 1 + (31 - Integer.numberOfLeadingZeros(cpus));
    }

    /** The scheduling latency, ps (6 ms times the factor). */
    public long latencyPicos() {
        return latencyPicos;
    }

    /** The wake-up granularity, ps (1 ms times the factor). */
    public long granularityPicos() {
        return granularityPicos;
    }

    /** Processor {@code p}'s {@code min_vruntime}, ps. */
    public long minVruntime(int p) {
        return minVruntime[p];
    }

    /**
     * Processor {@code p}'s least virtual runtime now (of its running thread and its queued ones)
     * is {@code least}: its minimum moves up to it, never down.
     */
    public void observe(int p, long least) {
        if (least > minVruntime[p]) {
            minVruntime[p] = least;
        }
    }

    /** A virtual runtime relative to processor {@code from}, re-based on processor {@code to}. */
    public long migrate(long vruntime, int from, int to) {
        return from == to ? vruntime : vruntime - minVruntime[from] + minVruntime[to];
    }

    /** Where a thread that wakes on processor {@code p} starts: at most half the latency behind its minimum. */
    public long placeWoken(int p, long vruntime) {
        return Math.max(vruntime, minVruntime[p] - latencyPicos / 2);
    }

    /** Whether a woken thread at {@code woken} preempts a running thread at {@code running} at once. */
    public boolean preempts(long running, long woken) {
        return running - woken > granularityPicos;
    }
}
