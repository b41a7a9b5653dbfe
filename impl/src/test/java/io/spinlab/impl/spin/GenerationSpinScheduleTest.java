package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Generation;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each generation's spin schedule, PAUSE by PAUSE, against the .NET source it models (cited in
 * {@code impl/GENERATION-SOURCES.md}): SpinWait.SpinOnce and ManualResetEvent's spin before it
 * blocks. The normalizer is fixed at the given yields per normalized yield and cap, as .NET's
 * defaults (1 and 7) or a pre-Skylake measurement (8 and 4).
 */
class GenerationSpinScheduleTest {

    private static final Looks NEVER = new Looks();

    /** A condition that never holds, counting its looks. */
    private static final class Looks {
        boolean look() {
            return false;
        }
    }

    private static SpinContext context(Generation generation, RecordingPlatform platform, int yields, int cap) {
        return SpinContext.of(platform, generation.tuning(), new SpinWaitTest.FixedNormalizer(yields, cap));
    }

    /** The calls of the first {@code iterations} SpinOnce calls with the default Sleep(1) threshold. */
    private static List<String> spinOnce(Generation generation, int iterations, int yields, int cap) {
        RecordingPlatform platform = new RecordingPlatform(8, 40, 20);
        SpinWait spinner = new SpinWait(context(generation, platform, yields, cap));
        List<String> actions = new ArrayList<>();
        for (int i = 0; i < iterations; i++) {
            platform.clear();
            spinner.spinOnce();
            actions.add(String.join(" ", platform.calls().stream().map(Object::toString).toList()));
        }
        return actions;
    }

    /** PAUSEs of SpinOnce before the first iteration that yields, and the count at which it yields. */
    private static long[] pausesBeforeFirstYield(Generation generation, int yields, int cap) {
        RecordingPlatform platform = new RecordingPlatform(8, 40, 20);
        SpinWait spinner = new SpinWait(context(generation, platform, yields, cap));
        while (!spinner.nextSpinWillYield()) {
            spinner.spinOnce();
        }
        return new long[] {platform.pauses(), spinner.count()};
    }

    @Test
    void netcore20SpinWaitShouldSpinElevenTimesAndEightThousandOneHundredEightyEightPauses() {
        assertThat(pausesBeforeFirstYield(Generation.NETCORE2_0, 1, 7)).containsExactly(8_188, 11);
        List<String> actions = spinOnce(Generation.NETCORE2_0, 50, 1, 7);
        assertThat(actions.subList(0, 11)).containsExactly("pause(4)", "pause(8)", "pause(16)", "pause(32)",
                "pause(64)", "pause(128)", "pause(256)", "pause(512)", "pause(1024)", "pause(2048)", "pause(4096)");
        // Yields are numbered count − 10 from count 11: Sleep(0) at 4 mod 5, Sleep(1) at 19 mod 20.
        assertThat(actions.subList(11, 20)).containsExactly("yield", "yield", "yield", "sleep(0)", "yield", "yield",
                "yield", "yield", "sleep(0)");
        assertThat(actions.get(29)).isEqualTo("sleep(1000000)");
        assertThat(actions.get(49)).isEqualTo("sleep(1000000)");
        assertThat(actions.subList(30, 49)).doesNotContain("sleep(1000000)");
    }

    @Test
    void netcore20SpinWaitPausesShouldBeRawWhateverThePauseMeasurement() {
        assertThat(pausesBeforeFirstYield(Generation.NETCORE2_0, 8, 4)).containsExactly(8_188, 11);
        assertThat(pausesBeforeFirstYield(Generation.NETCORE2_0_13556, 8, 4)).containsExactly(8_188, 11);
    }

    @Test
    void coreclrSinceNetcore21ShouldSpinFiftySixNormalizedYieldsBeforeTheFirstYield() {
        for (Generation generation : List.of(Generation.NETCORE2_1, Generation.NETCORE3_0, Generation.NET5,
                Generation.NET6)) {
            assertThat(pausesBeforeFirstYield(generation, 1, 7)).as(generation.generationName())
                    .containsExactly(1 + 2 + 4 + 7 * 7, 10);
            // A pre-Skylake measurement: 8 PAUSEs per normalized yield, a cap of 4 of them.
            assertThat(pausesBeforeFirstYield(generation, 8, 4)).as(generation.generationName())
                    .containsExactly(8L * (1 + 2 + 4 * 8), 10);
        }
    }

    @Test
    void corertBeforeShouldSpinThreeHundredNineteenRawPausesCappedAtSixtyFour() {
        assertThat(pausesBeforeFirstYield(Generation.CORERT_2019_BEFORE, 1, 7)).containsExactly(319, 10);
        assertThat(pausesBeforeFirstYield(Generation.CORERT_2019_BEFORE, 8, 4)).containsExactly(319, 10);
        assertThat(spinOnce(Generation.CORERT_2019_BEFORE, 13, 1, 7).subList(6, 13)).containsExactly("pause(64)",
                "pause(64)", "pause(64)", "pause(64)", "yield", "pause(64)", "yield");
    }

