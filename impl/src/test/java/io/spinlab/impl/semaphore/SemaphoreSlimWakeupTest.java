package io.spinlab.impl.semaphore;

import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which blocked waiters one release pulses: the unparks the releasing thread issues
 * ({@link WaitWatchingPlatform#unparkedBy}). The lock's exit may unpark a woken waiter again
 * (it re-contends for the lock), so the test pins the set of threads unparked, not the count.
 */
class SemaphoreSlimWakeupTest {

    static void join(Thread thread) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(TestThreads.JOIN_SECONDS));
        assertThat(thread.isAlive()).as(thread.getName() + " still waiting").isFalse();
    }

    @Test
    void shouldPulseOneWaiterPerPermitLongestWaitingFirst() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        SemaphoreSlim semaphore = new SemaphoreSlim(platform.context(Tuning.current()), 0);
        Thread self = Thread.currentThread();
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[3];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, semaphore::acquire);
                platform.awaitParked(waiters[i], 0);
            }
            assertThat(semaphore.waiterCount()).isEqualTo(3);

            assertThat(semaphore.release(2)).isZero();

            assertThat(platform.unparkedBy(self)).as("two permits wake the two longest waiting")
                    .containsOnly(waiters[0], waiters[1]);
            join(waiters[0]);
            join(waiters[1]);
            assertThat(semaphore).hasToString("SemaphoreSlim[count=0, max=2147483647, waiters=1]");
            platform.awaitParked(waiters[2], 0);

            assertThat(semaphore.release(1)).isZero();

            assertThat(platform.unparkedBy(self)).containsOnly(waiters[0], waiters[1], waiters[2]);
            threads.joinAll();
        }
        assertThat(semaphore).hasToString("SemaphoreSlim[count=0, max=2147483647, waiters=0]");
    }

    @Test
    void shouldPulseEveryWaiterAndKeepTheRestOfThePermitsWhenReleasingMore() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        SemaphoreSlim semaphore = new SemaphoreSlim(platform.context(Tuning.current()), 0);
        Thread self = Thread.currentThread();
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[2];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, semaphore::acquire);
                platform.awaitParked(waiters[i], 0);
            }

            assertThat(semaphore.release(5)).isZero();

            assertThat(platform.unparkedBy(self)).containsOnly(waiters[0], waiters[1]);
            threads.joinAll();
        }
        assertThat(semaphore.currentCount()).isEqualTo(3);
    }
}
