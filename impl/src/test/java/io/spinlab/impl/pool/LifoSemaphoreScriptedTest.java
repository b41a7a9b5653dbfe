package io.spinlab.impl.pool;

import io.spinlab.impl.lock.ForeignHolder;
import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.PauseNormalizer;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.ScriptedPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LifoSemaphore's release decisions and blocking layer on a {@link ScriptedPlatform}: the test thread
 * plays every party. A second waiter or spinner is played inside the first one's park or spin call,
 * a releaser inside the park or spin call of the thread it should (or should not) wake; the blocking
 * layer's internal lock held by another thread is played with {@link ForeignHolder}, and a waiter that
 * leaves from below a newer one by a "ghost" node stacked by hand, whose thread never runs. Every case
 * asserts the counts word ({@code toString}) at the decisive moment and the exact call schedule.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifoSemaphoreScriptedTest {
    private static final long START_NS = 3_000_000;

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
    private final List<String> seen = new ArrayList<>();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private LifoSemaphore semaphore(int spinCount) {
        return new LifoSemaphore(platform.context(Tuning.current()), 0, 10, spinCount);
    }

    private static String counts(int signals, int waiters, int spinners, int signaledToWake) {
        return "LifoSemaphore[signals=" + signals + ", waiters=" + waiters + ", spinners=" + spinners
                + ", signaledToWake=" + signaledToWake + "]";
    }

    /** The blocking layer's internal lock, to hold it as another thread would. */
    private static MonitorLock waitersLock(LifoSemaphore semaphore) {
        try {
            Field waiters = LifoSemaphore.class.getDeclaredField("waiters");
            waiters.setAccessible(true);
            Field lock = LifoSemaphore.LifoWaiters.class.getDeclaredField("lock");
            lock.setAccessible(true);
            return (MonitorLock) lock.get(waiters.get(semaphore));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldWakeNobodyForASignalReleasedWhileALoneSpinnerSpins() {
        LifoSemaphore semaphore = semaphore(3);
        platform.at(1, () -> {
            seen.add(semaphore.toString());
            semaphore.release(1);
            seen.add(semaphore.toString());
        });

        assertThat(semaphore.await(-1, true)).isTrue();

        assertThat(seen).containsExactly(counts(0, 0, 1, 0), counts(1, 0, 1, 0));
        assertThat(platform.calls()).as("the first spin iteration, then the signal is taken")
                .containsExactly("pause(1)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /**
     * A spinner and a blocked waiter; release(2) wakes the waiter for the one signal the spinner cannot
     * take, and both end with a signal.
     */
    @Test
    void shouldWakeTheBlockedWaiterOnlyForTheSignalTheSpinnerCannotTake() {
        LifoSemaphore semaphore = semaphore(3);
        platform.at(1, () -> { // the spinner's first spin iteration: a waiter arrives and blocks
            seen.add("waiter " + semaphore.await(1_000, false));
            seen.add(semaphore.toString());
        });
        platform.atNext("parkNanos(1000)", () -> {
            seen.add(semaphore.toString());
            semaphore.release(2);
            seen.add(semaphore.toString());
        });

        assertThat(semaphore.await(-1, true)).as("the spinner").isTrue();

        assertThat(seen).containsExactly(counts(0, 1, 1, 0), counts(2, 1, 1, 1), "waiter true", counts(1, 0, 1, 0));
        assertThat(platform.calls()).containsExactly("pause(1)", "clock", "clock", "clock", "clock",
                "parkNanos(1000)", "unpark(me)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
        assertThat(platform.pendingActions()).isZero();
    }

    /** A second signal before the woken waiter has run wakes nobody else: the waiter signaled to wake is counted. */
    @Test
    void shouldNotWakeAgainForAWaiterSignaledButNotYetRun() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("park", () -> {
            semaphore.release(1);
            seen.add(semaphore.toString());
            semaphore.release(1);
            seen.add(semaphore.toString());
        });

        assertThat(semaphore.await(-1, false)).isTrue();

        assertThat(seen).containsExactly(counts(1, 1, 0, 1), counts(2, 1, 0, 1));
        assertThat(platform.calls()).containsExactly("park", "unpark(me)");
        assertThat(semaphore).hasToString(counts(1, 0, 0, 0));
    }

    /**
     * A newer waiter times out and leaves the top of the stack; the older one below it is then the top,
     * and the next signal wakes it.
     */
    @Test
    void shouldWakeTheOlderWaiterAfterTheNewerOneTimedOutFromTheTop() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("park", () -> {
            seen.add("newer " + semaphore.await(1_000, false));
            seen.add(semaphore.toString());
            semaphore.release(1);
        });

        assertThat(semaphore.await(-1, false)).as("the older").isTrue();

        assertThat(seen).containsExactly("newer false", counts(0, 1, 0, 0));
        assertThat(platform.calls()).containsExactly("park", "clock", "clock", "clock", "clock", "parkNanos(1000)",
                "clock", "unpark(me)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /**
     * The waiter's deadline passes while another thread holds the blocking layer's lock; before the
     * waiter gets the lock to unlink itself, a release pops it. It has been woken, so it takes the
     * signal instead of timing out.
     */
    @Test
    void shouldTakeTheSignalWhenPoppedWhileTimingOut() {
        LifoSemaphore semaphore = semaphore(0);
        MonitorLock lock = waitersLock(semaphore);
        platform.atNext("parkNanos(1000)", () -> {
            ForeignHolder.hold(lock);
            platform.setNanos(platform.nanos() + 1_000);
        });
        platform.atNext("pause(1)", () -> { // the timed-out waiter spins for the lock
            ForeignHolder.letGo(lock);
            semaphore.release(1);
            seen.add(semaphore.toString());
        });

        assertThat(semaphore.await(1_000, false)).isTrue();

        assertThat(seen).containsExactly(counts(1, 1, 0, 1));
        assertThat(platform.calls()).containsExactly("clock", "clock", "clock", "clock", "parkNanos(1000)", "clock",
                "pause(1)", "unpark(me)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * A release between a waiter's registration and its reaching the stack finds nobody to wake and
     * leaves a pending wake-up: the waiter consumes it without parking; the next waiter parks.
     */
    @Test
    void shouldConsumeAWakeUpThatCameBeforeTheWaiterWasStacked() {
        LifoSemaphore semaphore = semaphore(0);
        platform.at(1, () -> { // the waiter's deadline clock read, counted as a waiter but not stacked
            semaphore.release(1);
            seen.add(semaphore.toString());
        });

        assertThat(semaphore.await(1_000, false)).isTrue();
        assertThat(semaphore.await(1_000, false)).as("the next waiter finds no wake-up left").isFalse();

        assertThat(seen).containsExactly(counts(1, 1, 0, 1));
        assertThat(platform.calls()).containsExactly("clock", "clock", "clock", "clock", "clock", "clock",
                "parkNanos(1000)", "clock");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /** An interrupt does not end the wait (the pool's workers ignore it); the status is kept for the caller. */
    @Test
    void shouldWaitOnThroughAnInterruptAndKeepIt() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("park", () -> Thread.currentThread().interrupt());
        platform.atNext("park", () -> {
            seen.add("interrupted " + Thread.currentThread().isInterrupted());
            semaphore.release(1);
        });

        assertThat(semaphore.await(-1, false)).isTrue();

        assertThat(Thread.interrupted()).isTrue();
        assertThat(seen).as("the status is cleared while waiting").containsExactly("interrupted false");
        assertThat(platform.calls()).containsExactly("park", "park", "unpark(me)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /**
     * A woken waiter whose signal was taken by another thread waits again, unless its deadline has
     * come: exactly at the deadline it gives up without waiting on the blocking layer.
     */
    @Test
    void shouldGiveUpExactlyAtTheDeadlineWhenWokenForASignalTakenByAnother() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("parkNanos(1000)", () -> {
            semaphore.release(1);
            assertThat(semaphore.tryAcquire()).as("another thread takes the signal").isTrue();
            seen.add(semaphore.toString());
            platform.setNanos(START_NS + 1_000);
        });

        assertThat(semaphore.await(1_000, false)).isFalse();

        assertThat(seen).containsExactly(counts(0, 1, 0, 1));
        assertThat(platform.calls()).containsExactly("clock", "clock", "clock", "clock", "parkNanos(1000)",
                "unpark(me)", "clock");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /** Two waiters, two releases of one before either runs: the newest is woken first, then the older one. */
    @Test
    void shouldWakeOneWaiterPerReleaseNewestFirst() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("park", () -> { // the older waiter's park
            seen.add("newer " + semaphore.await(-1, false));
            seen.add(semaphore.toString());
        });
        platform.atNext("park", () -> { // the newer waiter's park
            semaphore.release(1);
            seen.add(semaphore.toString() + " after " + platform.calls().getLast());
            semaphore.release(1);
            seen.add(semaphore.toString() + " after " + platform.calls().getLast());
        });

        assertThat(semaphore.await(-1, false)).as("the older").isTrue();

        assertThat(seen).containsExactly(counts(1, 2, 0, 1) + " after unpark(me)",
                counts(2, 2, 0, 2) + " after unpark(me)", "newer true", counts(1, 1, 0, 1));
        assertThat(platform.calls()).containsExactly("park", "park", "unpark(me)", "unpark(me)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /**
     * After the waiters that were stacked have all left, a release must find the stack empty: it leaves a
     * pending wake-up, which a waiter not yet stacked then consumes without parking.
     */
    private void assertStackEmptyForTheNextWaiter(LifoSemaphore semaphore) {
        int from = platform.callCount();
        platform.at(from + 1, () -> semaphore.release(1)); // at the next waiter's deadline clock read

        assertThat(semaphore.await(1_000, false)).as("the next waiter").isTrue();

        assertThat(platform.calls().subList(from, platform.callCount())).containsExactly("clock", "clock");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /** The newer waiter is popped by a release; the older one, below it, then times out as the top of the stack. */
    @Test
    void shouldLeaveTheStackEmptyWhenTheOlderWaiterTimesOutAfterTheNewerWasWoken() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("parkNanos(1000)", () -> seen.add("newer " + semaphore.await(-1, false)));
        platform.atNext("park", () -> semaphore.release(1));

        assertThat(semaphore.await(1_000, false)).as("the older").isFalse();

        assertThat(seen).containsExactly("newer true");
        assertThat(platform.calls()).containsExactly("clock", "clock", "clock", "clock", "parkNanos(1000)", "park",
                "unpark(me)", "clock", "parkNanos(1000)", "clock");
        assertStackEmptyForTheNextWaiter(semaphore);
    }

    /** Both waiters time out, the newer first (from the top), then the older (then the top). */
    @Test
    void shouldLeaveTheStackEmptyWhenBothWaitersTimeOutNewestFirst() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("parkNanos(1000)", () -> seen.add("newer " + semaphore.await(1_000, false)));

        assertThat(semaphore.await(1_000, false)).as("the older").isFalse();

        assertThat(seen).containsExactly("newer false");
        assertThat(platform.calls()).containsExactly("clock", "clock", "clock", "clock", "parkNanos(1000)",
                "clock", "clock", "clock", "clock", "parkNanos(1000)", "clock", "clock");
        assertStackEmptyForTheNextWaiter(semaphore);
    }

    /**
     * release(2) with one waiter stacked and one counted but not yet stacked: the stacked one is woken,
     * one wake-up is left pending for the other, and none more: a third waiter parks.
     */
    @Test
    void shouldLeaveOnePendingWakeUpForTheWaiterNotYetStacked() {
        LifoSemaphore semaphore = semaphore(0);
        platform.atNext("park", () -> { // the stacked waiter's park; the second waiter's first clock read comes next
            platform.atNextCall(() -> {
                semaphore.release(2);
                seen.add(semaphore.toString());
            });
            seen.add("second " + semaphore.await(1_000, false));
        });

        assertThat(semaphore.await(-1, false)).as("the stacked waiter").isTrue();
        assertThat(semaphore.await(1_000, false)).as("a third waiter").isFalse();

        assertThat(seen).containsExactly(counts(2, 2, 0, 2), "second true");
        assertThat(platform.calls()).containsExactly("park", "clock", "unpark(me)", "clock",
                "clock", "clock", "clock", "clock", "parkNanos(1000)", "clock");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /** A spin loop starts with one chance for the normalizer to re-measure (LowLevelSpinWaiter's); no spin, none. */
    @Test
    void shouldLetTheNormalizerRefreshOnceWhenTheSpinLoopBegins() {
        int[] refreshes = new int[1];
        PauseNormalizer normalizer = new PauseNormalizer() {
            @Override
            public int yieldsPerNormalizedYield() {
                return 1;
            }

            @Override
            public int optimalMaxNormalizedYieldsPerSpinIteration() {
                return 7;
            }

            @Override
            public double nsPerPause() {
                return 37;
            }

            @Override
            public void refreshIfDue() {
                refreshes[0]++;
            }
        };
        LifoSemaphore semaphore = new LifoSemaphore(SpinContext.of(platform, Tuning.current(), normalizer), 0, 10, 3);
        platform.at(2, () -> seen.add("refreshes " + refreshes[0]));

        assertThat(semaphore.await(1_000, true)).isFalse();
        assertThat(semaphore.await(1_000, false)).as("no spin, no refresh").isFalse();

        assertThat(seen).containsExactly("refreshes 1");
        assertThat(refreshes[0]).isOne();
        assertThat(platform.calls()).startsWith("pause(1)", "pause(2)", "pause(4)");
    }

    /**
     * The spinner count saturates at 255 (its byte of the counts word): 255 spinners, each arriving
     * during the previous one's spin, then a 256th acquirer registers as a waiter without spinning.
     * All time out in the end, innermost first.
     */
    @Test
    void shouldBlockWithoutSpinningOnceTheSpinnerCountIsFull() {
        LifoSemaphore semaphore = semaphore(1);

        assertThat(arrive(semaphore, 1)).isFalse();

        assertThat(seen).containsExactly(counts(0, 1, LifoSemaphore.MAX_SPINNERS, 0));
        assertThat(platform.calls().stream().filter(call -> call.startsWith("pause(")).count())
                .as("one spin iteration per spinner").isEqualTo(LifoSemaphore.MAX_SPINNERS);
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    /** The n-th acquirer; the next arrives inside its first call (a spinner's spin, a waiter's deadline read). */
    private boolean arrive(LifoSemaphore semaphore, int n) {
        if (n <= LifoSemaphore.MAX_SPINNERS) {
            platform.atNextCall(() -> assertThat(arrive(semaphore, n + 1)).isFalse());
        } else {
            platform.atNextCall(() -> seen.add(semaphore.toString()));
        }
        return semaphore.await(1_000, true);
    }

    /**
     * A waiter below a newer one leaves the stack (times out, played for a "ghost" waiter whose thread
     * never runs): the newer waiter stays stacked, and the next signal wakes it.
     */
    @Test
    void shouldKeepTheNewerWaiterStackedWhenAnOlderOneLeavesFromBelowIt() throws Exception {
        LifoSemaphore semaphore = semaphore(0);
        Object waiters = field(LifoSemaphore.class, "waiters").get(semaphore);
        Field top = field(LifoSemaphore.LifoWaiters.class, "top");
        LifoSemaphore.LifoWaiters.Node ghost = new LifoSemaphore.LifoWaiters.Node(new Thread(() -> { }, "ghost"));
        ghost.linked = true;
        top.set(waiters, ghost); // stacked as a parked thread would be, before the waiter below
        Method unlinkIfWaiting = LifoSemaphore.LifoWaiters.class.getDeclaredMethod("unlinkIfWaiting",
                LifoSemaphore.LifoWaiters.Node.class);
        unlinkIfWaiting.setAccessible(true);
        platform.atNext("parkNanos(1000)", () -> {
            try {
                seen.add("ghost timed out " + unlinkIfWaiting.invoke(waiters, ghost));
                Object newTop = top.get(waiters);
                seen.add("top is the waiter " + (newTop != ghost && newTop != null));
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            semaphore.release(1);
        });

        assertThat(semaphore.await(1_000, false)).isTrue();

        assertThat(seen).containsExactly("ghost timed out true", "top is the waiter true");
        assertThat(platform.calls()).containsExactly("clock", "clock", "clock", "clock", "parkNanos(1000)",
                "unpark(me)");
        assertThat(semaphore).hasToString(counts(0, 0, 0, 0));
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
