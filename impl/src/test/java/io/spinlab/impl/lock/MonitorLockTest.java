package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.Tunings;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.MonitorPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MonitorLock beyond the lock contract: reentrancy, the condition queue, each Monitor algorithm. */
class MonitorLockTest {

    private static MonitorLock lock(MonitorPolicy policy) {
        Tuning tuning = Tuning.current().with(Knob.MONITOR, policy);
        SpinContext context = Tunings.hardware(tuning);
        MonitorLock lock = new MonitorLock(context);
        assertThat(lock.policy()).isEqualTo(policy);
        return lock;
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void shouldBeReentrant(MonitorPolicy policy) {
        MonitorLock lock = lock(policy);
        lock.enter();
        lock.enter();
        assertThat(lock.tryEnter()).isTrue();
        lock.exit();
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock.isLocked()).isFalse();
        assertThatThrownBy(lock::exit).isInstanceOf(IllegalMonitorStateException.class);
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void shouldWakeConditionWaitersInArrivalOrder(MonitorPolicy policy) throws InterruptedException {
        MonitorLock lock = lock(policy);
        List<Integer> woken = Collections.synchronizedList(new ArrayList<>());
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[3];
            for (int i = 0; i < waiters.length; i++) {
                int id = i;
                waiters[i] = threads.start("waiter-" + i, () -> {
                    lock.enter();
                    try {
                        lock.await();
                        woken.add(id);
                    } finally {
                        lock.exit();
                    }
                });
                TestThreads.awaitBlocked(waiters[i]);
            }
            for (int i = 0; i < waiters.length; i++) {
                lock.enter();
                try {
                    assertThat(lock.pulse()).isTrue();
                } finally {
                    lock.exit();
                }
                waiters[i].join(TimeUnit.SECONDS.toMillis(TestThreads.JOIN_SECONDS));
            }
            threads.joinAll();
        }
        assertThat(woken).containsExactly(0, 1, 2);
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void shouldRestoreRecursionAfterAwait(MonitorPolicy policy) throws InterruptedException {
        MonitorLock lock = lock(policy);
        lock.enter();
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            threads.start("pulser", () -> {
                lock.enter();
                try {
                    lock.pulseAll();
                } finally {
                    lock.exit();
                }
            });
            boolean pulsed = false;
            while (!pulsed) {
                pulsed = lock.await(10, TimeUnit.MILLISECONDS);
            }
            threads.joinAll();
        }
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void shouldReturnFalseWhenAwaitTimesOut(MonitorPolicy policy) throws InterruptedException {
        MonitorLock lock = lock(policy);
        lock.enter();
        try {
            // Its duration is checked in virtual time (the simulator's TimedWaitsInVirtualTimeTest).
            assertThat(lock.await(30, TimeUnit.MILLISECONDS)).isFalse();
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(lock.pulse()).as("the timed-out waiter left the condition queue").isFalse();
        } finally {
            lock.exit();
        }
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void shouldThrowFromAwaitWhenInterruptedHoldingTheLockAgain(MonitorPolicy policy) throws InterruptedException {
        MonitorLock lock = lock(policy);
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> {
                lock.enter();
                try {
                    assertThatThrownBy(lock::await).isInstanceOf(InterruptedException.class);
                    assertThat(lock.isHeldByCurrentThread()).isTrue();
                } finally {
                    lock.exit();
                }
            });
            TestThreads.awaitBlocked(waiter);
            waiter.interrupt();
            threads.joinAll();
        }
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void shouldRequireOwnershipForConditionOperations() {
        MonitorLock lock = lock(MonitorPolicy.BARGING);
        assertThatThrownBy(lock::pulse).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("pulse");
        assertThatThrownBy(lock::pulseAll).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(lock::await).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("await");
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void shouldCountBlockedWaitersAndDrainThem(MonitorPolicy policy) throws InterruptedException {
        MonitorLock lock = lock(policy);
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[3];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, () -> {
                    lock.enter();
                    lock.exit();
                });
            }
            for (Thread waiter : waiters) {
                TestThreads.awaitBlocked(waiter);
            }
            assertThat(lock.waiterCount()).isEqualTo(3);
            lock.exit();
            threads.joinAll();
        }
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.spinnerCount()).isZero();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void convoyShouldHandOwnershipStraightToTheFirstWaiter() throws InterruptedException {
        MonitorLock lock = lock(MonitorPolicy.CONVOY);
        java.util.concurrent.CountDownLatch mayLeave = new java.util.concurrent.CountDownLatch(1);
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> {
                lock.enter();
                try {
                    mayLeave.await();
                } finally {
                    lock.exit();
                }
            });
            TestThreads.awaitBlocked(waiter);
            lock.exit();
            // The lock never became free: it passed to the waiter, so nobody can barge in.
            assertThat(lock.isLocked()).isTrue();
            assertThat(lock.tryEnter()).isFalse();
            mayLeave.countDown();
            threads.joinAll();
        }
        assertThat(lock.tryEnter()).isTrue();
        lock.exit();
    }
}
