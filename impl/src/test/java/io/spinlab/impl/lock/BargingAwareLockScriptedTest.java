package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.spinlab.impl.lock.BargingAwareLock.LOCKED;
import static io.spinlab.impl.lock.BargingAwareLock.SHOULD_NOT_PREEMPT_WAITERS;
import static io.spinlab.impl.lock.BargingAwareLock.SPINNER_ONE;
import static io.spinlab.impl.lock.BargingAwareLock.WAITER_ONE;
import static io.spinlab.impl.lock.BargingAwareLock.WAITER_SIGNALED;
import static io.spinlab.impl.lock.EntryProtocolScripts.backoff;
import static io.spinlab.impl.lock.EntryProtocolScripts.enqueueGhost;
import static io.spinlab.impl.lock.EntryProtocolScripts.queued;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The barging lock's woken waiter, spinners and starvation guard on a {@link ScriptedPlatform}:
 * the test thread is the waiter (or spinner) under test, and plays the holder, barging threads,
 * further spinners and queued waiters inside the waiter's platform calls, so that who wins each
 * race and when 100 ms of starvation have passed are chosen, not hoped for. Every case pins the
 * exact call schedule and the exact state word.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BargingAwareLockScriptedTest {
    private static final long NO_DEADLINE = EntryProtocol.NO_DEADLINE;
    /** 7 ms: the first waiter's starvation start. */
    private static final long START_NS = 7_000_000;

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
    private final BargingAwareLock lock = new BargingAwareLock(platform.context("current,monitor=barging"), this);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static List<String> concat(List<?>... parts) {
        List<String> all = new ArrayList<>();
        for (List<?> part : parts) {
            part.forEach(p -> all.add(p.toString()));
        }
        return all;
    }

    /** Plays a ghost's wait loop from its wake-up on. */
    private void playGhost(WaitQueue.Waiter ghost) {
        try {
            assertThat(lock.waitInQueue(ghost, NO_DEADLINE, false)).as("ghost took the lock").isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldSpinThirtyBackOffsAsWokenWaiterThenRequeueBehindTheOthersWhenABargerTookTheLock() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(32, () -> {
            WaitQueue.Waiter ghost = enqueueGhost(lock, WAITER_ONE, "ghost");
            lock.release();
            assertThat(lock.state).isEqualTo(2 * WAITER_ONE | WAITER_SIGNALED);
            assertThat(lock.tryLock()).as("barger").isTrue();
            platform.at(65, () -> {
                assertThat(queued(lock)).containsExactly("ghost", "me");
                assertThat(lock.state).as("wake signal observed").isEqualTo(2 * WAITER_ONE | LOCKED);
                lock.release();
                assertThat(lock.state).isEqualTo(2 * WAITER_ONE | WAITER_SIGNALED);
                platform.at(68, () -> {
                    playGhost(ghost);
                    assertThat(lock.state).isEqualTo(WAITER_ONE | LOCKED);
                    lock.release();
                });
            });
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(backoff(30), List.of("clock", "park",
                "unpark(me)", "clock"), backoff(30), List.of("park", "unpark(ghost)", "clock", "park", "clock",
                "unpark(me)", "clock")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    /** Released during back-off k of the woken waiter's spin: taken at the next try, or by the last look after 30. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 29, 30})
    void shouldTakeTheLockAtTheTryAfterTheBargerReleasesItWhenWokenWaiter(int releasedAtBackoff) throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(32, () -> {
            lock.release();
            assertThat(lock.tryLock()).as("barger").isTrue();
            platform.at(34 + releasedAtBackoff, () -> {
                lock.release();
                assertThat(lock.state).as("no second wake-up while one is pending").isEqualTo(WAITER_ONE
                        | WAITER_SIGNALED);
            });
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(backoff(30), List.of("clock", "park",
                "unpark(me)", "clock"), backoff(releasedAtBackoff)));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * The starvation guard: 100 ms after the first waiter registered (in whole milliseconds of the
     * clock, a start at 0 ms recorded as -1), a release stops the barging; 1 ns earlier it does not.
     */
    @ParameterizedTest
    @CsvSource({"7000000, 106999999, false", "7000000, 107000000, true", "500000, 98999999, false",
            "500000, 99000000, true"})
    void shouldStopTheBargingWhenTheSignaledWaiterHasStarvedForOneHundredMilliseconds(long registeredNs,
            long releasedNs, boolean stopped) throws Exception {
        platform.setNanos(registeredNs);
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(32, () -> {
            platform.setNanos(releasedNs);
            lock.release();
            assertThat(lock.preemptingWaitersStopped()).isEqualTo(stopped);
            assertThat(lock.state).isEqualTo(WAITER_ONE | WAITER_SIGNALED | (stopped ? SHOULD_NOT_PREEMPT_WAITERS : 0));
            if (stopped) {
                assertThat(lock.tryLock()).as("barger refused").isFalse();
            }
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(backoff(30), List.of("clock", "park",
                "unpark(me)", "clock")));
        assertThat(lock.state).as("the woken waiter cleared the bit").isEqualTo(LOCKED);
        assertThat(lock.preemptingWaitersStopped()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldSendAnArrivingThreadStraightToTheQueueWithoutSpinningWhileBargingIsStopped() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(32, () -> {
            platform.setNanos(START_NS + 100_000_000);
            lock.release();
            int before = platform.callCount();
            try {
                assertThat(lock.acquire(platform.nanos() + 1_000, false)).as("arriving thread").isFalse();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(platform.calls().subList(before, platform.callCount())).containsExactly("clock",
                    "parkNanos(1000)", "clock");
            assertThat(lock.state).as("the last waiter keeps the bit").isEqualTo(WAITER_ONE | WAITER_SIGNALED
                    | SHOULD_NOT_PREEMPT_WAITERS);
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * A woken waiter that takes a starved lock while others wait restarts the starvation clock then:
     * 99.999999 ms later a release does not stop the barging, 100 ms later an arriving spinner does.
     */
    @Test
    void shouldRestartTheStarvationClockWhenTheWokenWaiterTakesTheLockWhileOthersWait() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        WaitQueue.Waiter[] ghost = new WaitQueue.Waiter[1];
        platform.at(32, () -> {
            ghost[0] = enqueueGhost(lock, WAITER_ONE, "ghost");
            platform.setNanos(107_000_000);
            lock.release();
            assertThat(lock.preemptingWaitersStopped()).isTrue();
        });
        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();
        assertThat(lock.state).isEqualTo(WAITER_ONE | LOCKED);

        platform.setNanos(206_999_999);
        lock.release();
        assertThat(lock.preemptingWaitersStopped()).isFalse();
        assertThat(lock.state).isEqualTo(WAITER_ONE | WAITER_SIGNALED);

        platform.setNanos(207_000_000);
        platform.at(39, () -> {
            assertThat(lock.state).isEqualTo(2 * WAITER_ONE | WAITER_SIGNALED | SHOULD_NOT_PREEMPT_WAITERS);
            assertThat(queued(lock)).containsExactly("me");
            playGhost(ghost[0]);
            assertThat(lock.state).isEqualTo(WAITER_ONE | LOCKED);
            lock.release();
        });
        assertThat(lock.acquire(NO_DEADLINE, false)).as("the spinner, queued").isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(backoff(30), List.of("clock", "park",
                "unpark(me)", "clock", "clock", "unpark(ghost)", "clock", "clock", "park", "clock", "unpark(me)",
                "clock")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldClearTheStarvationBitWhenTheLastWaiterTimesOut() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        long deadline = START_NS + 200_000_000;
        platform.at(33, () -> {
            platform.setNanos(START_NS + 100_000_000);
            try {
                assertThat(lock.acquire(platform.nanos() + 1_000, false)).as("arriving thread").isFalse();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(lock.state).isEqualTo(WAITER_ONE | SHOULD_NOT_PREEMPT_WAITERS | LOCKED);
            assertThat(queued(lock)).containsExactly("me");
        });

        assertThat(lock.acquire(deadline, false)).isFalse();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(backoff(30), List.of("clock", "clock",
                "parkNanos(200000000)", "clock", "clock", "parkNanos(1000)", "clock", "clock", "parkNanos(99999000)",
                "clock")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        lock.release();
        assertThat(lock.tryLock()).isTrue();
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * A spinner that sees barging stopped stops trying, but its last look, which unregisters it, takes
     * the lock anyway: the releaser woke nobody because a spinner was registered.
     */
    @Test
    void shouldTakeTheLockAtTheUnregisteringLookWhenBargingStoppedDuringTheSpin() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        platform.at(32, () -> {
            platform.at(34, () -> {
                assertThat(lock.spinnerCount()).isEqualTo(1);
                platform.setNanos(START_NS + 100_000_000);
                try {
                    assertThat(lock.acquire(platform.nanos() + 1_000, false)).as("second arriving").isFalse();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                lock.release();
                assertThat(lock.state).as("nobody woken while a spinner is registered").isEqualTo(
                        WAITER_ONE | SPINNER_ONE | SHOULD_NOT_PREEMPT_WAITERS);
            });
            try {
                assertThat(lock.acquire(NO_DEADLINE, false)).as("spinner").isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(lock.state).isEqualTo(WAITER_ONE | SHOULD_NOT_PREEMPT_WAITERS | LOCKED);
            assertThat(lock.spinnerCount()).isZero();
            lock.release();
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(backoff(30), List.of("clock", "park", "clock",
                "pause(1)", "clock", "clock", "parkNanos(1000)", "clock", "unpark(me)")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldRequeueAtOnceWithoutSpinningAsWokenWaiterOnASingleProcessor() throws Exception {
        ScriptedPlatform single = new ScriptedPlatform(1, START_NS);
        BargingAwareLock one = new BargingAwareLock(single.context("current,monitor=barging"), this);
        assertThat(one.tryLock()).as("holder").isTrue();
        single.at(2, () -> {
            one.release();
            assertThat(one.tryLock()).as("barger").isTrue();
        });
        single.at(5, () -> {
            assertThat(one.state).isEqualTo(WAITER_ONE | LOCKED);
            one.release();
        });

        assertThat(one.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(single.calls()).containsExactly("clock", "park", "unpark(me)", "clock", "park", "unpark(me)",
                "clock");
        assertThat(one.state).isEqualTo(LOCKED);
        assertThat(single.pendingActions()).isZero();
    }

    @Test
    void shouldNotSpinWhenSevenSpinnersAreRegistered() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        EntryProtocol.STATE.getAndAdd(lock, 7 * SPINNER_ONE);

        assertThat(lock.acquire(START_NS + 1_000, false)).isFalse();

        assertThat(platform.calls()).containsExactly("clock", "clock", "parkNanos(1000)", "clock");
        assertThat(lock.state).isEqualTo(7 * SPINNER_ONE | LOCKED);
    }

    @Test
    void shouldRegisterAsTheSeventhSpinnerAndUnregisterWhenItTakesTheLock() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        EntryProtocol.STATE.getAndAdd(lock, 6 * SPINNER_ONE);
        platform.at(2, () -> {
            assertThat(lock.spinnerCount()).isEqualTo(7);
            lock.release();
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactly("pause(1)", "pause(2)");
        assertThat(lock.state).isEqualTo(6 * SPINNER_ONE | LOCKED);
    }

    @Test
    void shouldNotWakeAWaiterWhileASpinnerIsRegisteredButWakeItWhenTheLastSpinnerLeaves() {
        assertThat(lock.tryLock()).as("holder").isTrue();
        WaitQueue.Waiter ghost = enqueueGhost(lock, WAITER_ONE, "ghost");
        EntryProtocol.STATE.getAndAdd(lock, SPINNER_ONE);

        lock.release();
        assertThat(platform.calls()).isEmpty();
        assertThat(lock.state).isEqualTo(WAITER_ONE | SPINNER_ONE);

        EntryProtocol.STATE.getAndAdd(lock, LOCKED - SPINNER_ONE);
        lock.release();
        assertThat(platform.calls()).containsExactly("unpark(ghost)");
        assertThat(ghost.signaled()).isTrue();
        assertThat(lock.state).isEqualTo(WAITER_ONE | WAITER_SIGNALED);
        assertThat(lock.waiterCount()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- written after the fourth measurement

    /**
     * The starvation start outlives its waiters (nothing resets it when the last one leaves), but with
     * nobody waiting an arriving thread spins as usual 100 ms later instead of stopping the barging.
     */
    @Test
    void shouldSpinAsUsualOnAStaleStarvationStartWhenNobodyWaits() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        assertThat(lock.acquire(START_NS + 1_000, false)).as("first waiter, timed out").isFalse();
        platform.setNanos(START_NS + 100_000_000);

        assertThat(lock.acquire(platform.nanos() + 1_000, false)).isFalse();

        List<String> once = concat(backoff(30), List.of("clock", "clock", "parkNanos(1000)", "clock"));
        assertThat(platform.calls()).containsExactlyElementsOf(concat(once, once));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(lock.preemptingWaitersStopped()).isFalse();
    }

    // ---------------------------------------------------------------- written after the twelfth measurement

    /**
     * The first waiter of a new episode clears the old starvation start before it is counted: a thread
     * that arrives between its count and its new start (inside the start's clock read) must find no
     * start at all, not the stale one of a waiter that left 100 ms ago, and spin as usual instead of
     * stopping the barging; here it takes the lock, released during its first back-off, at its next
     * look. (PIT's survivors at the reset, lines 208, 249 and 252: with the stale start the arriving
     * thread stops the barging and queues behind the guard the new waiter holds.)
     */
    @Test
    void shouldNotStopTheBargingOnTheLastEpisodesStartWhileTheNextFirstWaiterRecordsItsOwn() throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        assertThat(lock.acquire(START_NS + 1_000, false)).as("first episode's waiter, timed out").isFalse();
        platform.setNanos(START_NS + 100_000_000);
        platform.at(65, () -> {
            assertThat(lock.state).as("the new first waiter is counted").isEqualTo(WAITER_ONE | LOCKED);
            platform.at(66, () -> {
                lock.release();
                assertThat(lock.state).as("nobody woken while a spinner is registered").isEqualTo(WAITER_ONE
                        | SPINNER_ONE);
            });
            try {
                assertThat(lock.acquire(NO_DEADLINE, false)).as("arriving thread").isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(lock.preemptingWaitersStopped()).isFalse();
            assertThat(lock.state).isEqualTo(WAITER_ONE | LOCKED);
        });

        assertThat(lock.acquire(platform.nanos() + 1_000, false)).as("the new first waiter").isFalse();

        List<String> once = concat(backoff(30), List.of("clock", "clock", "parkNanos(1000)", "clock"));
        assertThat(platform.calls()).containsExactlyElementsOf(concat(once, backoff(30), List.of("clock",
                "pause(1)", "clock", "parkNanos(1000)", "clock")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(lock.preemptingWaitersStopped()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * An arriving thread that reads the starvation clock while the lock is released (and a waiter
     * woken) takes the free lock at its next look, without registering as a spinner and backing off
     * first. (PIT's survivor at the spin's first check, line 121.)
     */
    @Test
    void shouldTakeTheLockWithoutSpinningWhenItIsReleasedWhileTheArrivingThreadReadsTheStarvationClock()
            throws Exception {
        assertThat(lock.tryLock()).as("holder").isTrue();
        assertThat(lock.acquire(START_NS + 1_000, false)).as("an earlier waiter, timed out").isFalse();
        WaitQueue.Waiter ghost = enqueueGhost(lock, WAITER_ONE, "ghost");
        platform.at(35, () -> {
            lock.release();
            assertThat(lock.state).isEqualTo(WAITER_ONE | WAITER_SIGNALED);
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls().subList(34, platform.callCount())).containsExactly("clock", "unpark(ghost)",
                "clock");
        assertThat(lock.state).isEqualTo(WAITER_ONE | WAITER_SIGNALED | LOCKED);
        assertThat(lock.spinnerCount()).isZero();
        assertThat(ghost.signaled()).isTrue();
        assertThat(platform.pendingActions()).isZero();
    }
}
