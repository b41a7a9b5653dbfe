package io.spinlab.model.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class MachineProfileTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");

    static Stream<Arguments> invalidFields() {
        return Stream.of(
                invalid("frequencyGhz", b -> b.frequencyGhz(0), "frequencyGhz = 0 is out of range; allowed 0.01..10"),
                invalid("frequencyGhz", b -> b.frequencyGhz(10.5), "frequencyGhz = 10.5 is out of range"),
                invalid("frequencyGhz", b -> b.frequencyGhz(-1), "frequencyGhz = -1 is out of range"),
                invalid("pauseCycles", b -> b.pauseCycles(-3), "pauseCycles = -3 is out of range; allowed 0..10000"),
                invalid("pauseCycles", b -> b.pauseCycles(10_001), "pauseCycles = 10001 is out of range"),
                invalid("physicalCores", b -> b.physicalCores(0).logicalProcessors(8), "physicalCores = 0"),
                invalid("logicalProcessors", b -> b.logicalProcessors(0), "logicalProcessors = 0 is out of range"),
                invalid("logicalProcessors", b -> b.logicalProcessors(4097), "logicalProcessors = 4097 is out"),
                invalid("logicalProcessors", b -> b.physicalCores(4).logicalProcessors(6),
                        "logicalProcessors = 6 is not a multiple of physicalCores = 4"),
                invalid("clockReadNs", b -> b.clockReadNs(-0.5), "clockReadNs = -0.5 is out of range; allowed 0.."),
                invalid("atomicOpNs", b -> b.atomicOpNs(-1), "atomicOpNs = -1 is out of range"),
                invalid("cacheLineTransferNs", b -> b.cacheLineTransferNs(2e9), "cacheLineTransferNs = 2000000000"),
                invalid("contextSwitchNs", b -> b.contextSwitchNs(-1), "contextSwitchNs = -1"),
                invalid("wakeLatencyNs", b -> b.wakeLatencyNs(-1), "wakeLatencyNs = -1"),
                invalid("yieldReadyNs", b -> b.yieldReadyNs(-1), "yieldReadyNs = -1"),
                invalid("yieldIdleNs", b -> b.yieldIdleNs(-1), "yieldIdleNs = -1"),
                invalid("sleepGranularityNs", b -> b.sleepGranularityNs(0), "sleepGranularityNs = 0 is out of range"),
                invalid("timeSliceNs", b -> b.timeSliceNs(0), "timeSliceNs = 0 is out of range"),
                invalid("cacheLineBytes", b -> b.cacheLineBytes(100), "cacheLineBytes = 100 is not a power of two"),
                invalid("cacheLineBytes", b -> b.cacheLineBytes(8), "cacheLineBytes = 8 is out of range"),
                invalid("cacheLineBytes", b -> b.cacheLineBytes(1024), "cacheLineBytes = 1024 is out of range"),
                invalid("sockets", b -> b.sockets(0), "sockets = 0 is out of range; allowed 1..4096"),
                invalid("sockets", b -> b.physicalCores(4).sockets(5),
                        "sockets = 5 is more than physicalCores = 4; allowed 1..physicalCores"),
                invalid("crossSocketTransferNs", b -> b.crossSocketTransferNs(-1), "crossSocketTransferNs = -1"),
                invalid("invalidationNs", b -> b.invalidationNs(-0.5), "invalidationNs = -0.5"),
                invalid("description", b -> b.description(null), "description is missing"),
                invalid("description", b -> b.description("two\nlines"), "description = 'two?lines' contains"));
    }

    private static Arguments invalid(String field, UnaryOperator<MachineProfile.Builder> change, String message) {
        return Arguments.of(field, change, message);
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("invalidFields")
    void shouldNameFieldValueAndRangeWhenFieldInvalid(String field, UnaryOperator<MachineProfile.Builder> change,
            String message) {
        MachineProfile.Builder builder = change.apply(MachineProfile.builder("x"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("machine 'x': " + field)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @EnumSource(value = MachineField.Kind.class, names = "NUMBER")
    void shouldRejectNanAndInfinityWhenAnyNumberField(MachineField.Kind kind) {
        for (MachineField field : MachineField.values()) {
            if (field.kind() != kind) {
                continue;
            }
            for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
                assertThatThrownBy(() -> setTyped(MachineProfile.builder("x"), field, bad).build())
                        .as("%s = %s", field.fieldName(), bad)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("machine 'x': " + field.fieldName() + " = " + bad)
                        .hasMessageContaining("is not a finite number; allowed");
            }
        }
    }

    /**
     * The fields written as numbers: the ones whose text can be of the wrong kind, non-finite or
     * out of range (a TEXT field accepts any text, and the CHOICE field has its own test below).
     */
    static Stream<MachineField> numericFields() {
        return Arrays.stream(MachineField.values())
                .filter(f -> f.kind() == MachineField.Kind.NUMBER || f.kind() == MachineField.Kind.WHOLE_NUMBER);
    }

    @Test
    void shouldAcceptOnlyTheModelledOperatingSystemsWhenOsIsSetByName() {
        assertThat(SKYLAKE.os()).isEqualTo(OperatingSystem.WINDOWS);
        assertThat(SKYLAKE.withField("os", "linux").os()).isEqualTo(OperatingSystem.LINUX);
        assertThat(SKYLAKE.withField("os", "linux-cfs").os()).isEqualTo(OperatingSystem.LINUX_CFS);
        assertThat(MachineProfile.builder("x").build().os()).as("the builder's default").isEqualTo(OperatingSystem.LINUX);
        assertThat(MachineField.OS.text(SKYLAKE)).isEqualTo("windows");

        for (String bad : new String[] {"macos", "Windows", ""}) {
            assertThatThrownBy(() -> SKYLAKE.withField("os", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("machine 'skylake-i7-6700': os = '" + bad + "' is not known; allowed one of windows, linux, linux-cfs");
        }
        assertThatThrownBy(() -> MachineProfile.builder("x").os(null).build())
                .hasMessage("machine 'x': os is missing; allowed one of windows, linux, linux-cfs");
    }

    @ParameterizedTest
    @MethodSource("numericFields")
    void shouldRejectTextOfWrongKindWhenSetByName(MachineField field) {
        for (String bad : new String[] {"abc", "0x10", "1.5d", "1_000", ""}) {
            assertThatThrownBy(() -> SKYLAKE.withField(field.fieldName(), bad))
                    .as("%s = '%s'", field.fieldName(), bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("machine 'skylake-i7-6700': " + field.fieldName() + " = '" + bad + "'")
                    .hasMessageContaining("allowed " + field.allowed());
        }
    }

    @ParameterizedTest
    @MethodSource("numericFields")
    void shouldRejectNonFiniteTextWhenSetByName(MachineField field) {
        boolean number = field.kind() == MachineField.Kind.NUMBER;
        String problem = number ? " is not a finite number" : "' is not a whole number";
        for (String bad : new String[] {"NaN", "Infinity", "-Infinity"}) {
            String shown = number ? bad : "'" + bad;

            assertThatThrownBy(() -> SKYLAKE.withField(field.fieldName(), bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("machine 'skylake-i7-6700': " + field.fieldName() + " = " + shown + problem
                            + "; allowed " + field.allowed());
        }
    }

    @ParameterizedTest
    @MethodSource("numericFields")
    void shouldRejectValueBelowRangeWhenSetByName(MachineField field) {
        String below = field.kind() == MachineField.Kind.WHOLE_NUMBER ? Long.toString((long) field.min() - 1) : "-1";

        assertThatThrownBy(() -> SKYLAKE.withField(field.fieldName(), below))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(field.fieldName() + " = " + below)
                .hasMessageContaining("allowed " + field.allowed());
    }

    @Test
    void shouldRejectWholeNumberWrittenWithFractionWhenSetByName() {
        assertThatThrownBy(() -> SKYLAKE.withField("pauseCycles", "140.0"))
                .hasMessage("machine 'skylake-i7-6700': pauseCycles = '140.0' is not a whole number; allowed 0..10000");
        assertThatThrownBy(() -> SKYLAKE.withField("pauseCycles", "99999999999999999999999"))
                .hasMessageContaining("pauseCycles = 99999999999999999999999 is out of range");
    }

    @Test
    void shouldRejectMissingOrBlankNameWhenBuilt() {
        assertThatThrownBy(() -> MachineProfile.builder(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("machine profile: name is missing");
        assertThatThrownBy(() -> MachineProfile.builder("  ").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("machine profile: name = '  ' is blank");
        assertThatThrownBy(() -> MachineProfile.builder(" x").build())
                .hasMessageContaining("name = ' x' has leading or trailing spaces");
        assertThatThrownBy(() -> MachineProfile.builder("a\tb").build())
                .hasMessageContaining("name = 'a?b' contains a control character");
    }

    @Test
    void shouldSetAnyFieldWhenWithFieldByName() {
        MachineProfile changed = SKYLAKE.withField("pauseCycles", "300")
                .withField("frequencyGhz", "4.5")
                .withField("sleepGranularityNs", "1e6")
                .withField("cacheLineBytes", "128")
                .withField("name", "skylake-what-if");

        assertThat(changed.pauseCycles()).isEqualTo(300);
        assertThat(changed.frequencyGhz()).isEqualTo(4.5);
        assertThat(changed.sleepGranularityNs()).isEqualTo(1_000_000);
        assertThat(changed.cacheLineBytes()).isEqualTo(128);
        assertThat(changed.name()).isEqualTo("skylake-what-if");
        assertThat(changed.toBuilder().name(SKYLAKE.name()).pauseCycles(140).frequencyGhz(3.4)
                .sleepGranularityNs(SKYLAKE.sleepGranularityNs()).cacheLineBytes(64).build()).isEqualTo(SKYLAKE);
    }

    @Test
    void shouldSpreadCoresOverSocketsInRunsWhenAskedForACoresSocket() {
        MachineProfile sixOnFour = MachineProfile.builder("x").physicalCores(6).logicalProcessors(6).sockets(4).build();

        // 6 cores over 4 sockets: runs of 2, 1, 2, 1 consecutive cores.
        assertThat(java.util.stream.IntStream.range(0, 6).map(sixOnFour::socketOfCore).toArray())
                .containsExactly(0, 0, 1, 2, 2, 3);
        assertThat(MachinePresets.byName("ivybridge-e7-4x12").socketOfCore(47)).isEqualTo(3);
        assertThat(SKYLAKE.socketOfCore(3)).isZero();
        assertThatThrownBy(() -> SKYLAKE.socketOfCore(4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("core = 4 is out of range; allowed 0..3");
    }

    @Test
    void shouldGiveOneSocketPerCoreWhenALayoutSweepGoesBelowTheSocketCount() {
        MachineProfile fourSockets = MachinePresets.byName("ivybridge-e7-4x12");

        assertThat(fourSockets.withProcessors(2, 2).sockets()).isEqualTo(2);
        assertThat(fourSockets.withLogicalProcessors(1).sockets()).isEqualTo(1);
        assertThat(fourSockets.withProcessors(8, 16).sockets()).as("enough cores: kept").isEqualTo(4);
        assertThat(fourSockets.withField("pauseCycles", "140").sockets()).isEqualTo(4);
        assertThatThrownBy(() -> fourSockets.toBuilder().physicalCores(2).logicalProcessors(2).sockets(4).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sockets = 4 is more than physicalCores = 2");
    }

    @Test
    void shouldListValidFieldsWhenFieldUnknown() {
        assertThatThrownBy(() -> SKYLAKE.withField("pauseCycle", "10"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown machine field 'pauseCycle'; valid fields: name, description, "
                        + "frequencyGhz, pauseCycles,")
                .hasMessageEndingWith("timeSliceNs, cacheLineBytes, cyclesPerBytecode, storeBytesPerCycle, "
                        + "wakeJitterPercent, "
                        + "costJitterPercent, os, smtSlowdown, wakeCallNs, sockets, crossSocketTransferNs, "
                        + "invalidationNs");
    }

    @Test
    void shouldReproduceProfileWhenEveryFieldSetFromItsOwnText() {
        for (MachineProfile profile : MachinePresets.all()) {
            for (MachineField field : MachineField.values()) {
                assertThat(profile.withField(field, field.text(profile))).as(field.fieldName()).isEqualTo(profile);
            }
        }
    }

    @Test
    void shouldKeepThreadsPerCoreWhenOnlyLogicalProcessorsChange() {
        MachineProfile sixteen = SKYLAKE.withLogicalProcessors(16);
        MachineProfile odd = SKYLAKE.withField("logicalProcessors", "5");
        MachineProfile cores = SKYLAKE.withField("physicalCores", "6");

        assertThat(sixteen.physicalCores()).isEqualTo(8);
        assertThat(sixteen.logicalProcessors()).isEqualTo(16);
        assertThat(odd.physicalCores()).isEqualTo(5);
        assertThat(odd.smtThreadsPerCore()).isEqualTo(1);
        assertThat(cores.logicalProcessors()).isEqualTo(12);
        assertThat(SKYLAKE.withProcessors(16, 16).smtThreadsPerCore()).isEqualTo(1);
        assertThat(SKYLAKE.withProcessors(4, 16).smtThreadsPerCore()).isEqualTo(4);
    }

    @Test
    void shouldNameDerivedCountWhenPhysicalCoresAloneOverflowProcessors() {
        assertThatThrownBy(() -> SKYLAKE.withField("physicalCores", "4000"))
                .hasMessageContaining("physicalCores = 4000 with 2 threads per core gives logicalProcessors = 8000");
    }

    @Test
    void shouldChangeOnlyPauseWhenWithPauseCycles() {
        MachineProfile slow = SKYLAKE.withPauseCycles(300);

        assertThat(slow.pauseCycles()).isEqualTo(300);
        assertThat(slow.withPauseCycles(140)).isEqualTo(SKYLAKE);
    }

    @Test
    void shouldComputePicosExactlyWhenConvertingCycles() {
        SplittableRandom random = new SplittableRandom(42);
        double[] frequencies = {3.4, 3.2, 2.7, 0.01, 10, 2.5, 3.7, 1.0 / 3};
        for (double ghz : frequencies) {
            MachineProfile profile = SKYLAKE.toBuilder().frequencyGhz(ghz).build();
            for (int i = 0; i < 2_000; i++) {
                long cycles = random.nextLong(1L << random.nextInt(1, 45));
                assertThat(profile.cyclesToPicos(cycles)).as("%s cycles at %s GHz", cycles, ghz)
                        .isEqualTo(exactPicos(cycles, ghz));
            }
        }
    }

    @Test
    void shouldNotOverflowWhenMaximalPauseCountAtSlowestClock() {
        MachineProfile worst = SKYLAKE.toBuilder().frequencyGhz(0.01).pauseCycles(10_000).build();
        long count = 1L << 31;

        assertThat(worst.picosPerPause()).isEqualTo(1_000_000_000L);
        assertThat(worst.pausePicos(count)).isEqualTo(count * 1_000_000_000L);
        assertThat(worst.cyclesToPicos(count * 10_000)).isEqualTo(count * 1_000_000_000L);
        assertThatThrownBy(() -> worst.pausePicos(Long.MAX_VALUE / 10)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> worst.cyclesToPicos(Long.MAX_VALUE / 10)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void shouldChargeEveryPauseAlikeWhenPausesBatched() {
        long one = SKYLAKE.picosPerPause();

        assertThat(one).isEqualTo(41_176L);
        assertThat(SKYLAKE.pausePicos(0)).isZero();
        assertThat(SKYLAKE.pausePicos(1_000)).isEqualTo(1_000 * one);
        assertThat(SKYLAKE.pausePicos(3) + SKYLAKE.pausePicos(4)).isEqualTo(SKYLAKE.pausePicos(7));
        assertThat(SKYLAKE.withPauseCycles(0).pausePicos(1_000_000)).isZero();
        assertThatThrownBy(() -> SKYLAKE.pausePicos(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SKYLAKE.cyclesToPicos(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRoundHalfUpWhenConvertingNanosToPicos() {
        assertThat(MachineProfile.nanosToPicos(20)).isEqualTo(20_000);
        assertThat(MachineProfile.nanosToPicos(0.0015)).isEqualTo(2);
        assertThat(MachineProfile.nanosToPicos(1_060_000)).isEqualTo(1_060_000_000L);
        assertThatThrownBy(() -> MachineProfile.nanosToPicos(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MachineProfile.nanosToPicos(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldStartFromLinuxDefaultsWhenBuilderNamed() {
        MachineProfile profile = MachineProfile.builder("generic").build();

        assertThat(profile.name()).isEqualTo("generic");
        assertThat(profile.description()).isEmpty();
        assertThat(profile.pauseCycles()).isEqualTo(140);
        assertThat(profile.logicalProcessors()).isEqualTo(8);
        assertThat(profile.smtThreadsPerCore()).isEqualTo(2);
        assertThat(profile.sleepGranularityNs()).isEqualTo(1_060_000);
        assertThat(profile.timeSliceNs()).isEqualTo(4_000_000);
        assertThat(profile.cacheLineBytes()).isEqualTo(64);
    }

    @Test
    void shouldListFieldsInRecordOrderWhenAskedForNames() {
        assertThat(MachineField.names()).containsExactlyElementsOf(
                Arrays.stream(MachineProfile.class.getRecordComponents()).map(c -> c.getName()).toList());
    }

    /** cycles * fl(1000 / ghz), rounded half up, computed with BigDecimal. */
    private static long exactPicos(long cycles, double ghz) {
        BigDecimal picosPerCycle = new BigDecimal(1000.0 / ghz);
        return BigDecimal.valueOf(cycles).multiply(picosPerCycle).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    private static MachineProfile.Builder setTyped(MachineProfile.Builder builder, MachineField field, double value) {
        return switch (field) {
            case FREQUENCY_GHZ -> builder.frequencyGhz(value);
            case CLOCK_READ_NS -> builder.clockReadNs(value);
            case ATOMIC_OP_NS -> builder.atomicOpNs(value);
            case CACHE_LINE_TRANSFER_NS -> builder.cacheLineTransferNs(value);
            case CONTEXT_SWITCH_NS -> builder.contextSwitchNs(value);
            case WAKE_LATENCY_NS -> builder.wakeLatencyNs(value);
            case YIELD_READY_NS -> builder.yieldReadyNs(value);
            case YIELD_IDLE_NS -> builder.yieldIdleNs(value);
            case SLEEP_GRANULARITY_NS -> builder.sleepGranularityNs(value);
            case TIME_SLICE_NS -> builder.timeSliceNs(value);
            case CYCLES_PER_BYTECODE -> builder.cyclesPerBytecode(value);
            case STORE_BYTES_PER_CYCLE -> builder.storeBytesPerCycle(value);
            case WAKE_JITTER_PERCENT -> builder.wakeJitterPercent(value);
            case COST_JITTER_PERCENT -> builder.costJitterPercent(value);
            case SMT_SLOWDOWN -> builder.smtSlowdown(value);
            case WAKE_CALL_NS -> builder.wakeCallNs(value);
            case CROSS_SOCKET_TRANSFER_NS -> builder.crossSocketTransferNs(value);
            case INVALIDATION_NS -> builder.invalidationNs(value);
            default -> throw new IllegalArgumentException("not a number field: " + field);
        };
    }
}
