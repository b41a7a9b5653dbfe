package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wait queue's park loop and guard on a {@link ScriptedPlatform}: what each wake-up returns, how
 * long a timed park is asked to last, interrupts in both modes, a signal that arrives at the deadline
 * check, removal from any position, and the guard's back-off (16 PAUSEs, then yields).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitQueueTest {
    private static final long NO_DEADLINE = Long.MAX_VALUE;
    private static final long START_NS = 5_000;

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
    private final WaitQueue queue = new WaitQueue(platform);
    private final WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread());

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private void enqueue(WaitQueue.Waiter w) {
        queue.lockGuard();
        try {
            queue.addLast(w);
        } finally {
            queue.unlockGuard();
        }
    }

    private static WaitQueue.Waiter ghost(String name) {
        return new WaitQueue.Waiter(new Thread(() -> { }, name));
    }

    @Test
    void shouldParkUntilSignaledThroughSpuriousWakeUpsWithoutReadingTheClockWhenUntimed() {
        enqueue(me);
        platform.at(1, () -> { });
        platform.at(2, () -> {
            queue.lockGuard();
            WaitQueue.Waiter first = queue.pollFirst();
            queue.unlockGuard();
            assertThat(first).isSameAs(me);
            queue.signal(first);
        });

        assertThat(queue.await(me, this, NO_DEADLINE, true)).isEqualTo(WaitQueue.Wake.SIGNALED);

        assertThat(platform.calls()).containsExactly("park", "park", "unpark(me)");
        assertThat(me.signaled()).isTrue();
        assertThat(me.queued).isFalse();
    }

    @Test
    void shouldParkForExactlyTheTimeLeftAfterASpuriousWakeUpAndTimeOutAtTheDeadline() {
        platform.at(2, () -> platform.setNanos(START_NS + 200));

        assertThat(queue.await(me, this, START_NS + 500, true)).isEqualTo(WaitQueue.Wake.TIMED_OUT);

        assertThat(platform.calls()).containsExactly("clock", "parkNanos(500)", "clock", "parkNanos(300)", "clock");
        assertThat(platform.nanos()).isEqualTo(START_NS + 500);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -1_000})
    void shouldTimeOutWithoutParkingWhenNoTimeIsLeft(long left) {
        assertThat(queue.await(me, this, START_NS + left, false)).isEqualTo(WaitQueue.Wake.TIMED_OUT);

        assertThat(platform.calls()).containsExactly("clock");
    }

    @Test
    void shouldParkWhenOneNanosecondIsLeft() {
        assertThat(queue.await(me, this, START_NS + 1, false)).isEqualTo(WaitQueue.Wake.TIMED_OUT);

        assertThat(platform.calls()).containsExactly("clock", "parkNanos(1)", "clock");
    }

    @Test
    void shouldReportTheSignalThatArrivesAtTheDeadlineCheck() {
        platform.at(1, () -> queue.signal(me));

        assertThat(queue.await(me, this, START_NS, false)).isEqualTo(WaitQueue.Wake.SIGNALED);

        assertThat(platform.calls()).containsExactly("clock", "unpark(me)");
    }

    @Test
    void shouldReturnAtOnceWhenAlreadySignaledEvenIfInterrupted() {
        queue.signal(me);
        Thread.currentThread().interrupt();

        assertThat(queue.await(me, this, START_NS, true)).isEqualTo(WaitQueue.Wake.SIGNALED);

        assertThat(Thread.interrupted()).as("interrupt left for the caller").isTrue();
        assertThat(platform.calls()).as("the signal's unpark only").containsExactly("unpark(me)");
    }

    @Test
    void shouldReturnInterruptedAndClearTheStatusWhenInterruptible() {
        platform.at(1, () -> Thread.currentThread().interrupt());

        assertThat(queue.await(me, this, NO_DEADLINE, true)).isEqualTo(WaitQueue.Wake.INTERRUPTED);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(platform.calls()).containsExactly("park");
    }

    @Test
    void shouldReturnInterruptedWithoutParkingWhenInterruptedBeforeTheWait() {
        Thread.currentThread().interrupt();

        assertThat(queue.await(me, this, START_NS + 1_000, true)).isEqualTo(WaitQueue.Wake.INTERRUPTED);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldKeepParkingThroughAnInterruptAndReassertItWhenUninterruptible() {
        platform.at(1, () -> Thread.currentThread().interrupt());
        platform.at(2, () -> queue.signal(me));

        assertThat(queue.await(me, this, NO_DEADLINE, false)).isEqualTo(WaitQueue.Wake.SIGNALED);

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.calls()).containsExactly("park", "park", "unpark(me)");
    }

    @Test
    void shouldReassertTheInterruptWhenAnUninterruptibleWaitTimesOut() {
        platform.at(2, () -> Thread.currentThread().interrupt());

        assertThat(queue.await(me, this, START_NS + 100, false)).isEqualTo(WaitQueue.Wake.TIMED_OUT);

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.calls()).containsExactly("clock", "parkNanos(100)", "clock", "parkNanos(100)", "clock");
    }

    @Test
    void shouldRemoveFromHeadMiddleAndTailAndRefuseANodeNotQueued() {
        WaitQueue.Waiter a = ghost("a");
        WaitQueue.Waiter b = ghost("b");
        WaitQueue.Waiter c = ghost("c");
        WaitQueue.Waiter d = ghost("d");
        List.of(a, b, c, d).forEach(this::enqueue);
        queue.lockGuard();
        try {
            assertThat(queue.size()).isEqualTo(4);
            assertThat(queue.remove(b)).isTrue();
            assertThat(queue.remove(b)).isFalse();
            assertThat(queue.remove(d)).isTrue();
            assertThat(queue.remove(a)).isTrue();
            assertThat(queue.size()).isEqualTo(1);
            assertThat(queue.isEmpty()).isFalse();
            assertThat(List.of(a.queued, b.queued, c.queued, d.queued)).containsExactly(false, false, true, false);
            assertThat(a.next).isNull();
            assertThat(a.prev).isNull();
            queue.addLast(a);
            assertThat(queue.pollFirst()).isSameAs(c);
            assertThat(queue.pollFirst()).isSameAs(a);
            assertThat(queue.pollFirst()).isNull();
            assertThat(queue.remove(c)).isFalse();
            assertThat(queue.isEmpty()).isTrue();
        } finally {
            queue.unlockGuard();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 16, 17, 19})
    void shouldPauseSixteenTimesThenYieldWhileTheGuardIsHeld(int releasedAtCall) {
        queue.lockGuard();
        platform.at(releasedAtCall, queue::unlockGuard);

        queue.lockGuard();

        List<String> expected = new ArrayList<>(Collections.nCopies(Math.min(releasedAtCall, 16), "pause(1)"));
        expected.addAll(Collections.nCopies(Math.max(0, releasedAtCall - 16), "yield"));
        assertThat(platform.calls()).containsExactlyElementsOf(expected);
        assertThat(queue.isEmpty()).as("guard held: size readable under -ea").isTrue();
        queue.unlockGuard();
        assertThat(platform.pendingActions()).isZero();
    }
}
