package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Generation;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SpinContext's own decisions (which normalizer, when to measure, {@code Thread.SpinWait} of
 * nothing, the back-off's last doubling) and the edges of the schedules built on it.
 */
class SpinContextTest {

    /** A fixed normalizer that counts how often it was asked to measure. */
    static final class CountingNormalizer implements PauseNormalizer {
        private final int yields;
        private final int cap;
        int refreshes;

        CountingNormalizer(int yields, int cap) {
            this.yields = yields;
            this.cap = cap;
        }

        @Override
        public int yieldsPerNormalizedYield() {
            return yields;
        }

        @Override
        public int optimalMaxNormalizedYieldsPerSpinIteration() {
            return cap;
        }

        @Override
        public double nsPerPause() {
            return 37.0 / yields;
        }

        @Override
        public void refreshIfDue() {
            refreshes++;
        }

        @Override
        public String toString() {
            return "counting";
        }
    }

    static Tuning pause(PauseMode mode) {
        return Tuning.current().with(Knob.PAUSE, mode);
    }

    static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    @Test
    void shouldSpinNothingForNoIterationsInEveryPauseMode() {
        for (PauseMode mode : PauseMode.values()) {
            RecordingPlatform platform = new RecordingPlatform(4, 4, 0);
            SpinContext context = SpinContext.of(platform, pause(mode), new CountingNormalizer(1, 7));

            context.spinWait(0);
            context.spinWait(-3);

            // preskylake-scaled would round any positive count up to one PAUSE
            assertThat(calls(platform)).as(mode.toString()).isEmpty();
        }
    }

