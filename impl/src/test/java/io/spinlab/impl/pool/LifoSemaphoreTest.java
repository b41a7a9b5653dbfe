package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LifoSemaphoreTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void shouldTakeSignalsUntilNoneLeftWhenTrying() {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 2, 10, 0);

        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.tryAcquire()).isFalse();
        semaphore.release(3);
        assertThat(semaphore.signalCount()).isEqualTo(3);
    }

    @Test
    void shouldRejectReleaseWhenItWouldExceedMaximum() {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 9, 10, 0);

        assertThatThrownBy(() -> semaphore.release(2)).isInstanceOf(IllegalStateException.class);
        assertThat(semaphore.signalCount()).isEqualTo(9);
    }

    @Test
    void shouldReturnFalseWhenTimeoutPassesWithoutSignal() {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 10, 10);

        // That it waits its whole timeout is checked in virtual time (the simulator's TimedWaitsInVirtualTimeTest).
        assertThat(semaphore.await(TimeUnit.MILLISECONDS.toNanos(50), true)).isFalse();

        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.spinnerCount()).isZero();
    }

    @Test
    void shouldReturnFalseAtOnceWhenTimeoutIsZeroAndNoSignal() {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 10, 10);

        assertThat(semaphore.await(0, true)).isFalse();
    }

    @Test
    void shouldWakeBlockedWaiterWhenReleased() throws Exception {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LifoSemaphore semaphore = new LifoSemaphore(platform.context(Tuning.current()), 0, 10, 0);
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter",
                    () -> assertThat(semaphore.await(10 * SECOND, false)).as("woken by the release").isTrue());
            platform.awaitParked(waiter, 0);
            assertThat(semaphore.waiterCount()).isOne();

            semaphore.release(1);
            threads.joinAll();
        }
        assertThat(semaphore.waiterCount()).isZero();
    }

    @Test
    void shouldKeepWaitingAndKeepInterruptStatusWhenInterrupted() throws Exception {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LifoSemaphore semaphore = new LifoSemaphore(platform.context(Tuning.current()), 0, 10, 0);
        ConcurrentLinkedQueue<Boolean> results = new ConcurrentLinkedQueue<>();
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> {
                results.add(semaphore.await(10 * SECOND, false));
                results.add(Thread.currentThread().isInterrupted());
            });
            platform.awaitParked(waiter, 0);
            long parks = platform.parks(waiter);

            waiter.interrupt();
            // The interrupt ends the park at once; the waiter must note it and park again.
            platform.awaitParked(waiter, parks);
            assertThat(results).as("still waiting after the interrupt").isEmpty();
            semaphore.release(1);
            threads.joinAll();
        }
        assertThat(results).containsExactly(true, true);
    }

    @Test
    void shouldWakeNewestWaiterFirstWhenSeveralAreBlocked() throws Exception {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LifoSemaphore semaphore = new LifoSemaphore(platform.context(Tuning.current()), 0, 10, 0);
        ConcurrentLinkedQueue<Integer> wakeOrder = new ConcurrentLinkedQueue<>();
        try (TestThreads threads = new TestThreads()) {
            List<Thread> waiters = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int id = i;
                Thread t = threads.start("waiter-" + i, () -> {
                    assertThat(semaphore.await(10 * SECOND, false)).as("waiter %d woken", id).isTrue();
                    wakeOrder.add(id);
                });
                waiters.add(t);
                // Parked means pushed on the stack: arrival order is stack order.
                platform.awaitParked(t, 0);
                assertThat(semaphore.waiterCount()).isEqualTo(i + 1);
            }

            semaphore.release(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (wakeOrder.isEmpty() && System.nanoTime() - deadline < 0) {
                Thread.sleep(1); // polling, bounded
            }
            assertThat(wakeOrder).as("woken by the first release").containsExactly(2);
            semaphore.release(2);
            threads.joinAll();
        }
        assertThat(wakeOrder).hasSize(3).first().as("first woken").isEqualTo(2);
    }

    @Test
    void shouldHandEverySignalToSomeWaiterWhenManyWaitersAndReleasesRace() throws Exception {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 1_000, 20);
        int threadsCount = 4;
        int perThread = 2_000;
        try (TestThreads threads = new TestThreads()) {
            for (int i = 0; i < threadsCount; i++) {
                threads.start("waiter-" + i, () -> {
                    for (int k = 0; k < perThread; k++) {
                        assertThat(semaphore.await(30 * SECOND, true)).as("a released signal reached a waiter")
                                .isTrue();
                    }
                });
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
            for (int k = 0; k < threadsCount * perThread; k++) {
                // Bounded: a lost signal or a failed waiter must fail the test, not hang the build.
                while (semaphore.signalCount() > 50) {
                    threads.rethrowFailures(); // a waiter that failed takes no more signals
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError(semaphore.signalCount() + " signals not taken after " + k
                                + " releases in " + TestThreads.JOIN_SECONDS + " s");
                    }
                    Thread.onSpinWait();
                }
                semaphore.release(1);
            }
            threads.joinAll();
        }

        assertThat(semaphore.signalCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.spinnerCount()).isZero();
    }
}
