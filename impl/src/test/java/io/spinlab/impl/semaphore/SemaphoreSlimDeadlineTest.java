package io.spinlab.impl.semaphore;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A registered waiter's deadline check, on one thread: the timeout passes during the spin, so
 * the waiter registers and reads the clock once more before it would wait; the test releases
 * permits right after that read (the last call of a dry run), as another thread would.
 */
class SemaphoreSlimDeadlineTest {

    private static SemaphoreSlim semaphore(RecordingPlatform platform, int initial, int max) {
        return new SemaphoreSlim(SpinContext.of(platform, Tuning.current(), new FixedPauseNormalizer()), initial, max);
    }

    /** The number of platform calls (clock reads included) a 1 ns acquire makes up to its deadline check. */
    private static int callsUpToTheDeadlineCheck() throws InterruptedException {
        RecordingPlatform dry = new RecordingPlatform(4, 40, 20);
        dry.recordClockReads(true);
        assertThat(semaphore(dry, 0, 2).tryAcquire(1, TimeUnit.NANOSECONDS)).isFalse();
        assertThat(dry.calls().getLast().kind()).as("the deadline check reads the clock last").isEqualTo("clock");
        assertThat(dry.calls()).hasSize(SemaphoreSlim.SPIN_ITERATIONS + 2); // start, the spin, the check
        return dry.calls().size();
    }

    @Test
    void shouldTakeAPermitThatIsThereAtTheDeadlineAndCountItAsReleasedToAWaiter() throws InterruptedException {
        int deadlineCheck = callsUpToTheDeadlineCheck();
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        platform.recordClockReads(true);
        SemaphoreSlim semaphore = semaphore(platform, 0, 2);
        int[] before = new int[3];
        platform.afterCalls(deadlineCheck, () -> {
            before[0] = semaphore.waiterCount();
            before[1] = semaphore.release();
            before[2] = semaphore.release();
        });

        assertThat(semaphore.tryAcquire(1, TimeUnit.NANOSECONDS)).as("the permit beats the timeout").isTrue();

        assertThat(before).as("waiters, then the counts before each release").containsExactly(1, 0, 1);
        assertThat(semaphore.currentCount()).isEqualTo(1);
        assertThat(semaphore.waiterCount()).isZero();
    }

    @Test
    void shouldRejectANegativeTimeout() {
        SemaphoreSlim semaphore = semaphore(new RecordingPlatform(4, 40, 20), 1, 1);

        assertThatIllegalArgumentException().isThrownBy(() -> semaphore.tryAcquire(-1, TimeUnit.NANOSECONDS))
                .withMessage("timeout = -1 is negative; allowed 0 or more");
        assertThat(semaphore.currentCount()).isEqualTo(1);
    }

    @Test
    void shouldThrowForAnInterruptedCallerEvenWithAPermitThere() {
        SemaphoreSlim semaphore = semaphore(new RecordingPlatform(4, 40, 20), 1, 1);

        Thread.currentThread().interrupt();
        assertThatThrownBy(semaphore::acquire).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).as("the status is consumed by the exception").isFalse();
        assertThat(semaphore.currentCount()).isEqualTo(1);
    }
}
