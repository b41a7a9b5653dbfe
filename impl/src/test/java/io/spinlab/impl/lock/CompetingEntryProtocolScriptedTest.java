package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;
import io.spinlab.impl.spin.PauseNormalizer;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.spinlab.impl.lock.EntryProtocolScripts.backoff;
import static io.spinlab.impl.lock.EntryProtocolScripts.enqueueGhost;
import static io.spinlab.impl.lock.EntryProtocolScripts.queued;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The wait loop the barging lock and CoreRT's lock share ({@link CompetingEntryProtocol#waitInQueue})
 * and each one's way of leaving the queue, on a {@link ScriptedPlatform}: a timeout or an interrupt
 * that leaves the queue; one that loses to a releaser which dequeued the waiter meanwhile (the test
 * holds the queue's guard from the waiter's deadline check until the waiter's first back-off on the
 * guard, and releases the lock there), after which the waiter takes the free lock or, a barger having
 * taken it, gives the wake-up back so that the next waiter is woken; an uninterruptible wait through
 * an interrupt; and, for CoreRT, a woken waiter that finds the lock taken and queues again at the back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompetingEntryProtocolScriptedTest {
    private static final long NO_DEADLINE = EntryProtocol.NO_DEADLINE;
    private static final long START_NS = 7_000_000;
    private static final long DEADLINE = START_NS + 1_000;
    private static final int LOCKED = EntryProtocol.LOCKED;

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private CompetingEntryProtocol lock(String monitor) {
        return (CompetingEntryProtocol) EntryProtocol.of(platform.context("current,monitor=" + monitor), this);
    }

    private static boolean barging(String monitor) {
        return monitor.equals("barging");
    }

    private static int waiterOne(String monitor) {
        return barging(monitor) ? BargingAwareLock.WAITER_ONE : CoreRtLock.WAITER_ONE;
    }

    private static int wakeBit(String monitor) {
        return barging(monitor) ? BargingAwareLock.WAITER_SIGNALED : CoreRtLock.WAITER_WOKEN;
    }

    /** The contended thread's spin and registration: 30 back-offs and the starvation start; or SpinWait(1 … 8192). */
    private static List<String> spinAndRegister(String monitor) {
        List<String> calls = new ArrayList<>();
        if (barging(monitor)) {
            calls.addAll(backoff(30));
            calls.add("clock");
        } else {
            for (int spins = 1; spins <= 8192; spins *= 2) {
                calls.add("pause(" + spins + ")");
            }
        }
        return calls;
    }

    /** A release that wakes {@code name}; the barging releaser then checks the starvation clock. */
    private static List<String> wake(String monitor, String name) {
        return barging(monitor) ? List.of("unpark(" + name + ")", "clock") : List.of("unpark(" + name + ")");
    }

    private static List<String> concat(List<String> first, List<String> second, List<String> third) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        all.addAll(third);
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldLeaveTheQueueAndUncountItselfWhenTheDeadlinePasses(String monitor) throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();

        assertThat(lock.acquire(DEADLINE, false)).isFalse();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                List.of("clock", "parkNanos(1000)", "clock"), List.of()));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldLeaveTheQueueAndThrowWhenInterruptedWhileWaiting(String monitor) throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int park = spinAndRegister(monitor).size() + 1;
        platform.at(park, () -> Thread.currentThread().interrupt());

        assertThatThrownBy(() -> lock.acquire(NO_DEADLINE, true)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor), List.of("park"),
                List.of()));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldKeepWaitingThroughAnInterruptAndReassertItWhenUninterruptible(String monitor) throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int park = spinAndRegister(monitor).size() + 1;
        platform.at(park, () -> Thread.currentThread().interrupt());
        platform.at(park + 1, lock::release);

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                List.of("park", "park"), wake(monitor, "me")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldTakeTheLockWhenTheSignalArrivesAtTheDeadlineCheck(String monitor) throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int check = spinAndRegister(monitor).size() + 3;
        platform.at(check, lock::release);

        assertThat(lock.acquire(DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                List.of("clock", "parkNanos(1000)", "clock"), wake(monitor, "me")));
        assertThat(lock.state).isEqualTo(LOCKED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldTakeTheFreeLockWhenAReleaserDequeuedItAfterItTimedOut(String monitor) throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int check = spinAndRegister(monitor).size() + 3;
        platform.at(check, lock.queue::lockGuard);
        platform.at(check + 1, () -> {
            lock.queue.unlockGuard();
            lock.release();
        });

        assertThat(lock.acquire(DEADLINE, false)).as("the wake-up is taken up").isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                List.of("clock", "parkNanos(1000)", "clock", "pause(1)"), wake(monitor, "me")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldGiveTheWakeUpBackSoTheNextWaiterIsWokenWhenABargerTookTheLockAfterItTimedOut(String monitor)
            throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int parkNanos = spinAndRegister(monitor).size() + 2;
        platform.at(parkNanos, () -> {
            enqueueGhost(lock, waiterOne(monitor), "ghost");
            platform.setNanos(DEADLINE);
        });
        platform.at(parkNanos + 1, lock.queue::lockGuard);
        platform.at(parkNanos + 2, () -> {
            lock.queue.unlockGuard();
            lock.release();
            assertThat(lock.tryLock()).as("barger").isTrue();
        });

        assertThat(lock.acquire(DEADLINE, false)).isFalse();

        assertThat(lock.state).isEqualTo(waiterOne(monitor) | LOCKED);
        assertThat(queued(lock)).containsExactly("ghost");
        lock.release();
        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                concat(List.of("clock", "parkNanos(1000)", "clock", "pause(1)"), wake(monitor, "me"), List.of()),
                wake(monitor, "ghost")));
        assertThat(lock.state).isEqualTo(waiterOne(monitor) | wakeBit(monitor));
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldTakeTheFreeLockAndReassertTheInterruptWhenAReleaserDequeuedItAfterTheInterrupt(String monitor)
            throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int park = spinAndRegister(monitor).size() + 1;
        platform.at(park, () -> {
            Thread.currentThread().interrupt();
            lock.queue.lockGuard();
        });
        platform.at(park + 1, () -> {
            lock.queue.unlockGuard();
            lock.release();
        });

        assertThat(lock.acquire(NO_DEADLINE, true)).isTrue();

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                List.of("park", "pause(1)"), wake(monitor, "me")));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(platform.pendingActions()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldGiveTheWakeUpBackAndThrowWhenABargerTookTheLockAfterTheInterrupt(String monitor) throws Exception {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        int park = spinAndRegister(monitor).size() + 1;
        platform.at(park, () -> {
            enqueueGhost(lock, waiterOne(monitor), "ghost");
            Thread.currentThread().interrupt();
            lock.queue.lockGuard();
        });
        platform.at(park + 1, () -> {
            lock.queue.unlockGuard();
            lock.release();
            assertThat(lock.tryLock()).as("barger").isTrue();
        });

        assertThatThrownBy(() -> lock.acquire(NO_DEADLINE, true)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(lock.state).isEqualTo(waiterOne(monitor) | LOCKED);
        lock.release();
        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister(monitor),
                concat(List.of("park", "pause(1)"), wake(monitor, "me"), List.of()), wake(monitor, "ghost")));
        assertThat(lock.state).isEqualTo(waiterOne(monitor) | wakeBit(monitor));
        assertThat(platform.pendingActions()).isZero();
    }

    /** CoreRT: a woken waiter that finds the lock taken clears WAITER_WOKEN and waits again behind the others. */
    @Test
    void shouldRequeueTheWokenWaiterBehindTheOthersWhenABargerTookTheLockWhenCoreRt() throws Exception {
        CompetingEntryProtocol lock = lock("corert-lock");
        int one = CoreRtLock.WAITER_ONE;
        assertThat(lock.tryLock()).as("holder").isTrue();
        int park = spinAndRegister("corert-lock").size() + 1;
        WaitQueue.Waiter[] ghost = new WaitQueue.Waiter[1];
        platform.at(park, () -> {
            ghost[0] = enqueueGhost(lock, one, "ghost");
            lock.release();
            assertThat(lock.state).isEqualTo(2 * one | CoreRtLock.WAITER_WOKEN);
            assertThat(lock.tryLock()).as("barger").isTrue();
        });
        platform.at(park + 2, () -> {
            assertThat(queued(lock)).containsExactly("ghost", "me");
            assertThat(lock.state).isEqualTo(2 * one | LOCKED);
            lock.release();
        });
        platform.at(park + 4, () -> {
            try {
                assertThat(lock.waitInQueue(ghost[0], NO_DEADLINE, false)).as("ghost").isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(lock.state).isEqualTo(one | LOCKED);
            lock.release();
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister("corert-lock"),
                List.of("park", "unpark(me)", "park", "unpark(ghost)", "park", "unpark(me)"), List.of()));
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(queued(lock)).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldNotWakeASecondWaiterWhileAWokenOneHasNotRunWhenCoreRt() {
        CompetingEntryProtocol lock = lock("corert-lock");
        int one = CoreRtLock.WAITER_ONE;
        assertThat(lock.tryLock()).as("holder").isTrue();
        WaitQueue.Waiter first = enqueueGhost(lock, one, "first");
        enqueueGhost(lock, one, "second");

        lock.release();
        assertThat(lock.tryLock()).as("barger").isTrue();
        lock.release();

        assertThat(platform.calls()).containsExactly("unpark(first)");
        assertThat(first.signaled()).isTrue();
        assertThat(lock.state).isEqualTo(2 * one | CoreRtLock.WAITER_WOKEN);
        assertThat(queued(lock)).containsExactly("second");
        assertThat(lock.waiterCount()).isEqualTo(2);
    }

    // ---------------------------------------------------------------- written after the fourth measurement

    /** The lock freed while the contended thread waited for the queue's guard: taken under it, not waited for. */
    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldTakeTheLockFreedWhileItWaitedForTheQueuesGuardInsteadOfQueueing(String monitor) throws Exception {
        ScriptedPlatform single = new ScriptedPlatform(1, START_NS);
        CompetingEntryProtocol lock = (CompetingEntryProtocol) EntryProtocol.of(single.context("current,monitor=" + monitor), this);
        assertThat(lock.tryLock()).as("holder").isTrue();
        lock.queue.lockGuard();
        single.at(1, () -> {
            lock.queue.unlockGuard();
            lock.release();
        });

        assertThat(lock.acquire(NO_DEADLINE, false)).isTrue();

        assertThat(single.calls()).containsExactly("pause(1)");
        assertThat(lock.state).isEqualTo(LOCKED);
        assertThat(lock.waiterCount()).isZero();
        assertThat(queued(lock)).isEmpty();
        assertThat(single.pendingActions()).isZero();
    }

    /** The releaser re-checks under the guard: the only waiter left (timed out) while it waited for the guard. */
    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldWakeNobodyWhenTheLastWaiterLeftWhileTheReleaserWaitedForTheGuard(String monitor) {
        CompetingEntryProtocol lock = lock(monitor);
        assertThat(lock.tryLock()).as("holder").isTrue();
        WaitQueue.Waiter ghost = enqueueGhost(lock, waiterOne(monitor), "ghost");
        lock.queue.lockGuard();
        platform.at(1, () -> {
            assertThat(lock.queue.remove(ghost)).isTrue();
            EntryProtocol.STATE.getAndAdd(lock, -waiterOne(monitor));
            lock.queue.unlockGuard();
        });

        lock.release();

        assertThat(platform.calls()).containsExactly("pause(1)");
        assertThat(lock.state).isZero();
        assertThat(ghost.signaled()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    /** A waiter count whose only bit is the state word's top bit still counts as waiters. */
    @ParameterizedTest
    @ValueSource(strings = {"barging", "corert-lock"})
    void shouldWakeAWaiterWhenTheWaiterCountIsInTheTopBitsOnly(String monitor) {
        CompetingEntryProtocol lock = lock(monitor);
        int topBits = barging(monitor) ? Integer.MIN_VALUE : 1 << 30;
        lock.state = topBits | LOCKED;
        WaitQueue.Waiter ghost = enqueueGhost(lock, 0, "ghost");

        lock.release();

        assertThat(platform.calls()).containsExactly("unpark(ghost)");
        assertThat(ghost.signaled()).isTrue();
        assertThat(lock.state).isEqualTo(topBits | wakeBit(monitor));
    }

    /** CoreRT: timing out while the lock is free because a releaser woke the waiter ahead: leave, do not take it. */
    @Test
    void shouldLeaveWithoutTakingTheFreeLockWhenTimingOutBehindAWokenWaiterWhenCoreRt() throws Exception {
        CompetingEntryProtocol lock = lock("corert-lock");
        int one = CoreRtLock.WAITER_ONE;
        assertThat(lock.tryLock()).as("holder").isTrue();
        WaitQueue.Waiter ghost = enqueueGhost(lock, one, "ghost");
        int parkNanos = spinAndRegister("corert-lock").size() + 2;
        platform.at(parkNanos, lock::release);

        assertThat(lock.acquire(DEADLINE, false)).isFalse();

        assertThat(platform.calls()).containsExactlyElementsOf(concat(spinAndRegister("corert-lock"),
                List.of("clock", "parkNanos(1000)", "unpark(ghost)", "clock", "parkNanos(1000)", "clock"),
                List.of()));
        assertThat(lock.state).as("free, the ghost counted and woken").isEqualTo(one | CoreRtLock.WAITER_WOKEN);
        assertThat(ghost.signaled()).isTrue();
        assertThat(queued(lock)).isEmpty();
    }

    /** One spin loop, one chance for the normalizer to measure; none where a single processor skips the spin. */
    @ParameterizedTest
    @CsvSource({"barging, 4, 1", "corert-lock, 4, 1", "barging, 1, 0", "corert-lock, 1, 0"})
    void shouldLetTheNormalizerMeasureOncePerSpinLoop(String monitor, int processors, int refreshes)
            throws Exception {
        ScriptedPlatform scripted = new ScriptedPlatform(processors, START_NS);
        CountingNormalizer normalizer = new CountingNormalizer();
        CompetingEntryProtocol lock = (CompetingEntryProtocol) EntryProtocol.of(SpinContext.of(scripted,
                Tuning.parse("current,monitor=" + monitor), normalizer), this);
        assertThat(lock.tryLock()).as("holder").isTrue();

        assertThat(lock.acquire(DEADLINE, false)).isFalse();

        assertThat(normalizer.refreshes).isEqualTo(refreshes);
    }

    /** The fixed normalizer's figures, counting the measurements it is asked for. */
    private static final class CountingNormalizer implements PauseNormalizer {
        int refreshes;

        @Override
        public int yieldsPerNormalizedYield() {
            return DEFAULT_YIELDS_PER_NORMALIZED_YIELD;
        }

        @Override
        public int optimalMaxNormalizedYieldsPerSpinIteration() {
            return DEFAULT_OPTIMAL_MAX_NORMALIZED_YIELDS_PER_SPIN_ITERATION;
        }

        @Override
        public double nsPerPause() {
            return TARGET_NS_PER_NORMALIZED_YIELD;
        }

        @Override
        public void refreshIfDue() {
            refreshes++;
        }
    }
}
