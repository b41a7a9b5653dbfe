package io.spinlab.properties.sim.guest;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.EventWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.concurrent.TimeUnit;

/**
 * An {@link EventWorld} run. It observes the waits that completed (the event seen set), the ones
 * that timed out, and the ones that reported a time-out before their time-out had passed by the
 * waiter's own clock (a wait reports false only when its time is up, so none should). Threads run
 * one at a time in the simulator, so plain fields are enough here.
 */
public final class EventWaitScenario implements SimScenario<int[]> {

    public static final int COMPLETED = 0;
    public static final int TIMED_OUT = 1;
    public static final int EARLY_TIME_OUTS = 2;
    public static final int WAITERS_DONE = 3;

    /** Set-and-reset pulses per round of the waiters before the setter leaves the event set. */
    static final int MAX_PULSES_PER_ROUND = 8;

    private final EventWorld world;
    private final int[] observed = new int[4];

    public EventWaitScenario(EventWorld world) {
        this.world = world;
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> run(platform));
    }

    private void run(Platform platform) {
        ManualResetEvent event = new ManualResetEvent(SpinContext.of(platform, world.tuning()), false,
                world.spinCount());
        for (int w = 0; w < world.waiters(); w++) {
            platform.startThread("waiter-" + w, () -> {
                for (int r = 0; r < world.rounds(); r++) {
                    long before = platform.nanoTime();
                    boolean set = await(event);
                    long elapsed = platform.nanoTime() - before;
                    if (set) {
                        observed[COMPLETED]++;
                    } else {
                        observed[TIMED_OUT]++;
                        if (elapsed < world.timeoutNanos()) {
                            observed[EARLY_TIME_OUTS]++;
                        }
                    }
                    platform.pause(world.gapPauses());
                }
                observed[WAITERS_DONE]++;
            });
        }
        platform.startThread("setter", () -> {
            // A bounded number of pulses, then the event stays set: a ManualResetEvent promises nothing to
            // a waiter woken by a pulse that ends before it runs (it re-checks, finds the event reset and
            // waits again, as .NET's does), so pulses shorter than a wake-up could go on for ever.
            for (int pulse = 0; pulse < MAX_PULSES_PER_ROUND * world.rounds()
                    && observed[WAITERS_DONE] < world.waiters(); pulse++) {
                platform.pause(world.setDelayPauses());
                event.set();
                platform.pause(world.setDelayPauses());
                if (observed[WAITERS_DONE] < world.waiters()) {
                    event.reset();
                }
            }
            event.set();
        });
    }

    private boolean await(ManualResetEvent event) {
        try {
            if (world.timeoutNanos() == 0) {
                event.await();
                return true;
            }
            return event.await(world.timeoutNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public int[] observed() {
        return observed.clone();
    }
}
