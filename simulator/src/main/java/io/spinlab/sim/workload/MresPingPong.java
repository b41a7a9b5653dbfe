package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.concurrent.TimeUnit;

/**
 * Two threads hand a turn back and forth through two {@link ManualResetEvent}s: the pinger
 * sets {@code ping} and waits for {@code pong}; the ponger waits for {@code ping}, resets it
 * and sets {@code pong}. Score: round trips per ms. The smallest workload that exercises
 * spinning, blocking and wake-ups; used to check that a workload runs on hardware and in the
 * simulator alike.
 */
public final class MresPingPong implements Workload {

    /** How long the pinger waits for the ponger to finish, on the platform's clock. */
    private static final long JOIN_TIMEOUT_SECONDS = 60;

    private final int rounds;

    /** @param rounds round trips, at least 1 */
    public MresPingPong(int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds = " + rounds + "; allowed 1 or more");
        }
        this.rounds = rounds;
    }

    @Override
    public String name() {
        return "mres-ping-pong";
    }

    @Override
    public String parameters() {
        return "rounds=" + rounds;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        ManualResetEvent ping = new ManualResetEvent(context);
        ManualResetEvent pong = new ManualResetEvent(context);
        WorkerGroup group = new WorkerGroup(context, 1);
        group.start("pong", () -> {
            for (int i = 0; i < rounds; i++) {
                ping.await();
                ping.reset();
                pong.set();
            }
        });
        long start = platform.nanoTime();
        for (int i = 0; i < rounds; i++) {
            ping.set();
            pong.await();
            pong.reset();
        }
        long elapsed = platform.nanoTime() - start;
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new WorkloadResult(name(), parameters(), platform.toString(), rounds, elapsed);
    }

    @Override
    public String toString() {
        return describe();
    }
}
