package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MonitorLock's interruptible entry, pulseAll's count and owner check, and toString. */
class MonitorLockQueriesTest {

    @Test
    void shouldEnterInterruptiblyAndReenterWhenNotInterrupted() throws InterruptedException {
        MonitorLock lock = new MonitorLock(SpinContext.hardware());

        lock.enterInterruptibly();
        lock.enterInterruptibly();

        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).as("still held once").isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void shouldRefuseAnInterruptedThreadEvenWhenTheLockIsFree() {
        MonitorLock lock = new MonitorLock(SpinContext.hardware());

        Thread.currentThread().interrupt();
        assertThatThrownBy(lock::enterInterruptibly).isInstanceOf(InterruptedException.class);

        assertThat(lock.isLocked()).isFalse();
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void shouldCountTheThreadsPulseAllWokeAndRefuseANonOwner() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        MonitorLock lock = new MonitorLock(platform.context(Tuning.current()));
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[2];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, () -> {
                    lock.enter();
                    try {
                        lock.await();
                    } finally {
                        lock.exit();
                    }
                });
                platform.awaitParked(waiters[i], 0);
            }
            assertThatThrownBy(lock::pulseAll).isInstanceOf(IllegalMonitorStateException.class);

            lock.enter();
            try {
                assertThat(lock.pulseAll()).isEqualTo(2);
                assertThat(lock.pulseAll()).isZero();
            } finally {
                lock.exit();
            }
            threads.joinAll();
        }
    }

    @Test
    void shouldShowPolicyOwnerAndCountsWhenPrinted() {
        MonitorLock lock = new MonitorLock(SpinContext.hardware());
        String policy = lock.policy().toString();
        assertThat(lock).hasToString("MonitorLock[" + policy + ", free, waiters=0, spinners=0]");

        lock.enter();

        assertThat(lock).hasToString("MonitorLock[" + policy + ", locked by " + Thread.currentThread()
                + ", waiters=0, spinners=0]");
        lock.exit();
    }
}
