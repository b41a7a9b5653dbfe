package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;
import io.spinlab.impl.testing.TestThreads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SpinLock's slow paths on a {@link ScriptedPlatform}: the clock moves only when a scenario moves it,
 * and the lock is released, or the waiter interrupted, from inside a chosen platform call of the
 * waiter. In tracking mode the holder is a real thread that takes the lock and releases it when the
 * scenario opens its latch (only the owner may exit). What each scenario pins: a timed acquisition's
 * fast path keeps anonymous mode; a lock released before the waiter registers is taken without
 * registering; the give-up happens exactly at the deadline; an interrupt ends a timed wait (leaving
 * the waiter count as it was) and does not end an untimed one; a tracking-mode waiter reports the
 * acquisition it made after spinning.
 */
class SpinLockScriptedTest {
    private static final long START_NS = 1_000;

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);

    private SpinLock lock(boolean tracking) {
        return new SpinLock(platform.context("current"), tracking);
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** A holder thread for tracking mode: it takes the lock now and releases it when {@code release} opens. */
    private static Thread holder(TestThreads threads, SpinLock lock, CountDownLatch release)
            throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        Thread t = threads.start("holder", () -> {
            lock.enter();
            holding.countDown();
            release.await();
            lock.exit();
        });
        assertThat(holding.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        return t;
    }

    private static void await(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(TestThreads.JOIN_SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(thread.isAlive()).as("the holder released the lock").isFalse();
    }

    @Test
    void shouldTakeAFreeLockOnTheTimedFastPathAndStayAnonymous() throws InterruptedException {
        SpinLock lock = lock(false);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(lock).hasToString("SpinLock[anonymous, held]");
        assertThat(lock.waiterCount()).isZero();
        lock.exit();
        assertThat(lock).hasToString("SpinLock[anonymous, free]");
        assertThat(platform.calls()).isEmpty();
    }

    /** Released at the deadline's clock read, before the waiter registers: taken at registration, no spin. */
    @Test
    void shouldTakeALockReleasedBeforeItRegistersAsAWaiter() throws InterruptedException {
        SpinLock lock = lock(false);
        lock.enter();
        platform.atNext("clock", lock::exit);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(platform.calls()).containsExactly("clock");
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock).hasToString("SpinLock[anonymous, held]");
    }

    /** The first timeout check (the tenth iteration) finds exactly the timeout gone: the waiter gives up there. */
    @Test
    void shouldGiveUpExactlyAtTheDeadlineWhenAnonymous() throws InterruptedException {
        SpinLock lock = lock(false);
        lock.enter();
        platform.atNext("clock", () -> { }); // the start
        platform.atNext("clock", () -> platform.setNanos(START_NS + 5_000));

        assertThat(lock.tryEnter(5_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(10)", "clock");
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock).hasToString("SpinLock[anonymous, held]");
    }

    @Test
    void shouldGiveUpExactlyAtTheDeadlineWhenTracking() throws InterruptedException {
        SpinLock lock = lock(true);
        CountDownLatch release = new CountDownLatch(1);
        try (TestThreads threads = new TestThreads()) {
            Thread holder = holder(threads, lock, release);
            platform.atNext("clock", () -> { }); // the start
            platform.atNext("clock", () -> platform.setNanos(START_NS + 5_000));

            assertThat(lock.tryEnter(5_000, TimeUnit.NANOSECONDS)).isFalse();

            // Tracking looks at the clock only once the next spin would yield (after ten PAUSE iterations).
            assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(10)", "clock");
            assertThat(lock.isHeld()).isTrue();
            release.countDown();
            await(holder);
            threads.joinAll();
        }
    }

    /** Tracking mode, the holder releases during the waiter's spin: the waiter takes the lock and says so. */
    @Test
    void shouldReportTheAcquisitionMadeAfterSpinningWhenTracking() throws InterruptedException {
        SpinLock lock = lock(true);
        CountDownLatch release = new CountDownLatch(1);
        try (TestThreads threads = new TestThreads()) {
            Thread holder = holder(threads, lock, release);
            platform.atNext("pause(2)", () -> {
                release.countDown();
                await(holder);
            });

            assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(platform.calls()).containsExactly("clock", "pause(1)", "pause(2)");
            lock.exit();
            threads.joinAll();
        }
    }

    /**
     * An anonymous waiter interrupted during its timed wait throws at its next timeout check and takes
     * itself off the waiter count (before the fix, a waiter that threw stayed counted for good).
     */
    @Test
    void shouldThrowAndLeaveTheWaitersWhenInterruptedDuringATimedWaitWhenAnonymous() {
        SpinLock lock = lock(false);
        lock.enter();
        int[] waitersSeen = new int[1];
        platform.atNext("pause(1)", () -> {
            waitersSeen[0] = lock.waiterCount();
            Thread.currentThread().interrupt();
        });

        assertThatThrownBy(() -> lock.tryEnter(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);

        assertThat(waitersSeen[0]).isEqualTo(1);
        assertThat(lock.waiterCount()).isZero();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(10)");
        assertThat(lock).hasToString("SpinLock[anonymous, held]");
    }

    @Test
    void shouldThrowWhenInterruptedDuringATimedWaitWhenTracking() throws InterruptedException {
        SpinLock lock = lock(true);
        CountDownLatch release = new CountDownLatch(1);
        try (TestThreads threads = new TestThreads()) {
            Thread holder = holder(threads, lock, release);
            platform.atNext("pause(1)", () -> Thread.currentThread().interrupt());

            assertThatThrownBy(() -> lock.tryEnter(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);

            assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(10)");
            assertThat(lock.isHeldByCurrentThread()).isFalse();
            release.countDown();
            await(holder);
            threads.joinAll();
        }
    }

    /** enter() is not interruptible: an interrupt during its wait is kept, and the lock is taken once free. */
    @Test
    void shouldKeepTheInterruptAndTakeTheLockWhenEnterIsInterrupted() {
        SpinLock lock = lock(false);
        lock.enter();
        platform.atNext("pause(1)", () -> Thread.currentThread().interrupt());
        platform.at(25, lock::exit);

        lock.enter();

        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(platform.callCount()).isEqualTo(25);
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock).hasToString("SpinLock[anonymous, held]");
    }
}
