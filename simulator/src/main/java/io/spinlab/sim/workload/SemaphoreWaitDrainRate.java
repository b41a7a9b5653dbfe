package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SpinPerf's SemaphoreSlimWaitDrainRate: a releaser releases N permits at once to N waiting
 * acquirers of a {@link SemaphoreSlim}; the acquirer that takes the round's last permit
 * releases the releaser through an event; repeat. Score: acquisitions per ms. Like
 * MresWaitDrainRate it favours spinning long enough not to block.
 *
 * <p>With {@code delay}, the releaser busy-waits that long before each release.
 */
public final class SemaphoreWaitDrainRate extends WindowedWorkload {
    /*
     * Implementation notes
     *
     * Round protocol: the releaser releases N permits and waits on `released`. Every acquire
     * decrements `remaining`, so a fast acquirer may take two permits of a round; the
     * decrement that reaches zero (the round's last permit) restores N and sets `released`.
     *
     * Ending: the releaser sets `finished` and releases N more permits; each acquirer takes one
     * (it is either blocked in acquire or about to call it, since the last round's permits are
     * all taken), sees `finished` and returns, so N permits free all N.
     */

    public static final String NAME = "semaphore-wait-drain-rate";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "a releaser releases N permits at once, N acquirers drain them, the last releases the releaser; "
                    + "acquisitions/ms",
            parameterList(DELAY), p -> new SemaphoreWaitDrainRate(p.threads("threads"), p.nanos("delay"), p.window()));

    private final long delayBeforeReleaseNanos;

    /**
     * @param waiters                 acquiring threads
     * @param delayBeforeReleaseNanos busy delay before each release, 0 for none
     * @param window                  warm-up and measured window
     */
    public SemaphoreWaitDrainRate(ThreadCount waiters, long delayBeforeReleaseNanos, Window window) {
        super(waiters, window);
        this.delayBeforeReleaseNanos = Durations.check("delay", delayBeforeReleaseNanos);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("delay", Durations.format(delayBeforeReleaseNanos));
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
            run.start("waiter-" + w, slot -> {
                while (round.acquireAndCount(run, slot)) {
                    // counted in acquireAndCount
                }
            });
        }
        run.start("releaser", slot -> {
            while (run.running()) {
                if (delayBeforeReleaseNanos > 0) {
                    Work.busy(platform, delayBeforeReleaseNanos);
                }
                round.semaphore.release(waiters);
                round.released.await();
                round.released.reset();
            }
            round.finished = true;
            round.semaphore.release(waiters);
        });
        return run.measure(this, () -> { });
    }

    /** The semaphore, the event and the countdown shared by one run. */
    private static final class Round {
        final SemaphoreSlim semaphore;
        final ManualResetEvent released;
        final int waiters;
        volatile int remaining;
        volatile boolean finished;

        Round(SpinContext context, int waiters) {
            this.semaphore = new SemaphoreSlim(context, 0);
            this.released = new ManualResetEvent(context);
            this.waiters = waiters;
            this.remaining = waiters;
        }

        /** Takes one permit; false when the releaser has finished instead. */
        boolean acquireAndCount(MeasuredRun run, int slot) throws InterruptedException {
            semaphore.acquire();
            if (finished) {
                return false;
            }
            run.count(slot);
            if ((int) REMAINING.getAndAdd(this, -1) == 1) {
                remaining = waiters;
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
