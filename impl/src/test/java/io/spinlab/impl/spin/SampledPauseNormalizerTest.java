package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sampling loop PAUSE batch by PAUSE batch, on platforms where every batch is predictable:
 * a PAUSE and a clock read of fixed cost. The expected batches follow from the loop's rule
 * (first batch sample / estimate + 1, then total × (sample − elapsed) / elapsed + 1, at least 4,
 * a quarter of the total while no time passes, at most 40,000 per sample).
 */
class SampledPauseNormalizerTest {

    static List<Long> batches(RecordingPlatform platform) {
        return platform.calls().stream().filter(c -> c.kind().equals("pause")).map(RecordingPlatform.Call::amount)
                .toList();
    }

    static SampledPauseNormalizer measured(RecordingPlatform platform) {
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(platform);
        normalizer.refreshIfDue();
        return normalizer;
    }

    @Test
    void shouldTopUpAShortFirstBatchByTheTimeThatIsLeftWhenTheEstimateIsHigh() {
        // 4 ns per PAUSE, free clock: 28 PAUSEs fill 112 of 1,000 ns; 28 × 888 / 112 + 1 = 223 more.
        RecordingPlatform platform = new RecordingPlatform(8, 4, 0);

        SampledPauseNormalizer normalizer = measured(platform);

        assertThat(batches(platform)).containsExactly(28L, 223L, 251L, 251L, 251L, 251L, 251L, 251L, 251L);
        assertThat(normalizer.nsPerPause()).isEqualTo(4.0);
        assertThat(normalizer).hasToString("sampled(4.0 ns/PAUSE, yields=9, optimalMax=8)");
    }

    @Test
    void shouldStopASampleWhenItsTimeIsSpentExactly() {
        // 28 PAUSEs of 35 ns plus one 20 ns clock read: exactly 1,000 ns, so no second batch.
        RecordingPlatform platform = new RecordingPlatform(8, 35, 20);

        measured(platform);

        assertThat(batches(platform)).containsExactly(28L, 29L, 29L, 29L, 29L, 29L, 29L, 29L);
    }

    @Test
    void shouldGrowByAQuarterWhileNoTimePassesAndStopAtTheCap() {
        RecordingPlatform platform = new RecordingPlatform(8, 0, 0);

        SampledPauseNormalizer normalizer = measured(platform);

        List<Long> batches = batches(platform);
        assertThat(batches.subList(0, 12)).containsExactly(28L, 7L, 8L, 10L, 13L, 16L, 20L, 25L, 31L, 39L, 49L, 61L);
        assertThat(batches).hasSize(90);
        assertThat(platform.pauses()).isEqualTo(8 * SampledPauseNormalizer.MAX_PAUSES_PER_SAMPLE);
        assertThat(normalizer.nsPerPause()).isEqualTo(SampledPauseNormalizer.MIN_NS_PER_PAUSE);
    }

    @Test
    void shouldTakeLongSamplesWhenTwoClockReadsCostAQuarterOfAShortOneExactly() {
        // 250 ns between two reads: 4 µs samples, first batch 4,000 / 37 + 1 = 109.
        RecordingPlatform platform = new RecordingPlatform(8, 40, 250);

        measured(platform);

        assertThat(batches(platform)).containsExactly(109L, 95L, 95L, 95L, 95L, 95L, 95L, 95L);
    }

    @Test
    void shouldRemeasureOnceTheFullPeriodHasPassedAndNotBefore() {
        RecordingPlatform platform = new RecordingPlatform(8, 4, 0);
        SampledPauseNormalizer normalizer = measured(platform);
        int afterFirst = batches(platform).size();

        platform.advance(SampledPauseNormalizer.MEASUREMENT_PERIOD_NANOS - 1);
        normalizer.refreshIfDue();
        assertThat(batches(platform)).hasSize(afterFirst);
        platform.advance(1);
        normalizer.refreshIfDue();

        assertThat(batches(platform).subList(afterFirst, afterFirst + 1)).containsExactly(251L);
        assertThat(batches(platform)).hasSize(afterFirst + 1);
    }

    @Test
    void shouldNotRemeasureRightAfterAMeasurementTakenLateOnTheClock() {
        RecordingPlatform platform = new RecordingPlatform(8, 4, 0);
        platform.advance(3 * SampledPauseNormalizer.MEASUREMENT_PERIOD_NANOS);
        SampledPauseNormalizer normalizer = measured(platform);
        int afterFirst = batches(platform).size();

        normalizer.refreshIfDue();

        assertThat(batches(platform)).hasSize(afterFirst);
    }

    @Test
    void shouldSayItIsUnmeasuredBeforeTheFirstSample() {
        assertThat(new SampledPauseNormalizer(new RecordingPlatform(8, 4, 0)))
                .hasToString("sampled(unmeasured, yields=1, optimalMax=7)");
    }
}