    @Test
    void shouldDoubleTheBackoffFourTimesBeforeTheCap() {
        RecordingPlatform platform = new RecordingPlatform(4, 4, 0);
        SpinContext context = SpinContext.of(platform, Tuning.current(), new CountingNormalizer(1, 20));

        for (int i = 0; i < 6; i++) {
            context.spinWithBackoff(i);
        }

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(8)", "pause(20)",
                "pause(20)");
    }

    @Test
    void shouldPickTheSampledNormalizerOnlyForNormalizedPauses() {
        RecordingPlatform platform = new RecordingPlatform(4, 4, 0);

        assertThat(SpinContext.of(platform, pause(PauseMode.NORMALIZED)).normalizer())
                .isInstanceOf(SampledPauseNormalizer.class);
        for (PauseMode mode : new PauseMode[] {PauseMode.NORMALIZED_ONCE, PauseMode.RAW, PauseMode.PRESKYLAKE_SCALED}) {
            assertThat(SpinContext.of(platform, pause(mode)).normalizer()).as(mode.toString())
                    .isInstanceOf(OneShotPauseNormalizer.class);
        }
    }

    @Test
    void shouldMeasureAtStartUpOnlyForTheOneShotModes() {
        for (PauseMode mode : PauseMode.values()) {
            CountingNormalizer normalizer = new CountingNormalizer(1, 7);
            SpinContext context = SpinContext.of(new RecordingPlatform(4, 4, 0), pause(mode), normalizer);

            context.measurePauseAtStartUp();

            boolean oneShot = mode == PauseMode.NORMALIZED_ONCE || mode == PauseMode.PRESKYLAKE_SCALED;
            assertThat(normalizer.refreshes).as(mode.toString()).isEqualTo(oneShot ? 1 : 0);
            context.beginSpinLoop();
            int loopRefresh = mode == PauseMode.RAW ? 0 : 1;
            assertThat(normalizer.refreshes).as(mode.toString()).isEqualTo((oneShot ? 1 : 0) + loopRefresh);
        }
    }

    /**
     * Managed {@code Thread.OptimalMaxSpinWaitsPerSpinIteration}: .NET Core 2.1 to .NET 5 cached the
     * first read in a static, but the runtime measured only once, so the cache held that one
     * measurement; .NET 6 (dotnet/runtime #55295) re-measures and returns the native value on every
     * read. Reading the normalizer each time gives both: here the PAUSE gets ten times faster
     * (40 ns, 7 yields per iteration; then 4 ns, 8) and only net6 follows.
     */
    @Test
    void shouldKeepTheFirstMeasurementUnderNet5AndFollowTheRemeasurementUnderNet6() {
        RecordingPlatform net5Platform = new RecordingPlatform(4, 40, 0);
        SpinContext net5 = SpinContext.of(net5Platform, Generation.NET5.tuning());
        net5.measurePauseAtStartUp();
        assertThat(net5.optimalMaxSpinWaitsPerSpinIteration()).isEqualTo(7);
        RecordingPlatform net6Platform = new RecordingPlatform(4, 40, 0);
        SpinContext net6 = SpinContext.of(net6Platform, Generation.NET6.tuning());
        net6.beginSpinLoop();
        assertThat(net6.optimalMaxSpinWaitsPerSpinIteration()).isEqualTo(7);

        for (RecordingPlatform platform : List.of(net5Platform, net6Platform)) {
            platform.setNsPerPause(4);
            platform.advance(SampledPauseNormalizer.MEASUREMENT_PERIOD_NANOS);
        }
        net5.beginSpinLoop();
        net6.beginSpinLoop();

        assertThat(net5.optimalMaxSpinWaitsPerSpinIteration()).isEqualTo(7);
        assertThat(net6.optimalMaxSpinWaitsPerSpinIteration()).isEqualTo(8);
    }

    @Test
    void shouldNameItsPlatformTuningAndNormalizerWhenPrinted() {
        RecordingPlatform platform = new RecordingPlatform(4, 4, 0);
        Tuning tuning = Tuning.current();

        assertThat(SpinContext.of(platform, tuning, new CountingNormalizer(1, 7)))
                .hasToString("SpinContext[" + platform + ", " + tuning + ", counting]");
    }

    @Test
    void shouldYieldFromTheFirstIterationOfTheExponentialScheduleOnOneProcessor() {
        RecordingPlatform platform = new RecordingPlatform(1, 4, 0);
        SpinWait spinner = new SpinWait(SpinContext.of(platform, Generation.NETCORE2_0.tuning(),
                new CountingNormalizer(1, 7)));
        List<String> actions = new ArrayList<>();

        assertThat(spinner.nextSpinWillYield()).isTrue();
        for (int i = 0; i < 5; i++) {
            platform.clear();
            spinner.spinOnce();
            actions.add(String.join(" ", calls(platform)));
        }

        assertThat(actions).containsExactly("yield", "yield", "yield", "yield", "sleep(0)");
    }

    @Test
    void shouldSayTheNextSpinWillYieldFromTheFirstIterationOnOneProcessor() {
        for (Generation generation : new Generation[] {Generation.NETCORE2_0, Generation.NETCORE2_1, Generation.NET6}) {
            SpinWait single = new SpinWait(SpinContext.of(new RecordingPlatform(1, 4, 0), generation.tuning(),
                    new CountingNormalizer(1, 7)));
            SpinWait multi = new SpinWait(SpinContext.of(new RecordingPlatform(8, 4, 0), generation.tuning(),
                    new CountingNormalizer(1, 7)));

            assertThat(single.nextSpinWillYield()).as(generation.toString()).isTrue();
            assertThat(multi.nextSpinWillYield()).as(generation.toString()).isFalse();
        }
    }

    @Test
    void shouldSleepOneMillisecondFromTheThresholdItselfInTheCappedSchedule() {
        RecordingPlatform platform = new RecordingPlatform(8, 4, 0);
        SpinWait spinner = new SpinWait(SpinContext.of(platform, Tuning.current(), new CountingNormalizer(1, 7)));
        List<String> actions = new ArrayList<>();

        for (int i = 0; i < 22; i++) {
            platform.clear();
            spinner.spinOnce(20);
            actions.add(String.join(" ", calls(platform)));
        }

        assertThat(actions.subList(18, 22)).containsExactly("sleep(0)", "pause(7)", "sleep(1000000)", "sleep(1000000)");
    }

    @Test
    void shouldTakeTheLastLookAfterTheLastSpinWhenSpinningBeforeBlocking() {
        int[] looks = {0};
        RecordingPlatform platform = new RecordingPlatform(4, 4, 0);
        CountingNormalizer normalizer = new CountingNormalizer(1, 7);
        SpinContext context = SpinContext.of(platform, Tuning.current(), normalizer);

        assertThat(SpinBeforeBlock.ScaledSpin.PROC_SCALED.spin(context, 3, looks, l -> ++l[0] >= 4)).isTrue();
        assertThat(looks[0]).isEqualTo(4);
        assertThat(normalizer.refreshes).as("the scaled spin begins a spin loop").isEqualTo(1);
        looks[0] = 0;
        assertThat(SpinBeforeBlock.SpinOnceSpin.INSTANCE.spin(context, 2, looks, l -> ++l[0] >= 3)).isTrue();
        assertThat(looks[0]).isEqualTo(3);
    }

    @Test
    void shouldNameEachSpinBeforeBlockPolicyWhenPrinted() {
        assertThat(SpinBeforeBlock.ScaledSpin.PROC_SCALED).hasToString("proc-scaled");
        assertThat(SpinBeforeBlock.ScaledSpin.UNSCALED).hasToString("unscaled");
        assertThat(SpinBeforeBlock.SpinOnceSpin.INSTANCE).hasToString("spinonce");
        assertThat(SpinBeforeBlock.NoSpin.INSTANCE).hasToString("none");
    }
}
