package io.spinlab.properties.primitives;

import io.spinlab.impl.event.Barrier;
import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A participant released from a phase must return even if the next phase completes before it
 * has run: {@code Barrier} resets the event of phase n + 2 (the same event as phase n) when it
 * finishes phase n + 1, and a waiter of phase n that has not yet seen its event set then waits
 * for phase n + 2. .NET's {@code Barrier} guards against exactly this (its waiters also give up
 * once the phase number has moved past theirs).
 *
 * <p>Real threads, real time: the waiter blocks, the other participant completes the phase,
 * removes one participant and completes the next phase alone, all faster than the waiter wakes
 * up. It reproduces on nearly every run.
 */
public class BarrierPhaseSkipTest {

    @Test
    public void shouldReleaseAWaiterWhenTheNextPhaseCompletesBeforeItWakes() throws InterruptedException {
        Barrier barrier = new Barrier(SpinContext.hardware(), 2);
        AtomicBoolean returned = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                barrier.signalAndWait(100, TimeUnit.MILLISECONDS);
                returned.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "barrier-waiter");
        waiter.setDaemon(true);
        waiter.start();
        while (barrier.participantsRemaining() != 1) {
            Thread.onSpinWait();
        }
        Thread.sleep(20); // let the waiter finish spinning and block

        barrier.signalAndWait(); // completes phase 0 and wakes the waiter
        barrier.removeParticipants(1); // the waiter's place: it has done its last phase
        barrier.signalAndWait(); // completes phase 1 alone, resetting the event of phase 0

        waiter.join(TimeUnit.SECONDS.toMillis(5));
        boolean stuck = waiter.isAlive();
        if (stuck) {
            waiter.interrupt(); // it waits uninterruptibly; the daemon thread is abandoned
        }
        assertFalse(stuck, "the waiter released from phase 0 is still waiting: " + barrier);
        assertTrue(returned.get());
    }
}
