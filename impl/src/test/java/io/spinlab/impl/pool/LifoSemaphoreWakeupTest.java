package io.spinlab.impl.pool;

import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How many blocked waiters one release wakes, and which: counted as the unparks the releasing
 * thread issues ({@link WaitWatchingPlatform#unparkedBy}), with every waiter parked before the
 * release (no spinners, so every signal needs a woken waiter).
 */
class LifoSemaphoreWakeupTest {

    static void join(Thread thread) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(TestThreads.JOIN_SECONDS));
        assertThat(thread.isAlive()).as(thread.getName() + " still waiting").isFalse();
    }

    @Test
    void shouldWakeOneBlockedWaiterPerSignalNewestFirst() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LifoSemaphore semaphore = new LifoSemaphore(platform.context(Tuning.current()), 0, 100, 0);
        Thread self = Thread.currentThread();
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[3];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, () -> assertThat(semaphore.await(-1, false)).isTrue());
                platform.awaitParked(waiters[i], 0);
            }
            assertThat(semaphore).hasToString("LifoSemaphore[signals=0, waiters=3, spinners=0, signaledToWake=0]");

            semaphore.release(2);

            assertThat(platform.unparkedBy(self)).as("two signals wake the two newest waiters")
                    .containsExactlyInAnyOrder(waiters[1], waiters[2]);
            join(waiters[1]);
            join(waiters[2]);
            assertThat(semaphore).hasToString("LifoSemaphore[signals=0, waiters=1, spinners=0, signaledToWake=0]");
            platform.awaitParked(waiters[0], 0);

            semaphore.release(1);

            assertThat(platform.unparkedBy(self)).containsExactlyInAnyOrder(waiters[0], waiters[1], waiters[2]);
            threads.joinAll();
        }
        assertThat(semaphore).hasToString("LifoSemaphore[signals=0, waiters=0, spinners=0, signaledToWake=0]");
    }

    @Test
    void shouldWakeEveryWaiterAndKeepTheRestOfTheSignalsWhenReleasingMore() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LifoSemaphore semaphore = new LifoSemaphore(platform.context(Tuning.current()), 0, 100, 0);
        Thread self = Thread.currentThread();
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[2];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, () -> assertThat(semaphore.await(-1, false)).isTrue());
                platform.awaitParked(waiters[i], 0);
            }

            semaphore.release(5);

            assertThat(platform.unparkedBy(self)).containsExactlyInAnyOrder(waiters[0], waiters[1]);
            threads.joinAll();
        }
        assertThat(semaphore.signalCount()).isEqualTo(3);
        assertThat(semaphore).hasToString("LifoSemaphore[signals=3, waiters=0, spinners=0, signaledToWake=0]");
    }
}
