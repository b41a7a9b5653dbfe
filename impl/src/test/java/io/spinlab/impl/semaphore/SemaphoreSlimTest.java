package io.spinlab.impl.semaphore;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.Tunings;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SemaphoreSlimTest {

    static Stream<Tuning> tunings() {
        return Tunings.all();
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void shouldNeverAdmitMoreThanThePermits(Tuning tuning) throws InterruptedException {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(tuning), 2);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        try (TestThreads threads = new TestThreads()) {
            for (int t = 0; t < 5; t++) {
                threads.start("worker-" + t, () -> {
                    for (int i = 0; i < 2_000; i++) {
                        semaphore.acquire();
                        try {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                        } finally {
                            semaphore.release();
                        }
                    }
                });
            }
            threads.joinAll();
        }
        assertThat(maxInside.get()).isBetween(1, 2);
        assertThat(semaphore.currentCount()).isEqualTo(2);
        assertThat(semaphore.waiterCount()).isZero();
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void shouldWakeOneBlockedWaiterPerReleasedPermit(Tuning tuning) throws InterruptedException {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(tuning), 0);
        int consumers = 4;
        int perConsumer = 500;
        try (TestThreads threads = new TestThreads()) {
            for (int c = 0; c < consumers; c++) {
                threads.start("consumer-" + c, () -> {
                    for (int i = 0; i < perConsumer; i++) {
                        assertThat(semaphore.tryAcquire(20, TimeUnit.SECONDS)).as("permit %d lost", i).isTrue();
                    }
                });
            }
            threads.start("producer", () -> {
                for (int i = 0; i < consumers * perConsumer; i++) {
                    semaphore.release();
                    if ((i & 7) == 0) {
                        Thread.yield();
                    }
                }
            });
            threads.joinAll();
        }
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void shouldReleaseSeveralBlockedWaitersAtOnce(Tuning tuning) throws InterruptedException {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(tuning), 0);
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[3];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, semaphore::acquire);
            }
            for (Thread waiter : waiters) {
                TestThreads.awaitBlocked(waiter);
            }
            assertThat(semaphore.waiterCount()).isEqualTo(3);
            assertThat(semaphore.release(3)).isZero();
            threads.joinAll();
        }
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldTimeOutWithoutAPermit() throws InterruptedException {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(Tuning.current()), 0);
        // Its duration is checked in virtual time (the simulator's TimedWaitsInVirtualTimeTest).
        assertThat(semaphore.tryAcquire(40, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(semaphore.tryAcquire(0, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(semaphore.waiterCount()).isZero();
    }

    @Test
    void shouldStopWaitingWhenInterrupted() throws InterruptedException {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(Tuning.current()), 0);
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> assertThatThrownBy(semaphore::acquire)
                    .isInstanceOf(InterruptedException.class));
            TestThreads.awaitBlocked(waiter);
            waiter.interrupt();
            threads.joinAll();
        }
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldRejectAReleaseBeyondTheMaximumAndKeepTheCount() {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(Tuning.current()), 1, 2);
        assertThat(semaphore.release()).isEqualTo(1);
        assertThatThrownBy(semaphore::release).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("above maxCount 2");
        assertThat(semaphore.currentCount()).isEqualTo(2);
        assertThatThrownBy(() -> semaphore.release(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("releaseCount = 0");
    }

    @Test
    void shouldRejectBadConstructionArguments() {
        SpinContext context = Tunings.hardware(Tuning.current());
        assertThatThrownBy(() -> new SemaphoreSlim(context, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initialCount = -1");
        assertThatThrownBy(() -> new SemaphoreSlim(context, 3, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initialCount = 3").hasMessageContaining("0..2");
        assertThatThrownBy(() -> new SemaphoreSlim(context, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxCount = 0");
    }

    @Test
    void shouldTakeAndReturnPermitsWithoutWaiting() {
        SemaphoreSlim semaphore = new SemaphoreSlim(Tunings.hardware(Tuning.current()), 2, 5);
        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.tryAcquire()).isFalse();
        assertThat(semaphore.release(5)).isZero();
        assertThat(semaphore.currentCount()).isEqualTo(5);
        assertThat(semaphore.maxCount()).isEqualTo(5);
    }
}
