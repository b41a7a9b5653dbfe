package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MonitorLock's condition wait and timed entry on a {@link ScriptedPlatform}. While a condition
 * waiter is parked the lock is free, so the test thread plays the other threads by entering it
 * inside the park (a pulser, further condition waiters nested one inside another); a thread that
 * holds the lock without being the owner is played through the entry protocol directly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MonitorLockScriptedTest {
    private static final long START_NS = 7_000_000;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static EntryProtocol entryOf(MonitorLock lock) {
        try {
            Field entry = MonitorLock.class.getDeclaredField("entry");
            entry.setAccessible(true);
            return (EntryProtocol) entry.get(lock);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Interrupted in the wait, pulsed while re-acquiring: the pulse counts, and the interrupt is kept for later. */
    @Test
    void shouldReturnPulsedAndReassertTheInterruptWhenPulsedAfterTheInterruptEndedTheWait() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=barging"));
        lock.enter();
        platform.at(3, () -> {
            lock.enter();
            Thread.currentThread().interrupt();
        });
        platform.at(4, () -> {
            assertThat(lock.pulse()).isTrue();
            lock.exit();
        });

        assertThat(lock.await(1, TimeUnit.SECONDS)).isTrue();

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.calls()).containsExactly("clock", "clock", "parkNanos(1000000000)", "pause(1)",
                "unpark(me)");
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.pulse()).as("condition queue empty").isFalse();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldThrowAndLeaveTheConditionQueueWhenInterruptedAndNotPulsed() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=barging"));
        lock.enter();
        lock.enter();
        platform.at(1, () -> Thread.currentThread().interrupt());

        assertThatThrownBy(lock::await).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(platform.calls()).containsExactly("park");
        assertLeftTheQueueWithItsTwoEntriesRestored(lock);
    }

    /**
     * Three condition waiters, each entering inside the previous one's park: the newest times out and
     * leaves from the tail; a fourth then queues behind the second, and pulseAll wakes exactly the
     * first, second and fourth.
     */
    @Test
    void shouldLeaveTheConditionQueueFromTheTailAndKeepLaterWaitersReachable() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=barging"));
        platform.at(3, () -> {
            lock.enter();
            try {
                lock.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            lock.exit();
        });
        platform.at(4, () -> {
            lock.enter();
            try {
                assertThat(lock.await(1_000, TimeUnit.NANOSECONDS)).as("third, timed out").isFalse();
                platform.at(11, () -> {
                    lock.enter();
                    assertThat(lock.pulseAll()).isEqualTo(3);
                    lock.exit();
                });
                assertThat(lock.await(1, TimeUnit.SECONDS)).as("fourth").isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            lock.exit();
        });
        lock.enter();

        assertThat(lock.await(1, TimeUnit.SECONDS)).as("first").isTrue();

        assertThat(platform.calls()).containsExactly("clock", "clock", "parkNanos(1000000000)", "park", "clock",
                "clock", "parkNanos(1000)", "clock", "clock", "clock", "parkNanos(1000000000)", "unpark(me)",
                "unpark(me)", "unpark(me)");
        assertThat(lock.pulse()).isFalse();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    /** A timeout that would end exactly at the clock's "no deadline" value is one nanosecond shorter, still timed. */
    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock", "convoy"})
    void shouldWaitOneNanosecondLessThanForeverWhenTheTimeoutEndsAtTheNoDeadlineValue(String monitor)
            throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=" + monitor));
        EntryProtocol entry = entryOf(lock);
        assertThat(entry.tryLock()).as("holder").isTrue();
        long remaining = Long.MAX_VALUE - 1 - START_NS;
        int parkAt = monitor.equals("corert-lock") ? 3 : 4;
        platform.at(parkAt, entry::release);

        assertThat(lock.tryEnter(Long.MAX_VALUE - START_NS, TimeUnit.NANOSECONDS)).isTrue();

        assertThat(platform.calls().subList(parkAt - 1, parkAt + 1)).containsExactly("parkNanos(" + remaining + ")",
                "unpark(me)");
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(platform.pendingActions()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"barging, 67108863", "corert-lock, 1073741823", "convoy, 2147483647"})
    void shouldRefuseAWaiterBeyondWhatTheStateWordCounts(String monitor, int maxWaiters) {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=" + monitor));
        EntryProtocol entry = entryOf(lock);
        int shift = switch (monitor) {
            case "barging" -> BargingAwareLock.WAITER_SHIFT;
            case "corert-lock" -> CoreRtLock.WAITER_SHIFT;
            default -> ConvoyAwareLock.WAITER_SHIFT;
        };
        entry.state = maxWaiters << shift | EntryProtocol.LOCKED;

        assertThatThrownBy(lock::enter).isInstanceOf(IllegalStateException.class)
                .hasMessage("too many waiters: at most " + maxWaiters + " threads may wait");

        assertThat(entry.state).isEqualTo(maxWaiters << shift | EntryProtocol.LOCKED);
        assertThat(EntryProtocolScripts.queued(entry)).isEmpty();
    }

    // ---------------------------------------------------------------- written after the fourth measurement

    @Test
    void shouldReportTheLockOrTheGivenBlockerAsWhatItsWaitersWaitOn() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        Object event = new Object();
        MonitorLock plain = new MonitorLock(platform.context("current,monitor=barging"));
        MonitorLock inside = new MonitorLock(platform.context("current,monitor=barging"), event);
        plain.enter();
        inside.enter();

        assertThat(plain.await(1_000, TimeUnit.NANOSECONDS)).isFalse();
        assertThat(inside.await(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(platform.blockers()).hasSize(2);
        assertThat(platform.blockers().get(0)).isSameAs(plain);
        assertThat(platform.blockers().get(1)).isSameAs(event);
    }

    /** An interrupted thread does not release the lock to wait: an entry waiter is not woken for nothing. */
    @Test
    void shouldThrowBeforeReleasingTheLockWhenAwaitIsCalledInterrupted() {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=barging"));
        lock.enter();
        EntryProtocolScripts.enqueueGhost(entryOf(lock), BargingAwareLock.WAITER_ONE, "ghost");
        Thread.currentThread().interrupt();

        assertThatThrownBy(lock::await).isInstanceOf(InterruptedException.class);

        assertThat(platform.calls()).isEmpty();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.waiterCount()).isEqualTo(1);
        assertThat(Thread.interrupted()).isFalse();
    }

    /** A platform that fails the wait (a simulator ending its run): the lock is re-held and the waiter gone. */
    @Test
    void shouldHoldTheLockAgainAndLeaveTheConditionQueueWhenThePlatformFailsTheWait() {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=barging"));
        lock.enter();
        lock.enter();

        assertThatThrownBy(lock::await).isInstanceOf(AssertionError.class).hasMessageStartingWith("untimed park");

        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertLeftTheQueueWithItsTwoEntriesRestored(lock);
    }

    /** A deadline 10 ns short of the "no deadline" value is kept as it is, not rounded to it. */
    @Test
    void shouldKeepAVeryLongDeadlineThatStopsShortOfTheNoDeadlineValue() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=corert-lock"));
        EntryProtocol entry = entryOf(lock);
        assertThat(entry.tryLock()).as("holder").isTrue();
        long timeout = Long.MAX_VALUE - START_NS - 10;
        platform.at(3, entry::release);

        assertThat(lock.tryEnter(timeout, TimeUnit.NANOSECONDS)).isTrue();

        assertThat(platform.calls()).containsExactly("clock", "clock", "parkNanos(" + timeout + ")", "unpark(me)");
    }

    @Test
    void shouldEnterInterruptiblyWithoutSpinningWhenFreeAndAfterAHandoffWhenHeld() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(2, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=convoy"));
        lock.enterInterruptibly();
        assertThat(platform.calls()).isEmpty();
        lock.exit();

        ScriptedPlatform single = new ScriptedPlatform(1, START_NS);
        MonitorLock contended = new MonitorLock(single.context("current,monitor=convoy"));
        EntryProtocol entry = entryOf(contended);
        assertThat(entry.tryLock()).as("holder").isTrue();
        single.at(2, entry::release);

        contended.enterInterruptibly();

        assertThat(single.calls()).containsExactly("yield", "park", "unpark(me)");
        assertThat(contended.isHeldByCurrentThread()).isTrue();
        contended.exit();
        assertThat(contended.isLocked()).isFalse();
    }

    @Test
    void shouldNameTheOperationWhenANonOwnerPulsesAll() {
        MonitorLock lock = new MonitorLock(new ScriptedPlatform(1, START_NS).context("current,monitor=barging"));

        assertThatThrownBy(lock::pulseAll).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessage("pulseAll by " + Thread.currentThread().getName() + ", which does not own the lock");
    }

    @Test
    void shouldRefuseTheReentryThatWouldOverflowTheRecursionCount() throws Exception {
        MonitorLock lock = new MonitorLock(new ScriptedPlatform(1, START_NS).context("current,monitor=barging"));
        lock.enter();
        Field recursions = MonitorLock.class.getDeclaredField("recursions");
        recursions.setAccessible(true);
        recursions.setInt(lock, Integer.MAX_VALUE);

        assertThatThrownBy(lock::enter).isInstanceOf(IllegalStateException.class)
                .hasMessage("lock re-entered 2147483647 times: recursion count overflow");

        assertThat(recursions.getInt(lock)).isEqualTo(Integer.MAX_VALUE);
        recursions.setInt(lock, 0);
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    /** Argument and interrupt checks come before the lock is even tried (the lock is free here). */
    @Test
    void shouldRejectANegativeTimeoutOrAnInterruptedCallerBeforeTryingTheLock() {
        ScriptedPlatform platform = new ScriptedPlatform(1, START_NS);
        MonitorLock lock = new MonitorLock(platform.context("current,monitor=barging"));

        assertThatThrownBy(() -> lock.tryEnter(-1, TimeUnit.NANOSECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout = -1 is negative; allowed 0 or more");
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> lock.tryEnter(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(lock.isLocked()).isFalse();

        lock.enter();
        assertThatThrownBy(() -> lock.await(-1, TimeUnit.NANOSECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout = -1 is negative; allowed 0 or more");
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(platform.calls()).isEmpty();
        lock.exit();
    }

    /** After a failed wait: nobody left to pulse, and the lock still held twice by this thread. */
    private static void assertLeftTheQueueWithItsTwoEntriesRestored(MonitorLock lock) {
        assertThat(lock.pulse()).as("left the condition queue").isFalse();
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).as("recursion restored").isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }
}
