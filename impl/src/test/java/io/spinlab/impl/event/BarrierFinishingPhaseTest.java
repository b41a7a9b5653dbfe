package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.ControlledClockPlatform;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A waiter whose wait ends (interrupt or timeout) while the last arriver is finishing the phase: its
 * arrival can no longer be taken back, so it waits for the phase's end without giving up and returns
 * true, keeping the interrupt. Real threads: the last arriver stays inside the post-phase action until
 * the test opens a latch, and the test acts on the waiter only once it is blocked in the right method
 * (bounded polling of its state, stack and waiting calls, not an ordering by time). The clock is the
 * test's: it moves only when the test moves it, so a timeout happens exactly when the scenario says.
 */
class BarrierFinishingPhaseTest {

    private final ControlledClockPlatform clock = new ControlledClockPlatform();
    private final SpinContext context = clock.context(Tuning.current());

    /**
     * Waits (bounded) until {@code thread}, seen parked, has made two more waiting calls than
     * {@code before}: an interrupt set just before makes its park return at once, and the wait that
     * follows the park begins only after the interrupt was taken.
     */
    private void awaitTwoWaitsAfter(Thread thread, long before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
        while (clock.waits(thread) < before + 2) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(thread.getName() + " never waited again");
            }
            Thread.sleep(1); // polling, bounded: not an ordering by time
        }
    }

    /** Waits (bounded) until {@code thread} is parked inside {@code method} of Barrier. */
    private static void awaitBlockedIn(Thread thread, String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
        for (;;) {
            Thread.State state = thread.getState();
            boolean inMethod = Arrays.stream(thread.getStackTrace()).anyMatch(
                    e -> e.getClassName().equals(Barrier.class.getName()) && e.getMethodName().equals(method));
            if (inMethod && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                    && thread.getState() == state) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(thread.getName() + " never blocked in Barrier." + method + "; state "
                        + state);
            }
            Thread.sleep(1); // polling, bounded: not an ordering by time
        }
    }

    private record Outcome(boolean released, boolean interrupted, long phaseSeen) {
    }

    /**
     * Runs the scenario: the waiter arrives first ({@code timeoutNanos} or untimed), the last arriver
     * enters the post-phase action and stays there; {@code whileFinishing} acts on the waiter; then the
     * action ends.
     */
    private Outcome finishWhileWaiterActs(long timeoutNanos, WaiterAction whileFinishing) throws Exception {
        CountDownLatch inAction = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        Barrier barrier = new Barrier(context, 2, b -> {
            inAction.countDown();
            try {
                assertThat(proceed.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        Outcome[] outcome = new Outcome[1];
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> {
                boolean released = true; // the untimed wait returns only when released
                if (timeoutNanos < 0) {
                    barrier.signalAndWait();
                } else {
                    released = barrier.signalAndWait(timeoutNanos, TimeUnit.NANOSECONDS);
                }
                outcome[0] = new Outcome(released, Thread.currentThread().isInterrupted(), barrier.currentPhase());
            });
            awaitBlockedIn(waiter, "waitForPhaseEnd");
            threads.start("last", barrier::signalAndWait);
            assertThat(inAction.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();

            whileFinishing.act(waiter);

            proceed.countDown();
            threads.joinAll();
        }
        return outcome[0];
    }

    @FunctionalInterface
    private interface WaiterAction {
        void act(Thread waiter) throws Exception;
    }

    @Test
    void shouldWaitForTheFinishAndKeepTheInterruptWhenInterruptedWhileThePhaseFinishes() throws Exception {
        Outcome outcome = finishWhileWaiterActs(-1, waiter -> {
            waiter.interrupt();
            awaitBlockedIn(waiter, "awaitPhaseEndUninterruptibly");
        });

        assertThat(outcome).isEqualTo(new Outcome(true, true, 1));
    }

    /** A second interrupt during the uninterruptible wait is kept as well. */
    @Test
    void shouldKeepAnInterruptThatArrivesDuringTheUninterruptibleWait() throws Exception {
        Outcome outcome = finishWhileWaiterActs(-1, waiter -> {
            waiter.interrupt();
            awaitBlockedIn(waiter, "awaitPhaseEndUninterruptibly");
            long before = clock.waits(waiter);
            waiter.interrupt();
            awaitTwoWaitsAfter(waiter, before);
        });

        assertThat(outcome).isEqualTo(new Outcome(true, true, 1));
    }

    /** The timeout passes while the phase finishes: the waiter cannot withdraw, waits, and reports the phase done. */
    @Test
    void shouldWaitForTheFinishWhenTheTimeoutPassesWhileThePhaseFinishes() throws Exception {
        Outcome outcome = finishWhileWaiterActs(TimeUnit.SECONDS.toNanos(1), waiter -> {
            clock.advance(TimeUnit.SECONDS.toNanos(2));
            awaitBlockedIn(waiter, "awaitPhaseEndUninterruptibly");
        });

        assertThat(outcome).isEqualTo(new Outcome(true, false, 1));
    }

    /**
     * An interrupt during that wait (after the timeout) is taken by the wait, which goes on, and the status
     * is restored on return: the test lets the phase finish only once the waiter has taken the interrupt.
     */
    @Test
    void shouldKeepAnInterruptDuringTheWaitThatFollowsATimeout() throws Exception {
        Outcome outcome = finishWhileWaiterActs(TimeUnit.SECONDS.toNanos(1), waiter -> {
            clock.advance(TimeUnit.SECONDS.toNanos(2));
            awaitBlockedIn(waiter, "awaitPhaseEndUninterruptibly");
            long before = clock.waits(waiter);
            waiter.interrupt();
            awaitTwoWaitsAfter(waiter, before);
        });

        assertThat(outcome).isEqualTo(new Outcome(true, true, 1));
    }
}
