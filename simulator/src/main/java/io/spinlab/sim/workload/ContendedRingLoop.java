package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * N threads each offer and then take one item S times on one ring, the way a ConcurrentQueue segment's
 * producers and consumers do: an offer reads the tail word, reads the sequence number of the tail's slot
 * (written by whoever took that slot's item a lap before, often on a line another core wrote last), CASes
 * the tail one on and releases the slot to consumers; a take does the same at the head and hands the slot
 * back to producers a lap on. An offer that finds its slot not yet handed back or loses the CAS backs
 * off with PAUSEs, twice as many after each loss in a row (1 to {@value #MAX_BACKOFF}), as the queue's
 * {@code SpinWait} does before it would yield; so does a take. Unlike {@link ContendedCasLoop}, the
 * offer's CAS comes after a read of a second line, and a loser waits before it retries: what decides a
 * race is who reads the slot's line first after the last offer, and whether a loser that backed off can
 * still win. Score: offers per ms, from the first thread's start to the last one's end. Metrics as
 * {@link ContendedCasLoop}'s, over the offers: {@value ContendedCasLoop#FAILURES} (attempts that lost),
 * {@value ContendedCasLoop#OWNER_CHANGES} (offers whose tail read found another thread's offer) and
 * {@value ContendedCasLoop#LONGEST_LOSING_RUN} (the most attempts one thread lost in a row).
 *
 * <p>{@code calibrate}'s second check of a contended line ({@code ContendedCasCheck}): the same loop on
 * real threads and in the simulator of the host's profile. Not one of the named workloads: it has no
 * tuning to compare.
 */
public final class ContendedRingLoop implements Workload {

    /** Most threads: the last offerer's index lives in the tail word's low bits. */
    public static final int MAX_THREADS = ContendedCasLoop.MAX_THREADS;
    /** Slots in the ring: eight sequence numbers to a 64-byte line, so eight lines. */
    static final int SLOTS = 64;
    /** The most PAUSEs of one back-off (reached after six losses in a row). */
    public static final int MAX_BACKOFF = 32;

    private final int threads;
    private final int offersPerThread;

    /**
     * @param threads         threads, 1 to {@value #MAX_THREADS}
     * @param offersPerThread offers (each followed by a take) each thread makes, 1 or more
     */
    public ContendedRingLoop(int threads, int offersPerThread) {
        if (threads < 1 || threads > MAX_THREADS || offersPerThread < 1) {
            throw new IllegalArgumentException("threads = " + threads + ", offers = " + offersPerThread
                    + "; allowed threads 1 to " + MAX_THREADS + " and offers 1 or more");
        }
        this.threads = threads;
        this.offersPerThread = offersPerThread;
    }

    @Override
    public String name() {
        return "contended-ring-loop";
    }

    @Override
    public String parameters() {
        return "threads=" + threads + ",offers=" + offersPerThread;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Ring ring = new Ring();
        long offers = (long) threads * offersPerThread;
        return ContendedThreads.run(context, this, "ring", threads, offers, index -> {
            long failed = 0;
            long changes = 0;
            long losing = 0;
            long longestLosing = 0;
            for (int done = 0; done < offersPerThread; ) {
                long seen = ring.tail;
                long position = seen / MAX_THREADS;
                int slot = (int) (position % SLOTS);
                if ((long) Ring.SEQUENCE.getAcquire(ring.sequence, slot) == position
                        && Ring.TAIL.compareAndSet(ring, seen, (position + 1) * MAX_THREADS + index)) {
                    Ring.SEQUENCE.setRelease(ring.sequence, slot, position + 1);
                    if (seen != 0 && seen % MAX_THREADS != index) {
                        changes++;
                    }
                    done++;
                    losing = 0;
                    take(ring, platform);
                } else {
                    failed++;
                    longestLosing = Math.max(longestLosing, ++losing);
                    platform.pause(backoff(losing - 1));
                }
            }
            return new ContendedThreads.Counts(failed, changes, longestLosing);
        }, () -> {
            if (ring.tail / MAX_THREADS != offers || ring.head != offers) {
                throw new IllegalStateException("tail = " + ring.tail / MAX_THREADS + ", head = " + ring.head
                        + ", expected both " + offers);
            }
        });
    }

    /** Takes one item: the head's slot, once its producer has released it, backing off as an offer does. */
    private static void take(Ring ring, Platform platform) {
        for (long lost = 0; ; lost++) {
            long head = ring.head;
            int slot = (int) (head % SLOTS);
            if ((long) Ring.SEQUENCE.getAcquire(ring.sequence, slot) == head + 1
                    && Ring.HEAD.compareAndSet(ring, head, head + 1)) {
                Ring.SEQUENCE.setRelease(ring.sequence, slot, head + SLOTS);
                return;
            }
            platform.pause(backoff(lost));
        }
    }

    /** PAUSEs after {@code lostBefore} losses in a row before this one: 1, 2, 4, … up to {@value #MAX_BACKOFF}. */
    static int backoff(long lostBefore) {
        return (int) Math.min(MAX_BACKOFF, 1L << Math.min(lostBefore, 5));
    }

    @Override
    public String toString() {
        return describe();
    }

    /**
     * The tail word (offers made × {@link #MAX_THREADS} + the last offerer's index), the head (items taken)
     * and the slots' sequence numbers.
     */
    static final class Ring {
        volatile long tail;
        volatile long head;
        /**
         * Slot i's state: position p free for an offer while it holds p (i at first), holding p's item
         * while it holds p + 1, free again for p + SLOTS once taken.
         */
        final long[] sequence = new long[SLOTS];

        Ring() {
            for (int i = 0; i < SLOTS; i++) {
                sequence[i] = i;
            }
        }

        // VarHandle mechanics
        static final VarHandle TAIL;
        static final VarHandle HEAD;
        static final VarHandle SEQUENCE = MethodHandles.arrayElementVarHandle(long[].class);

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(Ring.class, "tail", long.class);
                HEAD = MethodHandles.lookup().findVarHandle(Ring.class, "head", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
