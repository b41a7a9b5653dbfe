package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PauseNormalizerTest {

    @Test
    void shouldSettleOnOneYieldForASkylakePause() {
        // A free clock read makes the sample exact; the next test shows a costly read changes nothing derived.
        RecordingPlatform skylake = new RecordingPlatform(8, 140 / 3.4, 0);
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(skylake);
        normalizer.refreshIfDue();
        assertThat(normalizer.nsPerPause()).isCloseTo(140 / 3.4, within(0.5));
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo(1);
        assertThat(normalizer.optimalMaxNormalizedYieldsPerSpinIteration()).isEqualTo(7);
    }

    @Test
    void shouldSettleOnManyYieldsForAPreSkylakePause() {
        RecordingPlatform sandyBridge = new RecordingPlatform(12, 10 / 3.2, 0);
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(sandyBridge);
        normalizer.refreshIfDue();
        double ns = 10 / 3.2;
        assertThat(normalizer.nsPerPause()).isCloseTo(ns, within(0.1));
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo((int) (37 / ns + 0.5));
        assertThat(normalizer.optimalMaxNormalizedYieldsPerSpinIteration())
                .isEqualTo((int) (272 / (normalizer.yieldsPerNormalizedYield() * ns) + 0.5));
    }

    @Test
    void shouldInflateASampleByAtMostTheClockReadsItContains() {
        for (int cycles : new int[] {10, 140, 300}) {
            RecordingPlatform exact = new RecordingPlatform(8, cycles / 3.2, 0);
            RecordingPlatform costly = new RecordingPlatform(8, cycles / 3.2, 25);
            SampledPauseNormalizer a = new SampledPauseNormalizer(exact);
            SampledPauseNormalizer b = new SampledPauseNormalizer(costly);
            a.refreshIfDue();
            b.refreshIfDue();
            // A 1 µs sample holds a few 25 ns clock reads: at most ~8 % more per PAUSE.
            assertThat(b.nsPerPause()).isBetween(a.nsPerPause() - 0.01, a.nsPerPause() * 1.08);
        }
    }

    @Test
    void shouldUseDefaultsBeforeTheFirstMeasurement() {
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(RecordingPlatform.ofCycles(8, 10, 3.0));
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo(PauseNormalizer.DEFAULT_YIELDS_PER_NORMALIZED_YIELD);
        assertThat(normalizer.optimalMaxNormalizedYieldsPerSpinIteration())
                .isEqualTo(PauseNormalizer.DEFAULT_OPTIMAL_MAX_NORMALIZED_YIELDS_PER_SPIN_ITERATION);
    }

    @Test
    void shouldTakeEightShortSamplesFirstAndRemeasureOnlyAfterFourSeconds() {
        RecordingPlatform platform = RecordingPlatform.ofCycles(8, 140, 3.5);
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(platform);
        long start = platform.nanoTime();
        normalizer.refreshIfDue();
        long firstCost = platform.nanoTime() - start;
        // Eight samples of 1 µs each (the clock read costs 20 ns < 250 ns), a little more for overshoot.
        assertThat(firstCost).isBetween(8 * 1_000L, 8 * 1_400L);

        long pausesAfterFirst = platform.pauses();
        normalizer.refreshIfDue();
        assertThat(platform.pauses()).isEqualTo(pausesAfterFirst);

        platform.advance(SampledPauseNormalizer.MEASUREMENT_PERIOD_NANOS);
        normalizer.refreshIfDue();
        long oneSample = platform.pauses() - pausesAfterFirst;
        assertThat(oneSample * 40.0).isBetween(1_000.0, 1_400.0);
    }

    @Test
    void shouldUseLongSamplesWhenTheClockIsSlow() {
        RecordingPlatform slowClock = new RecordingPlatform(8, 40, 300);
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(slowClock);
        long start = slowClock.nanoTime();
        normalizer.refreshIfDue();
        assertThat(slowClock.nanoTime() - start).isGreaterThanOrEqualTo(8 * 4_000L);
    }

    @Test
    void shouldKeepTheMinimumOfTheLastEightSamples() {
        MutablePausePlatform platform = new MutablePausePlatform();
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(platform);
        platform.nsPerPause = 40;
        normalizer.refreshIfDue();
        assertThat(normalizer.nsPerPause()).isCloseTo(40, within(1.0));
        // Interference makes a later sample slower: the minimum still wins.
        platform.nsPerPause = 80;
        platform.now += SampledPauseNormalizer.MEASUREMENT_PERIOD_NANOS;
        normalizer.refreshIfDue();
        assertThat(normalizer.nsPerPause()).isCloseTo(40, within(1.0));
        // Eight slower samples push the old fast ones out of the ring.
        for (int i = 0; i < SampledPauseNormalizer.SAMPLE_COUNT; i++) {
            platform.now += SampledPauseNormalizer.MEASUREMENT_PERIOD_NANOS;
            normalizer.refreshIfDue();
        }
        assertThat(normalizer.nsPerPause()).isCloseTo(80, within(2.0));
    }

    @Test
    void shouldClampAPauseThatCostsNothing() {
        MutablePausePlatform platform = new MutablePausePlatform();
        platform.nsPerPause = 0;
        platform.clockReadNs = 1;
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(platform);
        normalizer.refreshIfDue();
        assertThat(normalizer.nsPerPause()).isGreaterThanOrEqualTo(SampledPauseNormalizer.MIN_NS_PER_PAUSE);
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo(PauseNormalizer.MAX_YIELDS_PER_NORMALIZED_YIELD);
    }

    @Test
    void oneShotShouldMeasureOnceForTenMilliseconds() {
        RecordingPlatform platform = RecordingPlatform.ofCycles(4, 10, 4.4);
        OneShotPauseNormalizer normalizer = new OneShotPauseNormalizer(platform);
        long start = platform.nanoTime();
        normalizer.refreshIfDue();
        assertThat(platform.nanoTime() - start).isGreaterThanOrEqualTo(OneShotPauseNormalizer.MEASURE_NANOS);
        double ns = 10 / 4.4;
        assertThat(normalizer.nsPerPause()).isCloseTo(ns, within(0.1));
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo((int) (37 / ns + 0.5));
        long pauses = platform.pauses();
        platform.advance(60_000_000_000L);
        normalizer.refreshIfDue();
        assertThat(platform.pauses()).isEqualTo(pauses);
    }

    @Test
    void oneShotShouldFloorAtOneNanosecond() {
        MutablePausePlatform platform = new MutablePausePlatform();
        platform.nsPerPause = 0.25;
        OneShotPauseNormalizer normalizer = new OneShotPauseNormalizer(platform);
        normalizer.refreshIfDue();
        assertThat(normalizer.nsPerPause()).isEqualTo(1.0);
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo(37);
    }

    @Test
    void derivedValuesShouldMatchThePublishedExamples() {
        // Skylake ≈ 40 ns: 1 yield, round(272/40) = 7. Pre-Skylake ≈ 4 ns: 9 yields, round(272/36) = 8.
        assertThat(PauseNormalizer.yieldsFor(40)).isEqualTo(1);
        assertThat(PauseNormalizer.optimalMaxFor(1, 40)).isEqualTo(7);
        assertThat(PauseNormalizer.yieldsFor(4)).isEqualTo(9);
        assertThat(PauseNormalizer.optimalMaxFor(9, 4)).isEqualTo(8);
        assertThat(PauseNormalizer.yieldsFor(200)).isEqualTo(1);
    }

    /** A platform whose PAUSE cost can change between measurements. */
    static final class MutablePausePlatform extends io.spinlab.impl.testing.DelegatingPlatform {
        double nsPerPause = 40;
        double clockReadNs = 20;
        double now = 1_000_000;

        @Override
        public long nanoTime() {
            now += clockReadNs;
            return (long) now;
        }

        @Override
        public void pause(int count) {
            now += count * nsPerPause;
        }
    }
}
