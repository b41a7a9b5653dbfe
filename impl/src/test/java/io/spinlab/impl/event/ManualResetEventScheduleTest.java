package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ManualResetEvent's wait up to the point where it would block, on one thread and a recording
 * platform: the event is set from a platform call at a chosen point of the waiter's spin, or the
 * timeout runs out during the spin, so no thread ever parks.
 */
class ManualResetEventScheduleTest {

    private static SpinContext context(RecordingPlatform platform, String tuning) {
        return SpinContext.of(platform, Tuning.parse(tuning), new FixedPauseNormalizer());
    }

    @Test
    void shouldPassAtTheSpinIterationThatSeesTheSetWhenSetDuringTheSpin() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        ManualResetEvent event = new ManualResetEvent(context(platform, "current,spin=unscaled,pause=raw"));
        platform.afterCalls(3, event::set);

        assertThat(event.await(1, TimeUnit.SECONDS)).isTrue();

        assertThat(platform.calls()).extracting(Object::toString).containsExactly("pause(4)", "pause(8)", "pause(16)");
        assertThat(event.waiterCount()).isZero();
    }

    @Test
    void shouldReturnFalseWithoutBlockingWhenTheTimeoutPassedDuringTheSpin() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        ManualResetEvent event = new ManualResetEvent(context(platform, "current,spin=unscaled,pause=raw"));

        // Ten unscaled iterations: 4 << i PAUSEs of 40 ns and one yield, far past 1 us.
        assertThat(event.await(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(platform.calls()).hasSize(10);
        assertThat(event.waiterCount()).isZero();
        assertThat(event.isSet()).isFalse();
    }

    @Test
    void shouldNeitherSpinNorReadTheClockWhenTheTimeoutIsZero() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        ManualResetEvent event = new ManualResetEvent(context(platform, "current"));
        platform.recordClockReads(true);

        assertThat(event.await(0, TimeUnit.NANOSECONDS)).isFalse();
        event.set();
        assertThat(event.await(0, TimeUnit.NANOSECONDS)).isTrue();

        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldSpinOnlyOnceOnASingleProcessorWhateverWasAsked() {
        RecordingPlatform one = new RecordingPlatform(1, 40, 20);
        RecordingPlatform two = new RecordingPlatform(2, 40, 20);

        assertThat(new ManualResetEvent(context(one, "current"), false, 100).spinCount()).isEqualTo(1);
        assertThat(new ManualResetEvent(context(one, "current"), false, 0).spinCount()).isZero();
        assertThat(new ManualResetEvent(context(two, "current"), false, 100).spinCount()).isEqualTo(100);
        assertThat(new ManualResetEvent(context(two, "current"), true, ManualResetEvent.MAX_SPIN_COUNT).spinCount())
                .isEqualTo(ManualResetEvent.MAX_SPIN_COUNT);
    }

    @Test
    void shouldKeepTheSpinCountAndWaitersWhenSetAndReset() {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        ManualResetEvent event = new ManualResetEvent(context(platform, "current"), false, 7);

        event.set();
        assertThat(event.isSet()).isTrue();
        assertThat(event).hasToString("ManualResetEvent[set, waiters=0, spin=spinonce×7]");
        event.set();
        assertThat(event.isSet()).isTrue();
        event.reset();
        assertThat(event.isSet()).isFalse();
        assertThat(event.spinCount()).isEqualTo(7);
        assertThat(event.waiterCount()).isZero();
        assertThat(event).hasToString("ManualResetEvent[unset, waiters=0, spin=spinonce×7]");
    }
}
