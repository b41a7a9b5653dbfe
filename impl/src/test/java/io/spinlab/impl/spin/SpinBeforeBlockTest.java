package io.spinlab.impl.spin;

import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.SpinPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every spin-before-block policy's schedule, call by call, on a recording platform: what a
 * waiter does between two looks at its condition (raw PAUSE counts, normalized yields, yields,
 * Sleep(0), Sleep(1)), how many looks it takes, and when it stops early.
 */
class SpinBeforeBlockTest {

    private static final Tuning RAW = Tuning.current().with(Knob.PAUSE, PauseMode.RAW);

    /** A condition that holds from its {@code holdsFrom}-th look on (1-based); counts the looks. */
    private static final class Looks {
        private final int holdsFrom;
        private int looks;

        Looks(int holdsFrom) {
            this.holdsFrom = holdsFrom;
        }

        boolean look() {
            looks++;
            return looks >= holdsFrom;
        }
    }

    private static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    @Test
    void shouldScaleRawPausesByProcessorsAndYieldSleepLaterWhenProcScaled() {
        RecordingPlatform platform = new RecordingPlatform(3, 40, 20);
        SpinContext context = SpinContext.of(platform, RAW, new SpinWaitTest.FixedNormalizer(1, 7));
        Looks never = new Looks(Integer.MAX_VALUE);

        boolean held = SpinBeforeBlock.of(SpinPolicy.PROC_SCALED).spin(context, 26, never, Looks::look);

        assertThat(held).isFalse();
        assertThat(never.looks).isEqualTo(27);
        assertThat(calls(platform)).containsExactly("pause(12)", "pause(24)", "pause(48)", "pause(96)", "pause(192)",
                "yield", "pause(768)", "pause(1536)", "pause(3072)", "pause(6144)",
                "sleep(0)", "yield", "yield", "yield", "yield", "sleep(0)", "yield", "yield", "yield", "yield",
                "sleep(1000000)", "yield", "yield", "yield", "yield", "sleep(0)");
    }

    @Test
    void shouldNotScaleByProcessorsWhenUnscaled() {
        RecordingPlatform platform = new RecordingPlatform(3, 40, 20);
        SpinContext context = SpinContext.of(platform, RAW, new SpinWaitTest.FixedNormalizer(1, 7));

        SpinBeforeBlock.of(SpinPolicy.UNSCALED).spin(context, 7, new Looks(Integer.MAX_VALUE), Looks::look);

        assertThat(calls(platform)).containsExactly("pause(4)", "pause(8)", "pause(16)", "pause(32)", "pause(64)",
                "yield", "pause(256)");
    }

    @Test
    void shouldSaturateTheScaledPauseCountInsteadOfOverflowing() {
        RecordingPlatform platform = new RecordingPlatform(1 << 20, 0, 20);
        SpinContext context = SpinContext.of(platform, RAW, new SpinWaitTest.FixedNormalizer(1, 7));

        SpinBeforeBlock.of(SpinPolicy.PROC_SCALED).spin(context, 10, new Looks(Integer.MAX_VALUE), Looks::look);

        assertThat(platform.calls().get(9).amount()).isEqualTo(Integer.MAX_VALUE);
        assertThat(platform.calls().get(0).amount()).isEqualTo(4L << 20);
    }

    @Test
    void shouldStopAtTheLookThatSeesTheConditionWhenScaled() {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        SpinContext context = SpinContext.of(platform, RAW, new SpinWaitTest.FixedNormalizer(1, 7));
        Looks third = new Looks(3);

        boolean held = SpinBeforeBlock.of(SpinPolicy.PROC_SCALED).spin(context, 10, third, Looks::look);

        assertThat(held).isTrue();
        assertThat(third.looks).isEqualTo(3);
        assertThat(calls(platform)).containsExactly("pause(8)", "pause(16)");
    }

    @Test
    void shouldSpinOnceSpinCountTimesWithoutSleepingOneMillisecondWhenSpinOnce() {
        RecordingPlatform platform = new RecordingPlatform(8, 40, 20);
        SpinContext context = SpinContext.of(platform, Tuning.current(), new SpinWaitTest.FixedNormalizer(1, 7));
        Looks never = new Looks(Integer.MAX_VALUE);

        boolean held = SpinBeforeBlock.of(SpinPolicy.SPINONCE).spin(context, 35, never, Looks::look);

        assertThat(held).isFalse();
        assertThat(never.looks).isEqualTo(36);
        assertThat(calls(platform)).hasSize(35).doesNotContain("sleep(1000000)");
        assertThat(calls(platform).subList(0, 4)).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(7)");
    }

    @Test
    void shouldStopAtTheLookThatSeesTheConditionWhenSpinOnce() {
        RecordingPlatform platform = new RecordingPlatform(8, 40, 20);
        SpinContext context = SpinContext.of(platform, Tuning.current(), new SpinWaitTest.FixedNormalizer(1, 7));
        Looks second = new Looks(2);

        boolean held = SpinBeforeBlock.of(SpinPolicy.SPINONCE).spin(context, 35, second, Looks::look);

        assertThat(held).isTrue();
        assertThat(second.looks).isEqualTo(2);
        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)");
    }

    @Test
    void shouldLookOnceAndNeverWaitWhenNone() {
        RecordingPlatform platform = new RecordingPlatform(8, 40, 20);
        SpinContext context = SpinContext.of(platform, Tuning.current(), new SpinWaitTest.FixedNormalizer(1, 7));

        assertThat(SpinBeforeBlock.of(SpinPolicy.NONE).spin(context, 35, new Looks(1), Looks::look)).isTrue();
        assertThat(SpinBeforeBlock.of(SpinPolicy.NONE).spin(context, 35, new Looks(2), Looks::look)).isFalse();
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldSpinOnlyOnceOnASingleProcessorByDefault() {
        RecordingPlatform one = new RecordingPlatform(1, 40, 20);
        RecordingPlatform many = new RecordingPlatform(4, 40, 20);
        for (SpinPolicy policy : List.of(SpinPolicy.PROC_SCALED, SpinPolicy.UNSCALED, SpinPolicy.SPINONCE)) {
            assertThat(SpinBeforeBlock.of(policy).defaultSpinCount(one)).as(policy.name()).isEqualTo(1);
        }
        assertThat(SpinBeforeBlock.of(SpinPolicy.PROC_SCALED).defaultSpinCount(many)).isEqualTo(10);
        assertThat(SpinBeforeBlock.of(SpinPolicy.UNSCALED).defaultSpinCount(many)).isEqualTo(10);
        assertThat(SpinBeforeBlock.of(SpinPolicy.SPINONCE).defaultSpinCount(many)).isEqualTo(35);
        assertThat(SpinBeforeBlock.of(SpinPolicy.NONE).defaultSpinCount(many)).isZero();
    }
}
