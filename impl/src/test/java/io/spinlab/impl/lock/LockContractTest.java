package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.Tunings;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every spinlab mutual-exclusion lock promises, whatever its mode or tuning. One subclass
 * per implementation and heuristic (the JSR-166 TCK pattern).
 *
 * <p>Real threads, so nothing here asserts time: that a timed enter gives up after exactly its
 * timeout is checked in virtual time by the simulator's tests. Threads are ordered by what they
 * were seen doing through the platform ({@link WaitWatchingPlatform}), never by sleeping.
 */
abstract class LockContractTest {

    /** The lock surface the contract needs. */
    interface LockUnderTest {
        void enter();

        boolean tryEnter();

        boolean tryEnter(long timeout, TimeUnit unit) throws InterruptedException;

        void exit();

        boolean isHeld();

        /** Whether exit by a thread that does not hold the lock is detected. */
        boolean tracksOwner();
    }

    protected abstract LockUnderTest newLock(SpinContext context);

    protected abstract Tuning tuning();

    private LockUnderTest newLock() {
        return newLock(Tunings.hardware(tuning()));
    }

    @Test
    void shouldExcludeEachOtherWhenContended() throws InterruptedException {
        LockUnderTest lock = newLock();
        int threadsCount = 4;
        int iterations = 20_000;
        long[] counter = {0};
        AtomicBoolean inside = new AtomicBoolean();
        try (TestThreads threads = new TestThreads()) {
            for (int t = 0; t < threadsCount; t++) {
                threads.start("contender-" + t, () -> {
                    for (int i = 0; i < iterations; i++) {
                        lock.enter();
                        try {
                            assertThat(inside.getAndSet(true)).as("two threads inside").isFalse();
                            counter[0]++; // a plain increment: only mutual exclusion makes it exact
                            inside.set(false);
                        } finally {
                            lock.exit();
                        }
                    }
                });
            }
            threads.joinAll();
        }
        assertThat(counter[0]).isEqualTo((long) threadsCount * iterations);
        assertThat(lock.isHeld()).isFalse();
    }

    @Test
    void shouldFailTryEnterWhileHeldElsewhere() throws InterruptedException {
        LockUnderTest lock = newLock();
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            threads.start("other", () -> {
                assertThat(lock.tryEnter()).isFalse();
                assertThat(lock.tryEnter(30, TimeUnit.MILLISECONDS)).isFalse();
                assertThat(lock.tryEnter(0, TimeUnit.MILLISECONDS)).isFalse();
            });
            threads.joinAll();
        } finally {
            lock.exit();
        }
        assertThat(lock.tryEnter()).isTrue();
        lock.exit();
    }

    @Test
    void shouldHandOverToATimedWaiter() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LockUnderTest lock = newLock(platform.context(tuning()));
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> {
                assertThat(lock.tryEnter(30, TimeUnit.SECONDS)).isTrue();
                lock.exit();
            });
            platform.awaitWaiting(waiter); // it found the lock held and waits for it
            assertThat(waiter.isAlive()).isTrue();
            lock.exit();
            threads.joinAll();
        }
        assertThat(lock.isHeld()).isFalse();
    }

    @Test
    void shouldStopATimedEnterWhenInterrupted() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        LockUnderTest lock = newLock(platform.context(tuning()));
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> assertThatThrownBy(() -> lock.tryEnter(60, TimeUnit.SECONDS))
                    .isInstanceOf(InterruptedException.class));
            platform.awaitWaiting(waiter);
            waiter.interrupt();
            threads.joinAll();
        } finally {
            lock.exit();
        }
        assertThat(lock.tryEnter()).isTrue();
        lock.exit();
    }

    @Test
    void shouldRejectExitByANonOwner() throws InterruptedException {
        LockUnderTest lock = newLock();
        if (!lock.tracksOwner()) {
            assertThatThrownBy(lock::exit).isInstanceOf(IllegalMonitorStateException.class)
                    .hasMessageContaining("not held");
            return;
        }
        assertThatThrownBy(lock::exit).isInstanceOf(IllegalMonitorStateException.class);
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            threads.start("intruder", () -> assertThatThrownBy(lock::exit)
                    .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("intruder"));
            threads.joinAll();
        } finally {
            lock.exit();
        }
    }

    @Test
    void shouldRejectANegativeTimeout() {
        LockUnderTest lock = newLock();
        assertThatThrownBy(() -> lock.tryEnter(-1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    static LockUnderTest spinLock(SpinLock lock) {
        return new LockUnderTest() {
            @Override
            public void enter() {
                lock.enter();
            }

            @Override
            public boolean tryEnter() {
                return lock.tryEnter();
            }

            @Override
            public boolean tryEnter(long timeout, TimeUnit unit) throws InterruptedException {
                return lock.tryEnter(timeout, unit);
            }

            @Override
            public void exit() {
                lock.exit();
            }

            @Override
            public boolean isHeld() {
                return lock.isHeld();
            }

            @Override
            public boolean tracksOwner() {
                return lock.isThreadOwnerTrackingEnabled();
            }
        };
    }

    static LockUnderTest monitorLock(MonitorLock lock) {
        return new LockUnderTest() {
            @Override
            public void enter() {
                lock.enter();
            }

            @Override
            public boolean tryEnter() {
                return lock.tryEnter();
            }

            @Override
            public boolean tryEnter(long timeout, TimeUnit unit) throws InterruptedException {
                return lock.tryEnter(timeout, unit);
            }

            @Override
            public void exit() {
                lock.exit();
            }

            @Override
            public boolean isHeld() {
                return lock.isLocked();
            }

            @Override
            public boolean tracksOwner() {
                return true;
            }
        };
    }

    static final class AnonymousSpinLockCurrentTest extends LockContractTest {
        @Override
        protected LockUnderTest newLock(SpinContext context) {
            return spinLock(new SpinLock(context, false));
        }

        @Override
        protected Tuning tuning() {
            return Tuning.current();
        }
    }

    static final class AnonymousSpinLockLegacyTest extends LockContractTest {
        @Override
        protected LockUnderTest newLock(SpinContext context) {
            return spinLock(new SpinLock(context, false));
        }

        @Override
        protected Tuning tuning() {
            return Tuning.legacy();
        }
    }

    static final class TrackingSpinLockTest extends LockContractTest {
        @Override
        protected LockUnderTest newLock(SpinContext context) {
            return spinLock(new SpinLock(context, true));
        }

        @Override
        protected Tuning tuning() {
            return Tuning.current();
        }
    }

    static final class BargingMonitorLockTest extends LockContractTest {
        @Override
        protected LockUnderTest newLock(SpinContext context) {
            return monitorLock(new MonitorLock(context));
        }

        @Override
        protected Tuning tuning() {
            return Tuning.current();
        }
    }

    static final class ConvoyMonitorLockTest extends LockContractTest {
        @Override
        protected LockUnderTest newLock(SpinContext context) {
            return monitorLock(new MonitorLock(context));
        }

        @Override
        protected Tuning tuning() {
            return Tuning.legacy();
        }
    }
}