    @Test
    void corertAfterShouldScaleEachCountByYieldsOverEightWithAMinimumOfOne() {
        // Skylake-class (1 PAUSE per normalized yield): max(1, n / 8) for n = 1, 2, 4 … 64, 64, 64, 64.
        assertThat(spinOnce(Generation.CORERT_2019_AFTER, 10, 1, 7)).containsExactly("pause(1)", "pause(1)",
                "pause(1)", "pause(1)", "pause(2)", "pause(4)", "pause(8)", "pause(8)", "pause(8)", "pause(8)");
        assertThat(pausesBeforeFirstYield(Generation.CORERT_2019_AFTER, 1, 7)).containsExactly(42, 10);
        // Pre-Skylake (8 per normalized yield): n × 8 / 8 = n, the raw schedule unchanged.
        assertThat(pausesBeforeFirstYield(Generation.CORERT_2019_AFTER, 8, 4)).containsExactly(319, 10);
    }

    /** The calls of ManualResetEvent's spin phase before it blocks, with the generation's default count. */
    private static List<String> mresSpin(Generation generation, int processors, int yields, int cap) {
        RecordingPlatform platform = new RecordingPlatform(processors, 40, 20);
        SpinContext context = context(generation, platform, yields, cap);
        SpinBeforeBlock spin = SpinBeforeBlock.of(generation.tuning().spin());
        spin.spin(context, spin.defaultSpinCount(platform), NEVER, Looks::look);
        return platform.calls().stream().map(Object::toString).toList();
    }

    private static long pausesBeforeFirstYield(List<String> calls) {
        long pauses = 0;
        for (String call : calls) {
            if (!call.startsWith("pause(")) {
                break;
            }
            pauses += Long.parseLong(call.substring("pause(".length(), call.length() - 1));
        }
        return pauses;
    }

    @Test
    void netcore20MresShouldSpinOneHundredTwentyFourPausesTimesTheProcessorsThenYieldAtFive() {
        List<String> calls = mresSpin(Generation.NETCORE2_0, 4, 1, 7);
        assertThat(pausesBeforeFirstYield(calls)).isEqualTo(124 * 4);
        assertThat(calls).containsExactly("pause(16)", "pause(32)", "pause(64)", "pause(128)", "pause(256)", "yield",
                "pause(1024)", "pause(2048)", "pause(4096)", "pause(8192)");
        assertThat(calls.stream().filter(c -> c.startsWith("pause(")).mapToLong(c -> Long.parseLong(
                c.substring(6, c.length() - 1))).sum()).isEqualTo(3_964L * 4);
    }

    @Test
    void netcore20With13556MresShouldNotMultiplyByProcessors() {
        List<String> calls = mresSpin(Generation.NETCORE2_0_13556, 4, 1, 7);
        assertThat(pausesBeforeFirstYield(calls)).isEqualTo(124);
        assertThat(calls).hasSize(10).contains("yield");
    }

    @Test
    void mresSinceNetcore21ShouldSpinWithSpinOnce() {
        assertThat(pausesBeforeFirstYield(mresSpin(Generation.NETCORE2_1, 4, 1, 7))).isEqualTo(56);
        assertThat(pausesBeforeFirstYield(mresSpin(Generation.NET6, 4, 1, 7))).isEqualTo(56);
        assertThat(pausesBeforeFirstYield(mresSpin(Generation.CORERT_2019_BEFORE, 4, 1, 7))).isEqualTo(319);
        assertThat(pausesBeforeFirstYield(mresSpin(Generation.CORERT_2019_AFTER, 4, 1, 7))).isEqualTo(42);
        // 35 SpinOnce calls and no Sleep(1): the threshold is above the count.
        assertThat(mresSpin(Generation.NET6, 4, 1, 7)).hasSize(35).doesNotContain("sleep(1000000)");
    }

    @Test
    void collectionsShouldStopSleepingInTheirRetrySpinsFrom30AndTheQueueStartAgainIn6() {
        for (Generation generation : Generation.values()) {
            Tuning tuning = generation.tuning();
            boolean before30 = generation.compareTo(Generation.NETCORE3_0) < 0;
            assertThat(tuning.stackSpin().sleep1Threshold()).as(generation.generationName()).isEqualTo(before30 ? 20 : -1);
            int queue = before30 ? 20 : generation == Generation.NET6 ? 8 : -1;
            assertThat(tuning.queueSpin().sleep1Threshold()).as(generation.generationName()).isEqualTo(queue);
        }
    }

    @Test
    void everyGenerationShouldBeNamedAndParseBackToItself() {
        for (Generation generation : Generation.values()) {
            Tuning parsed = Tuning.parse(generation.generationName());
            assertThat(parsed).isEqualTo(generation.tuning());
            assertThat(Tuning.parse(parsed.describe())).isEqualTo(parsed);
        }
        assertThat(Tuning.current()).isEqualTo(Generation.NET6.tuning());
        assertThat(Tuning.legacy()).isEqualTo(Generation.NETCORE2_0.tuning());
    }
}
