package io.spinlab.impl.semaphore;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SemaphoreSlim's acquire up to the point where it would block, on one thread and a recording
 * platform: a permit is released from a platform call at a chosen point of the acquirer's spin,
 * or the timeout runs out during the spin, so no thread ever parks.
 */
class SemaphoreSlimScheduleTest {

    private static SemaphoreSlim semaphore(RecordingPlatform platform, int initial, int max) {
        return new SemaphoreSlim(SpinContext.of(platform, Tuning.current(), new FixedPauseNormalizer()), initial, max);
    }

    private static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    @Test
    void shouldTakeThePermitAtTheSpinIterationAfterItsReleaseWhenReleasedDuringTheSpin()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, 0, 1);
        platform.afterCalls(3, semaphore::release);

        assertThat(semaphore.tryAcquire(1, TimeUnit.SECONDS)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)");
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
    }

    @Test
    void shouldSpinOneHundredFortySpinOncesWithoutSleepingOneMillisecondBeforeGivingUp()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, 0, 1);

        assertThat(semaphore.tryAcquire(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).hasSize(SemaphoreSlim.SPIN_ITERATIONS).doesNotContain("sleep(1000000)");
        assertThat(calls(platform).subList(8, 16)).containsExactly("pause(7)", "pause(7)", "yield", "pause(7)",
                "yield", "pause(7)", "yield", "pause(7)");
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldNeitherSpinNorReadTheClockWhenTheTimeoutIsZero() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, 1, 2);
        platform.recordClockReads(true);

        assertThat(semaphore.tryAcquire(0, TimeUnit.SECONDS)).isTrue();
        assertThat(semaphore.tryAcquire(0, TimeUnit.SECONDS)).isFalse();

        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldReturnTheCountBeforeAndAllowReleasingUpToTheMaximumExactly() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, 1, 4);

        assertThat(semaphore.release(3)).isEqualTo(1);
        assertThat(semaphore.currentCount()).isEqualTo(4);
        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.release()).isEqualTo(3);
        assertThat(semaphore).hasToString("SemaphoreSlim[count=4, max=4, waiters=0]");
        assertThat(semaphore(platform, 1, 1).currentCount()).as("initial = max = 1 is allowed").isEqualTo(1);
    }
}
