package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Waiting for a Task up to the point where it would block, on one thread and a recording
 * platform: the task runs from a platform call at a chosen point of the waiter's spin, or the
 * timeout has passed by the end of the spin, so no thread ever parks. No pool is needed for a
 * task without continuations.
 */
class TaskScheduleTest {

    private static SpinContext context(RecordingPlatform platform) {
        return SpinContext.of(platform, Tuning.current(), new FixedPauseNormalizer());
    }

    @Test
    void shouldSeeTheTaskDoneAtTheSpinIterationAfterItRan() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        Task<String> task = new Task<>(null, context(platform), () -> "done");
        platform.afterCalls(3, task);

        assertThat(task.await(1, TimeUnit.SECONDS)).isTrue();

        assertThat(platform.calls()).extracting(Object::toString).containsExactly("pause(1)", "pause(2)", "pause(4)");
        assertThat(task.get()).isEqualTo("done");
        assertThat(task.isFailed()).isFalse();
        assertThat(task.isCancelled()).isFalse();
    }

    @Test
    void shouldReturnFalseWithoutBlockingWhenTheTimeoutPassedDuringTheSpin() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        Task<String> task = new Task<>(null, context(platform), () -> "done");

        assertThat(task.await(1_000, TimeUnit.NANOSECONDS)).isFalse();
        assertThatThrownBy(() -> task.get(1_000, TimeUnit.NANOSECONDS)).isInstanceOf(TimeoutException.class);

        assertThat(platform.calls()).hasSize(70).doesNotContain(new RecordingPlatform.Call("sleep", 1_000_000));
        assertThat(task.isDone()).isFalse();
    }

    @Test
    void shouldNeitherSpinNorReadTheClockWhenTheTimeoutIsZeroOrTheTaskIsDone() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        Task<String> task = new Task<>(null, context(platform), () -> "done");
        platform.recordClockReads(true);

        assertThat(task.await(0, TimeUnit.SECONDS)).isFalse();
        task.run();
        assertThat(task.await(0, TimeUnit.SECONDS)).isTrue();
        assertThat(task.await(1, TimeUnit.SECONDS)).isTrue();

        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldBeCancelledOnlyBeforeItStartsAndThenNeverRun() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        boolean[] ran = new boolean[1];
        Task<Void> task = new Task<>(null, context(platform), () -> {
            ran[0] = true;
            return null;
        });

        assertThat(task.cancel(false)).isTrue();
        assertThat(task.cancel(false)).isFalse();
        task.run();

        assertThat(ran[0]).isFalse();
        assertThat(task.isCancelled()).isTrue();
        assertThat(task.isDone()).isTrue();
        assertThat(task.isFailed()).isFalse();
        assertThatThrownBy(task::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void shouldKeepTheFailureAndRefuseCancellationWhenItFailed() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        IllegalStateException boom = new IllegalStateException("boom");
        Task<Void> task = new Task<>(null, context(platform), () -> {
            throw boom;
        });

        task.run();

        assertThat(task.isFailed()).isTrue();
        assertThat(task.isCancelled()).isFalse();
        assertThat(task.exception()).isSameAs(boom);
        assertThat(task.cancel(false)).isFalse();
    }
}
