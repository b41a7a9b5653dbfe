package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.spinlab.impl.lock.ConvoyAwareLock.WAITER_ONE;
import static io.spinlab.impl.lock.EntryProtocolScripts.enqueueGhost;
import static io.spinlab.impl.lock.EntryProtocolScripts.queued;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The 2017 convoy lock on a {@link ScriptedPlatform}: its spin while a thread waits (nobody may take
 * the lock then, and a long delay switches between its chunks), a deadline that passes in the second
 * spin phase, the handoff to the first waiter, and a handoff that races with the waiter's timeout or
 * interrupt (the test holds the queue's guard from the waiter's wake-up until its first back-off on
 * the guard, and releases the lock there).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConvoyAwareLockScriptedTest {
    private static final long NO_DEADLINE = EntryProtocol.NO_DEADLINE;
    private static final long START_NS = 7_000_000;
    private static final int LOCKED = EntryProtocol.LOCKED;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** The first spin's delays on 2 processors (at most 40,000 PAUSEs): 50, 150, … 36,450. */
    private static final List<Integer> FIRST_DELAYS = List.of(50, 150, 450, 1_350, 4_050, 12_150, 36_450);

    /**
     * One round of AwareLock::Contention on 2 processors while a thread waits: each delay one PAUSE
     * short, 36,450 in chunks of 20,000 and 16,450 with a switch between them, the round's switch.
     */
    private static List<String> contentionRoundWhileWaited() {
        return List.of("pause(49)", "pause(149)", "pause(449)", "pause(1349)", "pause(4049)", "pause(12149)",
                "pause(19999)", "yield", "pause(16449)", "yield");
    }

    @Test
    void shouldSpinTheWholeScheduleWithoutTakingTheLockAndThenQueueBehindTheWaiterWhileAThreadWaits()
            throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(2, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        enqueueGhost(lock, WAITER_ONE, "ghost");
        List<String> expected = new ArrayList<>();
        FIRST_DELAYS.forEach(d -> expected.add("pause(" + d + ")"));
        for (int round = 0; round < ConvoyAwareLock.REPETITIONS; round++) {
            expected.addAll(contentionRoundWhileWaited());
        }
        expected.add("park");
        platform.at(expected.size(), () -> {
            assertThat(queued(lock)).containsExactly("ghost", "me");
            assertThat(lock.state).isEqualTo(2 * WAITER_ONE | LOCKED);
            lock.release();
            assertThat(lock.state).as("handed to the ghost").isEqualTo(WAITER_ONE | LOCKED);
            assertThat(queued(lock)).containsExactly("me");
            lock.release();
        });
        expected.add("unpark(ghost)");
        expected.add("unpark(me)");

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(expected);
        assertThat(expected).hasSize(7 + 10 * 10 + 3);
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldHandTheLockToTheWaiterAndNotTheSpinnerWhenReleasedDuringTheSpin() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(2, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        enqueueGhost(lock, WAITER_ONE, "ghost");
        platform.at(3, () -> {
            lock.release();
            assertThat(lock.state).isEqualTo(LOCKED);
            assertThat(queued(lock)).isEmpty();
        });
        platform.at(5, lock::release);

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactly("pause(50)", "pause(150)", "pause(450)", "unpark(ghost)",
                "pause(1350)");
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldSwitchAndGiveUpWhenTheDeadlinePassesInTheSecondSpinPhase() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(2, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        long deadline = START_NS + 1_000;
        List<String> expected = new ArrayList<>();
        FIRST_DELAYS.forEach(d -> {
            expected.add("pause(" + d + ")");
            expected.add("clock");
        });
        expected.addAll(List.of("clock", "pause(49)", "clock", "pause(149)", "clock"));
        platform.at(expected.size(), () -> platform.setNanos(deadline));
        expected.addAll(List.of("yield", "clock"));

        assertThat(lock.acquire(deadline, false)).isFalse();

        assertThat(platform.calls()).containsExactlyElementsOf(expected);
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldOwnTheLockWhenTheHandoffCameAfterTheTimeout() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(4, lock.queue::lockGuard);
        platform.at(5, () -> {
            lock.queue.unlockGuard();
            lock.release();
        });

        assertThat(lock.acquire(START_NS + 1_000, false)).isTrue();

        assertThat(platform.calls()).containsExactly("yield", "clock", "parkNanos(1000)", "clock", "pause(1)",
                "unpark(me)");
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldOwnTheLockAndReassertTheInterruptWhenTheHandoffCameAfterTheInterrupt() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(2, () -> {
            Thread.currentThread().interrupt();
            lock.queue.lockGuard();
        });
        platform.at(3, () -> {
            lock.queue.unlockGuard();
            lock.release();
        });

        assertThat(lock.acquire(NO_DEADLINE, true)).isTrue();

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.calls()).containsExactly("yield", "park", "pause(1)", "unpark(me)");
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldLeaveTheQueueAndThrowWhenInterruptedBeforeTheHandoff() {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        enqueueGhost(lock, WAITER_ONE, "ghost");
        platform.at(2, () -> Thread.currentThread().interrupt());

        assertThatThrownBy(() -> lock.acquire(NO_DEADLINE, true)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(platform.calls()).containsExactly("yield", "park");
        assertThat(lock.state).isEqualTo(WAITER_ONE | LOCKED);
        assertThat(queued(lock)).containsExactly("ghost");
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldLeaveTheQueueAndReturnFalseWhenTheDeadlinePassesBeforeTheHandoff() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();

        assertThat(lock.acquire(START_NS + 1_000, false)).isFalse();

        assertThat(platform.calls()).containsExactly("yield", "clock", "parkNanos(1000)", "clock");
        assertThat(lock.state).isEqualTo(LOCKED);
        lock.release();
        assertThat(lock.state).isZero();
        assertThat(platform.calls()).hasSize(4);
    }

    @Test
    void shouldTakeTheLockInsteadOfQueueingWhenReleasedAtTheSpinsLastSwitch() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(1, lock::release);

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactly("yield");
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    /** A release that finds the last waiter gone once it holds the guard frees the lock instead of handing it over. */
    @Test
    void shouldFreeTheLockWhenTheLastWaiterLeftWhileTheReleaserWaitedForTheGuard() {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock lock = new ConvoyAwareLock(platform.context("current,monitor=convoy"), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        WaitQueue.Waiter ghost = enqueueGhost(lock, WAITER_ONE, "ghost");
        lock.queue.lockGuard();
        platform.at(1, () -> {
            assertThat(lock.queue.remove(ghost)).isTrue();
            EntryProtocol.STATE.getAndAdd(lock, -WAITER_ONE);
            lock.queue.unlockGuard();
        });

        lock.release();

        assertThat(platform.calls()).containsExactly("pause(1)");
        assertThat(lock.state).isZero();
        assertThat(ghost.signaled()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    // ---------------------------------------------------------------- written after the fourth measurement

    /** The contended path entered with the lock already free: one processor tries at once, two PAUSE first. */
    @Test
    void shouldTakeAFreeLockAtTheFirstTryOfTheSpin() throws Exception {
        ScriptedPlatform single = new ScriptedPlatform(1, START_NS);
        ConvoyAwareLock one = new ConvoyAwareLock(single.context("current,monitor=convoy"), this);
        ScriptedPlatform dual = new ScriptedPlatform(2, START_NS);
        ConvoyAwareLock two = new ConvoyAwareLock(dual.context("current,monitor=convoy"), this);

        assertThat(one.acquire(NO_DEADLINE, false)).isTrue();
        assertThat(two.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(single.calls()).isEmpty();
        assertThat(dual.calls()).containsExactly("pause(50)");
        assertThat(one.state).isEqualTo(LOCKED);
        assertThat(two.state).isEqualTo(LOCKED);
    }
}
