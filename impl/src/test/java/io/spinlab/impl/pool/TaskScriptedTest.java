package io.spinlab.impl.pool;

import io.spinlab.impl.testing.ScriptedPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Waiting for a Task past its spin, on a {@link ScriptedPlatform}: the waiter blocks on the task's
 * event (its internal Monitor's park), and the test thread runs, cancels or interrupts inside that park
 * or at a chosen spin call, moving the clock when the scenario says so. Schedules show the spin before
 * blocking (35 SpinOnce calls for the current tuning) as {@code spin(35)}; its shape is pinned by
 * {@link TaskScheduleTest}. No pool is needed for a task without continuations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskScriptedTest {
    private static final long START_NS = 9_000_000;

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private Task<String> task() {
        return new Task<>(null, platform.context(Tuning.current()), () -> "done");
    }

    @Test
    void shouldBlockWithoutATimeoutUntilTheTaskRuns() throws Exception {
        Task<String> task = task();
        platform.atNext("park", task);

        assertThat(task.get()).isEqualTo("done");

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("spin(35)", "park", "unpark(me)");
        assertThat(platform.pendingActions()).isZero();
    }

    /** The timed wait on the event gets what is left of the timeout after the spin (here 600 of 1,000 ns). */
    @Test
    void shouldWaitOnTheEventForWhatTheSpinLeftOfTheTimeout() throws Exception {
        Task<String> task = task();
        platform.at(10, () -> platform.setNanos(START_NS + 400)); // a spin call

        assertThat(task.await(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(35)", "clock", "clock", "clock",
                "clock", "clock", "parkNanos(600)", "clock", "clock");
        assertThat(platform.nanos()).isEqualTo(START_NS + 1_000);
        assertThat(task.isDone()).isFalse();
    }

    @Test
    void shouldReturnTrueWhenTheTaskRunsDuringTheTimedWait() throws Exception {
        Task<String> task = task();
        platform.atNext("parkNanos(1000)", task);

        assertThat(task.await(1_000, TimeUnit.NANOSECONDS)).isTrue();

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(35)", "clock", "clock", "clock",
                "clock", "clock", "parkNanos(1000)", "unpark(me)");
        assertThat(task.join()).isEqualTo("done");
    }

    /**
     * The timeout passes exactly at the end of the spin, and an interrupt came during it: the wait reports
     * the timeout without waiting on the event (which would have thrown for the interrupt); the
     * interrupt is kept.
     */
    @Test
    void shouldNotWaitOnTheEventWhenTheSpinEndsExactlyAtTheDeadline() throws Exception {
        Task<String> task = task();
        platform.at(10, () -> {
            platform.setNanos(START_NS + 1_000);
            Thread.currentThread().interrupt();
        });

        assertThat(task.await(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", "spin(35)", "clock");
    }

    /** A completed task answers any wait at once, even a zero-timeout one from an interrupted thread. */
    @Test
    void shouldAnswerAWaitOnACompletedTaskBeforeLookingAtTheInterrupt() throws Exception {
        Task<String> task = task();
        task.run();
        Thread.currentThread().interrupt();

        assertThat(task.await(0, TimeUnit.NANOSECONDS)).isTrue();

        assertThat(Thread.interrupted()).as("kept").isTrue();
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldThrowForAnInterruptedWaiterBeforeSpinning() {
        Task<String> task = task();
        Thread.currentThread().interrupt();

        assertThatThrownBy(task::get).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).as("consumed by the exception").isFalse();
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldWakeABlockedGetWhenTheTaskIsCancelled() {
        Task<String> task = task();
        platform.atNext("park", () -> assertThat(task.cancel(false)).isTrue());

        assertThatThrownBy(task::get).isInstanceOf(CancellationException.class).hasMessage("task cancelled");

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("spin(35)", "park", "unpark(me)");
        assertThat(task.isCancelled()).isTrue();
        assertThat(task).hasToString("Task[cancelled]");
    }

    /** join is not interruptible: an interrupt ends one wait on the event, join waits again and re-asserts it. */
    @Test
    void shouldWaitAgainAfterAnInterruptAndKeepItWhenJoining() {
        Task<String> task = task();
        platform.atNext("park", () -> Thread.currentThread().interrupt());
        platform.atNext("park", task);

        assertThat(task.join()).isEqualTo("done");

        assertThat(Thread.interrupted()).isTrue();
        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("spin(35)", "park", "spin(35)", "park",
                "unpark(me)");
    }

    @Test
    void shouldReportEachStateInToString() {
        Task<String> task = task();
        assertThat(task).hasToString("Task[new]");
        task.run();
        assertThat(task).hasToString("Task[succeeded]");
        Task<String> failing = new Task<>(null, platform.context(Tuning.current()), () -> {
            throw new IllegalStateException("boom");
        });
        failing.run();
        assertThat(failing).hasToString("Task[failed]");
    }

    @Test
    void shouldRejectANegativeTimeout() {
        Task<String> task = task();

        assertThatIllegalArgumentException().isThrownBy(() -> task.await(-1, TimeUnit.NANOSECONDS))
                .withMessage("timeout = -1 is negative; allowed 0 or more");
        assertThat(platform.calls()).isEmpty();
    }
}
