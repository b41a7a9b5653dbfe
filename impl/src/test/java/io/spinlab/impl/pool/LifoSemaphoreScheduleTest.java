package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * LifoSemaphore's spin before it blocks, call by call, on one thread and a recording platform:
 * a signal is released from a platform call at a chosen point of the spin, or the timeout has
 * passed by the time the spinner turns waiter, so no thread ever parks.
 */
class LifoSemaphoreScheduleTest {

    private static LifoSemaphore semaphore(RecordingPlatform platform, int initial, int spinCount) {
        SpinContext context = SpinContext.of(platform, Tuning.current(), new FixedPauseNormalizer());
        return new LifoSemaphore(context, initial, 10, spinCount);
    }

    private static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    @Test
    void shouldCountItselfAsASpinnerAndTakeASignalReleasedDuringTheSpin() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        LifoSemaphore semaphore = semaphore(platform, 0, 20);
        int[] seen = new int[2];
        platform.afterCalls(3, () -> {
            seen[0] = semaphore.spinnerCount();
            seen[1] = semaphore.waiterCount();
            semaphore.release(1);
        });

        assertThat(semaphore.await(1_000_000_000L, true)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)");
        assertThat(seen).containsExactly(1, 0);
        assertThat(semaphore.spinnerCount()).isZero();
        assertThat(semaphore.signalCount()).isZero();
        assertThat(semaphore).hasToString("LifoSemaphore[signals=0, waiters=0, spinners=0, signaledToWake=0]");
    }

    @Test
    void shouldBackOffThenAlternateSleepZeroAndGiveUpUnregisteredWhenTheTimeoutHasPassed() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        LifoSemaphore semaphore = semaphore(platform, 0, 14);
        platform.recordClockReads(true);

        assertThat(semaphore.await(10, true)).isFalse();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(7)", "pause(7)",
                "pause(7)", "pause(7)", "pause(7)", "pause(7)", "pause(7)", "sleep(0)", "pause(7)", "sleep(0)",
                "pause(7)", "clock", "clock");
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.spinnerCount()).isZero();
    }

    @Test
    void shouldOnlySleepZeroFromTheThresholdOnOnASingleProcessor() {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        LifoSemaphore semaphore = semaphore(platform, 0, 13);

        assertThat(semaphore.await(10, true)).isFalse();

        assertThat(calls(platform)).containsExactly("sleep(0)", "sleep(0)", "sleep(0)");
        assertThat(semaphore.waiterCount()).isZero();
    }

    @Test
    void shouldNotSpinWhenAskedNotToOrWhenASignalIsThere() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        LifoSemaphore semaphore = semaphore(platform, 1, 20);

        assertThat(semaphore.await(10, true)).isTrue();
        assertThat(semaphore.await(0, true)).isFalse();
        assertThat(semaphore.await(10, false)).isFalse();

        assertThat(calls(platform)).isEmpty();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.signalCount()).isZero();
    }

    @Test
    void shouldAllowReleasingUpToTheMaximumExactly() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        LifoSemaphore semaphore = semaphore(platform, 4, 0);

        semaphore.release(6);
        assertThat(semaphore.signalCount()).isEqualTo(10);
        assertThatThrownBy(() -> semaphore.release(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> semaphore.release(0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new LifoSemaphore(SpinContext.hardware(), 0, 1, 0).signalCount()).isZero();
        assertThat(new LifoSemaphore(SpinContext.hardware(), 1, 1, 0).signalCount()).isEqualTo(1);
        assertThatThrownBy(() -> new LifoSemaphore(SpinContext.hardware(), 2, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifoSemaphore(SpinContext.hardware(), 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifoSemaphore(SpinContext.hardware(), -1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifoSemaphore(SpinContext.hardware(), 0, 1, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
