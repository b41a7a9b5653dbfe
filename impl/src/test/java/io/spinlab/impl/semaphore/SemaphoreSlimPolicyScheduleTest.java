package io.spinlab.impl.semaphore;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.SemaphorePolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each {@code semaphore} knob value's spin before the Monitor, on one thread and a recording
 * platform, pinned against the .NET source it models (impl/GENERATION-SOURCES.md Q5):
 * netcore2.0's {@code while (m_currentCount == 0 && !spin.NextSpinWillYield) spin.SpinOnce();}
 * (dotnet/coreclr v2.0.6) and 2.1's {@code if (m_currentCount == 0)} 140 × {@code SpinOnce} that
 * break on a count (coreclr #13766, #15002, #18204). The timeouts are short enough to run out
 * during the spin, so no thread ever parks.
 */
class SemaphoreSlimPolicyScheduleTest {

    private static SemaphoreSlim semaphore(RecordingPlatform platform, String tuning, int initial) {
        SpinContext context = SpinContext.of(platform, Tuning.parse(tuning), new FixedPauseNormalizer());
        return new SemaphoreSlim(context, initial, 4);
    }

    private static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    /** 4 << count for counts 0..10: 2.0's SpinWait, whose NextSpinWillYield is count > 10. */
    private static List<String> elevenExponentialSpins() {
        return IntStream.rangeClosed(0, 10).mapToObj(count -> "pause(" + (4 << count) + ")").toList();
    }

    @Test
    void shouldSpinElevenSpinOncesOf8188RawPausesAndNeverYieldBeforeTheMonitorUnderUntilYield()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, "netcore2.0", 0);
        assertThat(semaphore.policy()).isEqualTo(SemaphorePolicy.UNTIL_YIELD);
        platform.recordClockReads(true);

        assertThat(semaphore.tryAcquire(1_000, TimeUnit.NANOSECONDS)).isFalse();

        List<String> expected = new ArrayList<>();
        expected.add("clock"); // the start time
        expected.addAll(elevenExponentialSpins());
        expected.add("clock"); // the deadline check, under the Monitor
        assertThat(calls(platform)).containsExactlyElementsOf(expected);
        assertThat(platform.pauses()).isEqualTo(8_188);
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldStopTheUntilYieldSpinAtTheFirstCheckAfterARelease() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, "netcore2.0", 0);
        platform.afterCalls(3, semaphore::release);

        assertThat(semaphore.tryAcquire(1, TimeUnit.SECONDS)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(4)", "pause(8)", "pause(16)");
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldNotSpinAtAllOnOneProcessorUnderUntilYieldBecauseTheFirstSpinOnceWouldYield()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, "netcore2.0", 0);

        // The two clock reads (20 ns each, unrecorded) already pass the 10 ns deadline.
        assertThat(semaphore.tryAcquire(10, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).isEmpty();
    }

    @Test
    void shouldYieldOneHundredFortyTimesOnOneProcessorUnderSpinOnceWithoutSleepingOneMillisecond()
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, "netcore2.1", 0);

        assertThat(semaphore.tryAcquire(10, TimeUnit.NANOSECONDS)).isFalse();

        // 2.1's SpinOnce yields every time on one processor, every fifth a Sleep(0).
        assertThat(calls(platform)).hasSize(SemaphoreSlim.SPIN_ITERATIONS).doesNotContain("sleep(1000000)")
                .noneMatch(call -> call.startsWith("pause"));
        assertThat(calls(platform).subList(0, 5)).containsExactly("yield", "yield", "yield", "yield", "sleep(0)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.1", "net6", "current,semaphore=lock-free"})
    void shouldSpinOneHundredFortySpinOncesWithoutSleepingOneMillisecondUnderSpinOnceAndLockFree(String tuning)
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, tuning, 0);

        assertThat(semaphore.tryAcquire(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).hasSize(SemaphoreSlim.SPIN_ITERATIONS).doesNotContain("sleep(1000000)");
        assertThat(calls(platform).subList(0, 4)).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(7)");
        assertThat(calls(platform).subList(10, 14)).containsExactly("yield", "pause(7)", "yield", "pause(7)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.0", "netcore2.1", "net6"})
    void shouldSkipTheSpinButStillReadTheStartTimeForAWaitThatFindsAPermitUnderTheMonitorProtocols(String tuning)
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, tuning, 1);
        platform.recordClockReads(true);

        assertThat(semaphore.tryAcquire(1, TimeUnit.SECONDS)).isTrue();

        // .NET reads the start time before it looks at the count; the lock is then free (no call).
        assertThat(calls(platform)).containsExactly("clock");
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldTakeAPermitThereWithoutReadingTheClockUnderLockFree() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, "current,semaphore=lock-free", 1);
        platform.recordClockReads(true);

        assertThat(semaphore.tryAcquire(1, TimeUnit.SECONDS)).isTrue();

        assertThat(platform.calls()).as("the CAS fast path comes first").isEmpty();
        assertThat(semaphore.currentCount()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.0", "net6", "current,semaphore=lock-free"})
    void shouldFailAZeroTimeoutWaitOnAnEmptySemaphoreWithoutSpinningUnderEveryPolicy(String tuning)
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SemaphoreSlim semaphore = semaphore(platform, tuning, 0);
        platform.recordClockReads(true);

        assertThat(semaphore.tryAcquire(0, TimeUnit.SECONDS)).isFalse();
        assertThat(semaphore.tryAcquire()).isFalse();

        assertThat(platform.calls()).isEmpty();
    }
}
