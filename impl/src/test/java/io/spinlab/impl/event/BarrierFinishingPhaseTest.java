package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.DelegatingPlatform;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A waiter whose wait ends (interrupt or timeout) while the last arriver is finishing the phase: its
 * arrival can no longer be taken back, so it waits for the phase's end without giving up and returns
 * true, keeping the interrupt. Real threads: the last arriver stays inside the post-phase action until
 * the test opens a latch, and the test acts on the waiter only once it is blocked in the right method
 * (bounded polling of its state and stack, not an ordering by time). The clock is the test's: it moves
 * only when the test moves it, so a timeout happens exactly when the scenario says.
 */
class BarrierFinishingPhaseTest {

    /** The hardware with a clock that moves only when the test moves it, counting each thread's parks. */
    private static final class TestClock extends DelegatingPlatform {
        final AtomicLong now = new AtomicLong(1_000_000);
        private final Map<Thread, AtomicLong> parks = new ConcurrentHashMap<>();

        @Override
        public long nanoTime() {
            return now.get();
        }

        @Override
        public void park(Object blocker) {
            parked();
            super.park(blocker);
        }

        @Override
        public void parkNanos(Object blocker, long nanos) {
            parked();
            super.parkNanos(blocker, nanos);
        }

        private void parked() {
            parks.computeIfAbsent(Thread.currentThread(), t -> new AtomicLong()).incrementAndGet();
        }

        long parks(Thread thread) {
            AtomicLong count = parks.get(thread);
            return count == null ? 0 : count.get();
        }

        /**
         * Waits (bounded) until {@code thread} has begun two more parks than {@code before}: an interrupt
         * set just before makes any park return at once, so the second of them began after the
         * interrupt was taken (a wait that ends on its own re-parks only every 100 ms).
         */
        void awaitTwoParksAfter(Thread thread, long before) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
            while (parks(thread) < before + 2) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError(thread.getName() + " never parked again");
                }
                Thread.sleep(1); // polling, bounded: not an ordering by time
            }
        }
    }

    private final TestClock clock = new TestClock();
    private final SpinContext context = SpinContext.of(clock, Tuning.current(), new FixedPauseNormalizer());

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
            long before = clock.parks(waiter);
            waiter.interrupt();
            clock.awaitTwoParksAfter(waiter, before);
        });

        assertThat(outcome).isEqualTo(new Outcome(true, true, 1));
    }

    /** The timeout passes while the phase finishes: the waiter cannot withdraw, waits, and reports the phase done. */
    @Test
    void shouldWaitForTheFinishWhenTheTimeoutPassesWhileThePhaseFinishes() throws Exception {
        Outcome outcome = finishWhileWaiterActs(TimeUnit.SECONDS.toNanos(1), waiter -> {
            clock.now.addAndGet(TimeUnit.SECONDS.toNanos(2));
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
            clock.now.addAndGet(TimeUnit.SECONDS.toNanos(2));
            awaitBlockedIn(waiter, "awaitPhaseEndUninterruptibly");
            long before = clock.parks(waiter);
            waiter.interrupt();
            clock.awaitTwoParksAfter(waiter, before);
        });

        assertThat(outcome).isEqualTo(new Outcome(true, true, 1));
    }
}
