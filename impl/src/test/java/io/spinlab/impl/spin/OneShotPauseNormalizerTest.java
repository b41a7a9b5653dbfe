package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The one-shot 10 ms measurement's stopping rule, in batches of 1,000 PAUSEs. */
class OneShotPauseNormalizerTest {

    @Test
    void shouldStopWhenTenMillisecondsHavePassedExactly() {
        // 10 ns per PAUSE, free clock: 1,000 batches are exactly 10 ms.
        RecordingPlatform platform = new RecordingPlatform(4, 10, 0);
        OneShotPauseNormalizer normalizer = new OneShotPauseNormalizer(platform);

        normalizer.refreshIfDue();

        assertThat(platform.pauses()).isEqualTo(1_000_000);
        assertThat(normalizer.nsPerPause()).isEqualTo(10.0);
        assertThat(normalizer).hasToString("one-shot(10.0 ns/PAUSE, yields=4, optimalMax=7)");
    }

    @Test
    void shouldStopAtTenMillionPausesWhenEachCostsLessThanANanosecond() {
        RecordingPlatform platform = new RecordingPlatform(4, 0.5, 0);
        OneShotPauseNormalizer normalizer = new OneShotPauseNormalizer(platform);

        normalizer.refreshIfDue();

        assertThat(platform.pauses()).isEqualTo(OneShotPauseNormalizer.MEASURE_NANOS);
        assertThat(normalizer.nsPerPause()).isEqualTo(1.0);
    }
}
