package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * SpinPerf's MresWaitDrainRate: one setter sets an event, all N waiters must observe it, and
 * the last waiter to wake resets it and releases the setter; repeat. Score: waiter wake-ups
 * per ms. It favours spinning long enough not to block: a waiter that blocks early pays a
 * context switch and a wake-up every round (dotnet/coreclr #13556: 56 → 330 on a Core
 * i7-6700 at 1 × processors once the processor-count multiply was removed).
 *
 * <p>Rounds alternate between two events ({@code go[round & 1]}) so that a fast waiter
 * starting round r + 1 cannot pass on round r's still-set event; a third event releases the
 * setter. The first {@code warmupRounds} rounds (PAUSE measurement, first blocks) are not
 * measured.
 */
public final class MresWaitDrainRate implements Workload {
    /*
     * Implementation notes
     *
     * Round protocol (round r, parity e = r & 1): the setter sets go[e] and waits on
     * released. Each waiter waits on go[e] and decrements `remaining`; the one that brings it
     * to zero restores it to N, resets go[e], then sets released. The setter resets released
     * and starts round r + 1 on go[1 - e], which the last waiter of round r - 1 reset before
     * it released the setter, so no waiter of round r + 1 passes before the set.
     */

    private static final long JOIN_TIMEOUT_SECONDS = 600;

    private final int waiters;
    private final int rounds;
    private final int warmupRounds;
    private final long delayBeforeSetNanos;

    /**
     * @param waiters             waiting threads, at least 1
     * @param rounds              measured rounds, at least 1
     * @param warmupRounds        unmeasured rounds first, 0 or more
     * @param delayBeforeSetNanos busy delay before each set (SpinPerf's 1 µs variant), 0 for none
     */
    public MresWaitDrainRate(int waiters, int rounds, int warmupRounds, long delayBeforeSetNanos) {
        if (waiters < 1 || rounds < 1 || warmupRounds < 0 || delayBeforeSetNanos < 0) {
            throw new IllegalArgumentException("waiters = " + waiters + ", rounds = " + rounds + ", warmupRounds = "
                    + warmupRounds + ", delayBeforeSetNanos = " + delayBeforeSetNanos
                    + "; allowed waiters >= 1, rounds >= 1, warmupRounds >= 0, delay >= 0");
        }
        this.waiters = waiters;
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
        this.delayBeforeSetNanos = delayBeforeSetNanos;
    }

    /** Waiters = round(multiplier × processors), at least 1, as the published tables count threads. */
    public static MresWaitDrainRate atMultiple(double multiplier, int processors, int rounds, int warmupRounds) {
        int count = (int) Math.max(1, Math.round(multiplier * processors));
        return new MresWaitDrainRate(count, rounds, warmupRounds, 0);
    }

    public int waiters() {
        return waiters;
    }

    @Override
    public String name() {
        return "mres-drain";
    }

    @Override
    public String parameters() {
        return "waiters=" + waiters + ",rounds=" + rounds + ",warmup=" + warmupRounds
                + (delayBeforeSetNanos > 0 ? ",delay=" + delayBeforeSetNanos + "ns" : "");
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Round round = new Round(context, waiters);
        int total = warmupRounds + rounds;
        WorkerGroup group = new WorkerGroup(context, waiters);
        for (int w = 0; w < waiters; w++) {
            group.start("waiter-" + w, () -> {
                for (int r = 0; r < total; r++) {
                    round.awaitAndCount(r);
                }
            });
        }
        long start = 0;
        for (int r = 0; r < total; r++) {
            if (r == warmupRounds) {
                start = platform.nanoTime();
            }
            if (delayBeforeSetNanos > 0) {
                delay(platform);
            }
            round.go[r & 1].set();
            round.released.await();
            round.released.reset();
        }
        long elapsed = platform.nanoTime() - start;
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new WorkloadResult(name(), parameters(), platform.toString(), (long) waiters * rounds, elapsed);
    }

    private void delay(Platform platform) {
        long until = platform.nanoTime() + delayBeforeSetNanos;
        while (platform.nanoTime() - until < 0) {
            platform.pause(1);
        }
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The events and the countdown shared by one run. */
    private static final class Round {
        final ManualResetEvent[] go;
        final ManualResetEvent released;
        final int waiters;
        volatile int remaining;

        Round(SpinContext context, int waiters) {
            this.go = new ManualResetEvent[] {new ManualResetEvent(context), new ManualResetEvent(context)};
            this.released = new ManualResetEvent(context);
            this.waiters = waiters;
            this.remaining = waiters;
        }

        void awaitAndCount(int r) throws InterruptedException {
            ManualResetEvent event = go[r & 1];
            event.await();
            if ((int) REMAINING.getAndAdd(this, -1) == 1) {
                remaining = waiters;
                event.reset();
                released.set();
            }
        }

        // VarHandle mechanics
        private static final VarHandle REMAINING;

        static {
            try {
                REMAINING = MethodHandles.lookup().findVarHandle(Round.class, "remaining", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
