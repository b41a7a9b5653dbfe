package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
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
        long start = System.nanoTime();

        assertThat(semaphore.await(TimeUnit.MILLISECONDS.toNanos(50), true)).isFalse();

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
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
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 10, 0);
        ConcurrentLinkedQueue<Boolean> results = new ConcurrentLinkedQueue<>();
        Thread waiter = new Thread(() -> results.add(semaphore.await(10 * SECOND, false)));
        waiter.start();
        awaitWaiters(semaphore, 1);

        semaphore.release(1);
        waiter.join(10_000);

        assertThat(results).containsExactly(true);
        assertThat(semaphore.waiterCount()).isZero();
    }

    @Test
    void shouldKeepWaitingAndKeepInterruptStatusWhenInterrupted() throws Exception {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 10, 0);
        ConcurrentLinkedQueue<Boolean> results = new ConcurrentLinkedQueue<>();
        Thread waiter = new Thread(() -> {
            results.add(semaphore.await(10 * SECOND, false));
            results.add(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        awaitWaiters(semaphore, 1);

        waiter.interrupt();
        Thread.sleep(50);
        assertThat(results).as("still waiting after the interrupt").isEmpty();
        semaphore.release(1);
        waiter.join(10_000);

        assertThat(results).containsExactly(true, true);
    }

    @Test
    void shouldWakeNewestWaiterFirstWhenSeveralAreBlocked() throws Exception {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 10, 0);
        ConcurrentLinkedQueue<Integer> wakeOrder = new ConcurrentLinkedQueue<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int id = i;
            Thread t = new Thread(() -> {
                if (semaphore.await(10 * SECOND, false)) {
                    wakeOrder.add(id);
                }
            });
            t.start();
            waiters.add(t);
            awaitWaiters(semaphore, i + 1);
            Thread.sleep(20); // let it reach the park, so that arrival order is stack order
        }

        semaphore.release(1);
        waiters.get(2).join(10_000);
        semaphore.release(2);
        for (Thread t : waiters) {
            t.join(10_000);
        }

        assertThat(wakeOrder).hasSize(3);
        assertThat(wakeOrder.peek()).as("first woken").isEqualTo(2);
    }

    @Test
    void shouldHandEverySignalToSomeWaiterWhenManyWaitersAndReleasesRace() throws Exception {
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.hardware(), 0, 1_000, 20);
        int threads = 4;
        int perThread = 2_000;
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                for (int k = 0; k < perThread; k++) {
                    if (!semaphore.await(30 * SECOND, true)) {
                        throw new AssertionError("timed out waiting for a released signal");
                    }
                }
            });
            t.start();
            waiters.add(t);
        }
        for (int k = 0; k < threads * perThread; k++) {
            while (semaphore.signalCount() > 50) {
                Thread.onSpinWait();
            }
            semaphore.release(1);
        }
        for (Thread t : waiters) {
            t.join(30_000);
            assertThat(t.isAlive()).isFalse();
        }

        assertThat(semaphore.signalCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.spinnerCount()).isZero();
    }

    private static void awaitWaiters(LifoSemaphore semaphore, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10 * SECOND;
        while (semaphore.waiterCount() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(semaphore.waiterCount()).isEqualTo(n);
    }
}
