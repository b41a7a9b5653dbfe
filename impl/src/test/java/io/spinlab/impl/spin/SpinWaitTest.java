package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpinWaitTest {

    private static final Tuning NORMALIZED = Tuning.current();
    private static final Tuning RAW = Tuning.current().with(io.spinlab.model.tuning.Knob.PAUSE, PauseMode.RAW);

    /** What each SpinOnce did, as text, with the normalizer left at its defaults (1 and 7). */
    private static List<String> actions(Tuning tuning, int processors, int iterations, int sleep1Threshold) {
        RecordingPlatform platform = new RecordingPlatform(processors, 40, 20);
        SpinContext context = SpinContext.of(platform, tuning, new FixedNormalizer(1, 7));
        SpinWait spinner = new SpinWait(context);
        List<String> actions = new ArrayList<>();
        for (int i = 0; i < iterations; i++) {
            platform.clear();
            if (sleep1Threshold == Integer.MIN_VALUE) {
                spinner.spinOnce();
            } else {
                spinner.spinOnce(sleep1Threshold);
            }
            actions.add(String.join(" ", platform.calls().stream().map(Object::toString).toList()));
        }
        return actions;
    }

    @Test
    void shouldFollowTheCurrentScheduleWhenNormalized() {
        List<String> actions = actions(NORMALIZED, 8, 22, Integer.MIN_VALUE);
        assertThat(actions.subList(0, 10)).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(7)", "pause(7)",
                "pause(7)", "pause(7)", "pause(7)", "pause(7)", "pause(7)");
        assertThat(actions.subList(10, 20)).containsExactly("yield", "pause(7)", "yield", "pause(7)", "yield",
                "pause(7)", "yield", "pause(7)", "sleep(0)", "pause(7)");
        assertThat(actions.subList(20, 22)).containsExactly("sleep(1000000)", "sleep(1000000)");
    }

    @Test
    void shouldNeverSleepOneMillisecondWhenThresholdIsMinusOne() {
        List<String> actions = actions(NORMALIZED, 8, 60, -1);
        assertThat(actions).doesNotContain("sleep(1000000)");
        assertThat(actions.subList(20, 30)).containsExactly("yield", "pause(7)", "yield", "pause(7)", "yield",
                "pause(7)", "yield", "pause(7)", "sleep(0)", "pause(7)");
    }

    @Test
    void shouldRaiseLowSleep1ThresholdsToTheYieldThreshold() {
        List<String> actions = actions(NORMALIZED, 8, 11, 3);
        assertThat(actions.get(9)).isEqualTo("pause(7)");
        assertThat(actions.get(10)).isEqualTo("sleep(1000000)");
    }

    @Test
    void shouldMultiplyByYieldsPerNormalizedYield() {
        RecordingPlatform platform = new RecordingPlatform(8, 4, 20);
        SpinContext context = SpinContext.of(platform, NORMALIZED, new FixedNormalizer(9, 8));
        SpinWait spinner = new SpinWait(context);
        for (int i = 0; i < 5; i++) {
            spinner.spinOnce();
        }
        assertThat(platform.calls()).extracting(RecordingPlatform.Call::amount).containsExactly(9L, 18L, 36L, 72L, 72L);
    }

    @Test
    void shouldSpinTheCappedShapeInRawPausesCappedAtSixtyFourWhenRaw() {
        List<String> actions = actions(RAW, 8, 14, Integer.MIN_VALUE);
        assertThat(actions).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(8)", "pause(16)", "pause(32)",
                "pause(64)", "pause(64)", "pause(64)", "pause(64)", "yield", "pause(64)", "yield", "pause(64)");
    }

    @Test
    void shouldSpinFourShiftedByCountUpToCountTenWithTheExponentialShape() {
        List<String> actions = actions(Tuning.legacy(), 8, 31, Integer.MIN_VALUE);
        assertThat(actions.subList(0, 11)).containsExactly("pause(4)", "pause(8)", "pause(16)", "pause(32)",
                "pause(64)", "pause(128)", "pause(256)", "pause(512)", "pause(1024)", "pause(2048)", "pause(4096)");
        // From 11 on every iteration yields: Sleep(0) every 5th, Sleep(1) every 20th, counted from 10.
        assertThat(actions.subList(11, 15)).containsExactly("yield", "yield", "yield", "sleep(0)");
        assertThat(actions.get(29)).isEqualTo("sleep(1000000)");
        assertThat(actions.get(30)).isEqualTo("yield");
    }

    @Test
    void shouldAlwaysYieldOnASingleProcessor() {
        assertThat(actions(NORMALIZED, 1, 5, -1)).containsExactly("yield", "yield", "yield", "yield", "sleep(0)");
        assertThat(actions(RAW, 1, 2, -1)).containsExactly("yield", "yield");
    }

    @Test
    void shouldReportNextSpinWillYieldFromTheYieldThreshold() {
        SpinWait spinner = new SpinWait(SpinContext.of(new RecordingPlatform(4, 40, 20), NORMALIZED));
        for (int i = 0; i < SpinWait.YIELD_THRESHOLD; i++) {
            assertThat(spinner.nextSpinWillYield()).isFalse();
            spinner.spinOnce();
        }
        assertThat(spinner.nextSpinWillYield()).isTrue();
        spinner.reset();
        assertThat(spinner.count()).isZero();
    }

    @Test
    void shouldRejectSleep1ThresholdBelowMinusOne() {
        SpinWait spinner = new SpinWait(SpinContext.of(new RecordingPlatform(4, 40, 20), NORMALIZED));
        assertThatThrownBy(() -> spinner.spinOnce(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sleep1Threshold = -2").hasMessageContaining("allowed -1");
    }

    @Test
    void shouldSpinUntilConditionOrTimeout() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinContext context = SpinContext.of(platform, NORMALIZED, new FixedNormalizer(1, 7));
        int[] polls = {0};
        assertThat(SpinWait.spinUntil(context, () -> ++polls[0] >= 5, -1)).isTrue();
        assertThat(polls[0]).isEqualTo(5);
        assertThat(SpinWait.spinUntil(context, () -> false, 0)).isFalse();
        long before = platform.nanoTime();
        assertThat(SpinWait.spinUntil(context, () -> false, 50_000_000L)).isFalse();
        assertThat(platform.nanoTime() - before).isGreaterThanOrEqualTo(50_000_000L);
    }

    @Test
    void threadSpinWaitShouldBeRawOrNormalizedByTheKnob() {
        RecordingPlatform platform = new RecordingPlatform(4, 4, 20);
        SpinContext.of(platform, NORMALIZED, new FixedNormalizer(9, 8)).spinWait(10);
        SpinContext.of(platform, RAW, new FixedNormalizer(9, 8)).spinWait(10);
        SpinContext.of(platform, Tuning.parse("current,pause=preskylake-scaled"), new FixedNormalizer(9, 8)).spinWait(10);
        SpinContext.of(platform, Tuning.parse("current,pause=preskylake-scaled"), new FixedNormalizer(1, 8)).spinWait(7);
        assertThat(platform.calls()).extracting(RecordingPlatform.Call::amount).containsExactly(90L, 10L, 11L, 1L);
    }

    @Test
    void backoffShouldDoubleUpToTheCap() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinContext context = SpinContext.of(platform, NORMALIZED, new FixedNormalizer(1, 7));
        for (int i = 0; i < 6; i++) {
            context.spinWithBackoff(i);
        }
        assertThat(platform.calls()).extracting(RecordingPlatform.Call::amount).containsExactly(1L, 2L, 4L, 7L, 7L, 7L);
    }

    @Test
    void shouldRaiseASleep1ThresholdOfZeroToTheYieldThresholdOnASingleProcessor() {
        // On one processor every iteration yields; the raised threshold decides when Sleep(1) starts.
        List<String> actions = actions(NORMALIZED, 1, 11, 0);
        assertThat(actions.subList(0, 10)).doesNotContain("sleep(1000000)");
        assertThat(actions.get(10)).isEqualTo("sleep(1000000)");
        assertThat(actions(NORMALIZED, 1, 4, 3)).containsExactly("yield", "yield", "yield", "yield");
        assertThat(actions(NORMALIZED, 1, 12, 11).get(10)).isEqualTo("yield");
    }

    @Test
    void shouldRefreshTheMeasurementOnlyAtTheStartOfANormalizedLoop() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        int[] refreshes = {0};
        PauseNormalizer counting = new PauseNormalizer() {
            @Override
            public int yieldsPerNormalizedYield() {
                return 1;
            }

            @Override
            public int optimalMaxNormalizedYieldsPerSpinIteration() {
                return 7;
            }

            @Override
            public double nsPerPause() {
                return 37;
            }

            @Override
            public void refreshIfDue() {
                refreshes[0]++;
            }
        };
        SpinWait spinner = new SpinWait(SpinContext.of(platform, NORMALIZED, counting));
        for (int i = 0; i < 5; i++) {
            spinner.spinOnce();
        }
        assertThat(refreshes[0]).isEqualTo(1);
        spinner.reset();
        spinner.spinOnce();
        assertThat(refreshes[0]).isEqualTo(2);
        new SpinWait(SpinContext.of(platform, RAW, counting)).spinOnce();
        assertThat(refreshes[0]).as("raw PAUSEs need no measurement").isEqualTo(2);
    }

    @Test
    void shouldWrapTheCountToTheYieldThresholdAndRejectANegativeStart() {
        SpinContext context = SpinContext.of(new RecordingPlatform(4, 40, 20), NORMALIZED, new FixedNormalizer(1, 7));
        SpinWait spinner = new SpinWait(context, Integer.MAX_VALUE);
        spinner.spinOnce();
        assertThat(spinner.count()).isEqualTo(SpinWait.YIELD_THRESHOLD);
        assertThat(new SpinWait(context, 0).count()).isZero();
        assertThatThrownBy(() -> new SpinWait(context, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("count = -1");
    }

    @Test
    void shouldGiveUpExactlyWhenTheElapsedTimeReachesTheTimeoutAtTheFirstYield() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinContext context = SpinContext.of(platform, NORMALIZED, new FixedNormalizer(1, 7));
        platform.recordClockReads(true);

        // Ten iterations PAUSE 56 times at 40 ns (2,240 ns) and the second clock read adds 20 ns.
        assertThat(SpinWait.spinUntil(context, () -> false, 2_260)).isFalse();
        assertThat(platform.calls()).hasSize(12).startsWith(new RecordingPlatform.Call("clock", 0))
                .endsWith(new RecordingPlatform.Call("clock", 0));

        platform.clear();
        assertThat(SpinWait.spinUntil(context, () -> false, 0)).isFalse();
        assertThat(platform.calls()).as("a zero timeout neither reads the clock nor spins").isEmpty();
    }

    @Test
    void shouldReportAConditionThatHoldsAtTheTimeoutCheck() {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        SpinContext context = SpinContext.of(platform, NORMALIZED, new FixedNormalizer(1, 7));
        int[] polls = {0};

        // Ten polls fail while spinning; the eleventh, at the expired timeout check, succeeds.
        assertThat(SpinWait.spinUntil(context, () -> ++polls[0] >= 11, 1)).isTrue();
        assertThat(polls[0]).isEqualTo(11);
    }

    /** A normalizer with fixed values. */
    static final class FixedNormalizer implements PauseNormalizer {
        private final int yields;
        private final int optimalMax;

        FixedNormalizer(int yields, int optimalMax) {
            this.yields = yields;
            this.optimalMax = optimalMax;
        }

        @Override
        public int yieldsPerNormalizedYield() {
            return yields;
        }

        @Override
        public int optimalMaxNormalizedYieldsPerSpinIteration() {
            return optimalMax;
        }

        @Override
        public double nsPerPause() {
            return 37.0 / yields;
        }

        @Override
        public void refreshIfDue() {
        }
    }
}
