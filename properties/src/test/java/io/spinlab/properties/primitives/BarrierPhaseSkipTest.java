package io.spinlab.properties.primitives;

import io.spinlab.impl.event.Barrier;
import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A participant released from a phase must return even if the next phase completes before it
 * has run: {@code Barrier} resets the event of phase n + 2 (the same event as phase n) when it
 * finishes phase n + 1, and a waiter of phase n that has not yet seen its event set then waits
 * for phase n + 2. .NET's {@code Barrier} guards against exactly this (its waiters also give up
 * once the phase number has moved past theirs).
 *
 * <p>Real threads, real time: the waiter blocks (seen parked, not guessed by a sleep), the other
 * participant completes the phase, removes one participant and completes the next phase alone,
 * all faster than the waiter wakes up. It reproduces on nearly every run.
 */
public class BarrierPhaseSkipTest {

    @Test
    public void shouldReleaseAWaiterWhenTheNextPhaseCompletesBeforeItWakes() throws InterruptedException {
        ParkWatchingPlatform platform = new ParkWatchingPlatform();
        Barrier barrier = new Barrier(SpinContext.of(platform, Tuning.current(), SpinContext.hardware().normalizer()),
                2);
        AtomicReference<Boolean> completed = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                // A timeout far beyond the join below: on a loaded machine the waiter must not time out
                // before the test has seen it parked (with 100 ms it did, under a mutation-testing run).
                completed.set(barrier.signalAndWait(30, TimeUnit.SECONDS));
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "barrier-waiter");
        waiter.setDaemon(true);
        platform.watch(waiter);
        waiter.start();
        awaitParked(platform, waiter); // it finished spinning and blocks on the phase's event

        barrier.signalAndWait(); // completes phase 0 and wakes the waiter
        barrier.removeParticipants(1); // the waiter's place: it has done its last phase
        barrier.signalAndWait(); // completes phase 1 alone, resetting the event of phase 0

        waiter.join(TimeUnit.SECONDS.toMillis(5));
        boolean stuck = waiter.isAlive();
        if (stuck) {
            waiter.interrupt(); // it waits uninterruptibly; the daemon thread is abandoned
        }
        assertFalse(stuck, "the waiter released from phase 0 is still waiting: " + barrier);
        assertNull(failure.get(), () -> "the waiter failed: " + failure.get());
        assertEquals(Boolean.TRUE, completed.get(),
                "signalAndWait's result: phase 0 completed, so true (false would be a timeout): " + barrier);
    }

    /** Waits, boundedly, until {@code thread} has begun a park and is blocked in it. */
    private static void awaitParked(ParkWatchingPlatform platform, Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(platform.parks() > 0 && (thread.getState() == Thread.State.WAITING
                || thread.getState() == Thread.State.TIMED_WAITING))) {
            assertTrue(thread.isAlive(), "the waiter returned before it blocked");
            assertTrue(System.nanoTime() - deadline < 0, "the waiter never blocked; state " + thread.getState());
            Thread.sleep(1); // polling, bounded: not an ordering by time
        }
    }

    /** The hardware, counting the parks of one watched thread. */
    private static final class ParkWatchingPlatform implements Platform {
        private final Platform hardware = HardwarePlatform.INSTANCE;
        private volatile Thread watched;
        private volatile int parks;

        void watch(Thread thread) {
            watched = thread;
        }

        int parks() {
            return parks;
        }

        private void parking() {
            if (Thread.currentThread() == watched) {
                parks = parks + 1; // written by the watched thread only
            }
        }

        @Override
        public int processorCount() {
            return hardware.processorCount();
        }

        @Override
        public long nanoTime() {
            return hardware.nanoTime();
        }

        @Override
        public void pause(int count) {
            hardware.pause(count);
        }

        @Override
        public void yieldThread() {
            hardware.yieldThread();
        }

        @Override
        public void sleep(long nanos) {
            hardware.sleep(nanos);
        }

        @Override
        public void park(Object blocker) {
            parking();
            hardware.park(blocker);
        }

        @Override
        public void parkNanos(Object blocker, long nanos) {
            parking();
            hardware.parkNanos(blocker, nanos);
        }

        @Override
        public void unpark(Thread thread) {
            hardware.unpark(thread);
        }

        @Override
        public Thread startThread(String name, Runnable task) {
            return hardware.startThread(name, task);
        }

        @Override
        public int nextRandom(int bound) {
            return hardware.nextRandom(bound);
        }
    }
}
