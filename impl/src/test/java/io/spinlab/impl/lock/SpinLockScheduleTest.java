package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SpinLock's slow paths, call by call, on one thread and a recording platform: the lock is held
 * (anonymous mode has no owner, so the test thread holds it and releases it from a platform call
 * at a chosen point of its own wait), and the test reads what the waiter did, when it looked at
 * the clock, and what the state word says afterwards.
 */
class SpinLockScheduleTest {

    private static SpinContext context(RecordingPlatform platform, String tuning) {
        return SpinContext.of(platform, Tuning.parse(tuning), new FixedPauseNormalizer());
    }

    private static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    @Test
    void shouldSpinWaitUntilReleasedAndTakeItselfOffTheWaitersWhenAnonymous() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        platform.afterCalls(3, lock::exit);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)");
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.waiterCount()).isZero();
    }

    @Test
    void shouldCountItselfAsAWaiterWhileSpinningWhenAnonymous() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        int[] seen = new int[1];
        platform.afterCalls(1, () -> {
            seen[0] = lock.waiterCount();
            lock.exit(false);
        });

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(seen[0]).isEqualTo(1);
        assertThat(lock.waiterCount()).isZero();
    }

    @Test
    void shouldLookAtTheClockOnlyEveryTenthIterationAndLeaveTheWaitersWhenAnonymousTimesOut()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        platform.recordClockReads(true);

        // Ten iterations PAUSE 1+2+4+7x7 = 56 times (2,240 ns): past 2 us at the first check.
        assertThat(lock.tryEnter(2_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactly("clock", "pause(1)", "pause(2)", "pause(4)", "pause(7)",
                "pause(7)", "pause(7)", "pause(7)", "pause(7)", "pause(7)", "pause(7)", "clock");
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.isHeld()).isTrue();
    }

    /**
     * Two waiters, nested on one thread: the second joins inside the first one's first PAUSE and
     * times out; only its own registration leaves the count, the first waiter's stays.
     */
    @Test
    void shouldTakeOnlyItselfOffTheWaitersWhenOneOfTwoAnonymousWaitersTimesOut() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        int[] countAfterTimeout = {-1};
        boolean[] secondEntered = {true};
        platform.afterCalls(1, () -> {
            try {
                secondEntered[0] = lock.tryEnter(2_000, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            countAfterTimeout[0] = lock.waiterCount();
            lock.exit();
        });

        assertThat(lock.tryEnter(1, TimeUnit.HOURS)).isTrue();

        assertThat(secondEntered[0]).isFalse();
        assertThat(countAfterTimeout[0]).as("the first waiter still counted after the second timed out").isEqualTo(1);
        assertThat(lock.waiterCount()).isZero();
    }

    @Test
    void shouldSleepOneMillisecondFromTheFortiethIterationWhenAnonymous() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        platform.afterCalls(41, lock::exit);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        List<String> calls = calls(platform);
        assertThat(calls).hasSize(41);
        assertThat(calls.subList(0, 40)).doesNotContain("sleep(1000000)");
        assertThat(calls.get(40)).isEqualTo("sleep(1000000)");
    }

    /**
     * A waiter whose turn equals the processor count (turn 1 on one processor) starts its SpinWait from
     * zero like any other; only a turn beyond the count starts at the yield threshold, which would bring
     * the first Sleep(1) ten iterations early.
     */
    @Test
    void shouldStartFromZeroWhenTheTurnEqualsTheProcessorCountWhenAnonymous() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        platform.afterCalls(41, lock::exit);

        assertThat(lock.tryEnter(1, TimeUnit.HOURS)).isTrue();

        List<String> calls = calls(platform);
        assertThat(calls).hasSize(41);
        assertThat(calls.subList(0, 40)).doesNotContain("sleep(1000000)");
        assertThat(calls.get(40)).isEqualTo("sleep(1000000)");
    }

    /**
     * A second waiter on one processor (turn 2, beyond the count) starts its SpinWait at the yield
     * threshold: its first Sleep(1) is its 31st call, where a waiter starting from zero would still
     * be yielding. Anonymous mode has no owner, so the same thread can play both waiters: the
     * second one joins from inside the first one's first PAUSE.
     */
    @Test
    void shouldStartAtTheYieldThresholdWhenTheTurnIsBeyondTheProcessorCountWhenAnonymous()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        lock.enter();
        int[] secondTurn = new int[1];
        boolean[] secondEntered = new boolean[1];
        platform.afterCalls(1, () -> {
            platform.afterCalls(1 + 31, lock::exit);
            try {
                secondEntered[0] = lock.tryEnter(1, TimeUnit.HOURS);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            secondTurn[0] = lock.waiterCount();
            lock.exit();
        });

        assertThat(lock.tryEnter(1, TimeUnit.HOURS)).isTrue();

        assertThat(secondEntered[0]).isTrue();
        assertThat(secondTurn[0]).as("the first waiter still counted while the second held the lock").isEqualTo(1);
        List<String> second = calls(platform).subList(1, 32);
        assertThat(second.subList(0, 30)).doesNotContain("sleep(1000000)");
        assertThat(second.get(30)).isEqualTo("sleep(1000000)");
        assertThat(lock.waiterCount()).isZero();
    }

    @Test
    void shouldSpinTurnPlusIHundredTimesTheGrowingProcessFactorWhenSpinningFactor() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(3, 1, 20);
        SpinLock lock = new SpinLock(context(platform, "legacy"), false);
        lock.enter();
        platform.afterCalls(4, lock::exit);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        // turn 1: (1 + i) x 100 x processFactor, the factor growing 1, 2, 3 and stopping at 3 processors.
        assertThat(calls(platform)).containsExactly("pause(200)", "pause(600)", "pause(1200)", "pause(1500)");
        assertThat(lock.waiterCount()).isZero();
    }

    @Test
    void shouldYieldWithSleepsAndCheckTheClockEveryTenthWhenSpinningFactorHasNoSpinTurn()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 1, 20);
        SpinLock lock = new SpinLock(context(platform, "legacy"), false);
        lock.enter();
        platform.afterCalls(14, lock::exit);
        platform.recordClockReads(true);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        // On one processor the turn (1) is not below the processor count: straight to the yield loop.
        assertThat(calls(platform)).containsExactly("clock", "clock", "sleep(1000000)", "clock", "yield", "yield",
                "yield", "yield", "yield", "yield", "yield", "yield", "yield", "sleep(0)", "clock");
        assertThat(lock.waiterCount()).isZero();
    }

    /**
     * The timeout passes during the staged spin: the waiter gives up right after its last stage (turn 1:
     * exactly 100 stages), before any yield.
     */
    @Test
    void shouldGiveUpAfterTheLastStageWhenTheTimeoutPassedDuringTheStagedSpin() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(3, 1, 20);
        SpinLock lock = new SpinLock(context(platform, "legacy"), false);
        lock.enter();

        assertThat(lock.tryEnter(1_000, TimeUnit.NANOSECONDS)).isFalse();

        List<String> calls = calls(platform);
        assertThat(calls).hasSize(100).allMatch(call -> call.startsWith("pause("));
        assertThat(calls.get(99)).isEqualTo("pause(" + (1 + 100) * 100 * 3 + ")");
        assertThat(lock.waiterCount()).isZero();
    }

    /**
     * Under a normalized PAUSE the staged spin gives the normalizer one chance to re-measure before it
     * starts (the shipped spinning-factor generations PAUSE raw, where that chance does nothing).
     */
    @Test
    void shouldLetTheNormalizerRefreshOnceBeforeTheStagedSpinWhenNormalized() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(3, 1, 20);
        FixedPauseNormalizer counting = new FixedPauseNormalizer();
        SpinLock lock = new SpinLock(SpinContext.of(platform, Tuning.parse("current,spinlock=spinning-factor"),
                counting), false);
        lock.enter();
        platform.afterCalls(1, () -> {
            assertThat(counting.refreshes()).as("refreshed before the first stage").isOne();
            lock.exit();
        });

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(counting.refreshes()).isOne();
        assertThat(platform.calls()).hasSize(1);
    }

    /** The yield loop sleeps 1 ms every 40th yield and 0 ms every other 10th, and yields otherwise. */
    @Test
    void shouldSleepOneMillisecondEveryFortiethYieldWhenSpinningFactorYields() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 1, 20);
        SpinLock lock = new SpinLock(context(platform, "legacy"), false);
        lock.enter();
        platform.afterCalls(42, lock::exit);

        assertThat(lock.tryEnter(1, TimeUnit.HOURS)).isTrue();

        List<String> calls = calls(platform);
        assertThat(calls).hasSize(42);
        for (int i = 0; i < 42; i++) {
            String expected = i % 40 == 0 ? "sleep(1000000)" : i % 10 == 0 ? "sleep(0)" : "yield";
            assertThat(calls.get(i)).as("yield-loop turn " + i).isEqualTo(expected);
        }
    }

    @Test
    void shouldGiveUpAtTheFirstCheckAfterTheTimeoutWhenSpinningFactorYields() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 1, 20);
        SpinLock lock = new SpinLock(context(platform, "legacy"), false);
        lock.enter();

        assertThat(lock.tryEnter(500_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactly("sleep(1000000)");
        assertThat(lock.waiterCount()).isZero();
    }

    @Test
    void shouldCheckTheClockFromTheFirstYieldingIterationWhenTrackingTimesOut() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), true);
        Thread holder = Thread.ofPlatform().name("holder").start(lock::enter);
        holder.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(holder.isAlive()).isFalse();
        platform.recordClockReads(true);

        assertThat(lock.tryEnter(2_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactly("clock", "pause(1)", "pause(2)", "pause(4)", "pause(7)",
                "pause(7)", "pause(7)", "pause(7)", "pause(7)", "pause(7)", "pause(7)", "clock");
        assertThat(lock.isHeld()).isTrue();
    }

    @Test
    void shouldKeepSpinningPastTheTimeoutUntilTheYieldPhaseWhenTracking() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), true);
        Thread holder = Thread.ofPlatform().name("holder").start(lock::enter);
        holder.join(TimeUnit.SECONDS.toMillis(60));
        platform.recordClockReads(true);

        // 1 ns is gone after the first PAUSE, but the clock is read only once yielding is next.
        assertThat(lock.tryEnter(1, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).hasSize(12).endsWith("pause(7)", "clock");
    }

    @Test
    void shouldRejectExitWhenAnonymousAndFree() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);

        assertThatThrownBy(lock::exit).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(() -> lock.exit(false)).isInstanceOf(IllegalMonitorStateException.class);
        lock.enter();
        lock.exit(false);
        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.tryEnter()).isTrue();
        assertThat(lock.tryEnter()).isFalse();
    }

    @Test
    void shouldKnowItsOwnerAndRefuseRecursionWhenTracking() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), true);
        platform.recordClockReads(true);

        assertThat(lock.isThreadOwnerTrackingEnabled()).isTrue();
        assertThat(lock).hasToString("SpinLock[tracking, free]");
        assertThat(lock.tryEnter()).isTrue();
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock).hasToString("SpinLock[tracking, held]");
        assertThatThrownBy(lock::tryEnter).isInstanceOf(IllegalStateException.class).hasMessageContaining("reentrant");
        assertThatThrownBy(() -> lock.tryEnter(1, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(lock::enter).isInstanceOf(IllegalStateException.class);
        lock.exit();
        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock.tryEnter(0, TimeUnit.SECONDS)).isTrue();
        lock.exit();
        assertThat(platform.calls()).isEmpty();
    }

    /** exit(false) in tracking mode is a release store of the owner (.NET's path without the barrier): it frees the lock too. */
    @Test
    void shouldFreeTheLockForAnotherThreadOnAnExitWithoutTheBarrierWhenTracking() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), true);
        platform.recordClockReads(true);

        lock.enter();
        lock.exit(false);

        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock).hasToString("SpinLock[tracking, free]");
        AtomicBoolean enteredElsewhere = new AtomicBoolean();
        Thread other = Thread.ofPlatform().name("other").start(() -> enteredElsewhere.set(lock.tryEnter()));
        other.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(other.isAlive()).isFalse();
        assertThat(enteredElsewhere).isTrue();
        assertThat(lock.isHeld()).isTrue();
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldFailATryEnterAtOnceWhenTrackingAndHeldElsewhere() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), true);
        Thread holder = Thread.ofPlatform().name("holder").start(lock::enter);
        holder.join(TimeUnit.SECONDS.toMillis(60));

        assertThat(lock.tryEnter()).isFalse();
        assertThat(lock.tryEnter(0, TimeUnit.SECONDS)).isFalse();
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock::exit).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldNotKnowItsOwnerWhenAnonymous() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinLock lock = new SpinLock(context(platform, "current"), false);
        platform.recordClockReads(true);

        assertThat(lock.isThreadOwnerTrackingEnabled()).isFalse();
        assertThatThrownBy(lock::isHeldByCurrentThread).isInstanceOf(IllegalStateException.class);
        assertThat(lock.tryEnter(0, TimeUnit.SECONDS)).isTrue();
        assertThat(lock).hasToString("SpinLock[anonymous, held]");
        assertThat(lock.tryEnter(0, TimeUnit.SECONDS)).isFalse();
        assertThat(lock.waiterCount()).isZero();
        lock.exit();
        assertThat(lock).hasToString("SpinLock[anonymous, free]");
        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> lock.tryEnter(-1, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThat(platform.calls()).isEmpty();
    }
}
