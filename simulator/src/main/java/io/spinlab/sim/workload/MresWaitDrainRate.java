package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SpinPerf's MresWaitDrainRate: one setter sets an event, all N waiters must observe it, and
 * the last waiter to wake resets it and releases the setter; repeat. Score: waiter wake-ups
 * per ms. It favours spinning long enough not to block: a waiter that blocks early pays a
 * context switch and a wake-up every round (dotnet/coreclr #13556: 56 → 330 on a Core
 * i7-6700 at 1 × processors once the processor-count multiply was removed).
 *
 * <p>Rounds alternate between two events ({@code go[round & 1]}) so that a fast waiter
 * starting round r + 1 cannot pass on round r's still-set event; a third event releases the
 * setter. With {@code delay}, the setter busy-waits that long before each set.
 *
 * <p>Metrics: {@code threads}; over the whole run (not only the window), {@code rounds} the
 * setter completed and the fewest and most of them any one waiter passed
 * ({@code fewestWaiterRounds}, {@code mostWaiterRounds}): all three are equal when every round
 * was drained by every waiter exactly once.
 */
public final class MresWaitDrainRate extends WindowedWorkload {
    /*
     * Implementation notes
     *
     * Round protocol (round r, parity e = r & 1): the setter sets go[e] and waits on
     * released. Each waiter waits on go[e] and decrements `remaining`; the one that brings it
     * to zero restores it to N, resets go[e], then sets released. The setter resets released
     * and starts round r + 1 on go[1 - e], which the last waiter of round r - 1 reset before
     * it released the setter, so no waiter of round r + 1 passes before the set.
     *
     * Ending: the setter decides. When the window is over it sets `finished`, then go[e] of the
     * round it would have started; every waiter is waiting on that event (all finished the
     * previous round), sees `finished` and returns without counting. A waiter reads `finished`
     * before its decrement, and the setter decides only after every decrement of the round, so
     * no waiter leaves a round half done.
     *
     * Round counts: plain fields, each written once by its own thread as it returns and read
     * by the controller after the join, which orders them; the simulator charges nothing for
     * them, so they do not change the run.
     */

    public static final String NAME = "mres-wait-drain-rate";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "a setter sets an event, all N waiters observe it, the last resets it and releases the setter; "
                    + "wake-ups/ms",
            parameterList(DELAY), p -> new MresWaitDrainRate(p.threads("threads"), p.nanos("delay"), p.window()));

    private final long delayBeforeSetNanos;

    /**
     * @param waiters             waiting threads
     * @param delayBeforeSetNanos busy delay before each set (SpinPerf's 1 µs variant), 0 for none
     * @param window              warm-up and measured window
     */
    public MresWaitDrainRate(ThreadCount waiters, long delayBeforeSetNanos, Window window) {
        super(waiters, window);
        this.delayBeforeSetNanos = Durations.check("delay", delayBeforeSetNanos);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("delay", Durations.format(delayBeforeSetNanos));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int waiters = threads().resolve(context.processorCount());
        Round round = new Round(context, waiters);
        MeasuredRun run = new MeasuredRun(context, window(), waiters + 1);
        run.metric("threads", waiters);
        for (int w = 0; w < waiters; w++) {
            int waiter = w;
            run.start("waiter-" + w, slot -> {
                int r = 0;
                while (round.awaitAndCount(r, run, slot)) {
                    r++; // each round counted in awaitAndCount
                }
                round.waiterRounds[waiter] = r;
            });
        }
        run.start("setter", slot -> {
            int r = 0;
            while (run.running()) {
                if (delayBeforeSetNanos > 0) {
                    Work.busy(platform, delayBeforeSetNanos);
                }
                round.go[r & 1].set();
                round.released.await();
                round.released.reset();
                r++;
            }
            round.finished = true;
            round.setterRounds = r;
            round.go[r & 1].set();
        });
        WorkloadResult measured = run.measure(this, () -> { });
        Map<String, Double> metrics = new LinkedHashMap<>(measured.metrics());
        metrics.put("rounds", (double) round.setterRounds);
        metrics.put("fewestWaiterRounds", (double) Arrays.stream(round.waiterRounds).min().orElse(0));
        metrics.put("mostWaiterRounds", (double) Arrays.stream(round.waiterRounds).max().orElse(0));
        return new WorkloadResult(measured.workload(), measured.parameters(), measured.platform(),
                measured.operations(), measured.elapsedNanos(), metrics);
    }

    /** The events and the countdown shared by one run. */
    private static final class Round {
        final ManualResetEvent[] go;
        final ManualResetEvent released;
        final int waiters;
        /** Rounds each waiter passed, written by that waiter as it returns. */
        final int[] waiterRounds;
        /** Rounds the setter completed, written by the setter as it finishes. */
        int setterRounds;
        volatile int remaining;
        volatile boolean finished;

        Round(SpinContext context, int waiters) {
            this.go = new ManualResetEvent[] {new ManualResetEvent(context), new ManualResetEvent(context)};
            this.released = new ManualResetEvent(context);
            this.waiters = waiters;
            this.waiterRounds = new int[waiters];
            this.remaining = waiters;
        }

        /** Waits for round {@code r}; false when the setter has finished instead. */
        boolean awaitAndCount(int r, MeasuredRun run, int slot) throws InterruptedException {
            ManualResetEvent event = go[r & 1];
            event.await();
            if (finished) {
                return false;
            }
            run.count(slot);
            if ((int) REMAINING.getAndAdd(this, -1) == 1) {
                remaining = waiters;
                event.reset();
                released.set();
            }
            return true;
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
