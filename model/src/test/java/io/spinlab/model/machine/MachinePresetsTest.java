package io.spinlab.model.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MachinePresetsTest {

    @Test
    void shouldListExactlyTheDocumentedNamesWhenAskedForNames() {
        assertThat(MachinePresets.names()).containsExactly(
                "sandybridge-e5-1650", "skylake-i7-6700", "kabylake-e3-1245v6", "haswell-i5-4670k",
                "kabylake-i7-7700hq", "kabylake-i7-7700", "ivybridge-e7-4x12", "xeon-2s-32t",
                "future-pause-300", "arm-noop-pause", "manycore-256", "windows-skylake-i7-6700");
        assertThat(MachinePresets.all()).extracting(MachineProfile::name)
                .containsExactlyElementsOf(MachinePresets.names());
    }

    static Stream<Arguments> keyFigures() {
        return Stream.of(
                Arguments.of("sandybridge-e5-1650", 6, 12, 3.2, 10),
                Arguments.of("skylake-i7-6700", 4, 8, 3.4, 140),
                Arguments.of("kabylake-e3-1245v6", 4, 8, 3.7, 140),
                Arguments.of("haswell-i5-4670k", 4, 4, 3.4, 10),
                Arguments.of("kabylake-i7-7700hq", 4, 8, 2.8, 140),
                Arguments.of("kabylake-i7-7700", 4, 8, 3.6, 140),
                Arguments.of("ivybridge-e7-4x12", 48, 96, 2.7, 10),
                Arguments.of("xeon-2s-32t", 16, 32, 2.4, 10),
                Arguments.of("future-pause-300", 8, 16, 3.5, 300),
                Arguments.of("arm-noop-pause", 8, 8, 3.0, 1),
                Arguments.of("manycore-256", 128, 256, 2.5, 140),
                Arguments.of("windows-skylake-i7-6700", 4, 8, 3.4, 140));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyFigures")
    void shouldHaveSpecifiedFiguresWhenLookedUpByName(String name, int cores, int logical, double ghz, int pause) {
        MachineProfile profile = MachinePresets.byName(name);

        assertThat(profile.name()).isEqualTo(name);
        assertThat(profile.physicalCores()).isEqualTo(cores);
        assertThat(profile.logicalProcessors()).isEqualTo(logical);
        assertThat(profile.frequencyGhz()).isEqualTo(ghz);
        assertThat(profile.pauseCycles()).isEqualTo(pause);
        assertThat(profile.cacheLineBytes()).isEqualTo(64);
        assertThat(profile.description()).isNotBlank().doesNotContain("\n");
    }

    @Test
    void shouldCoverEveryPresetWhenCheckingKeyFigures() {
        assertThat(keyFigures().map(arguments -> (String) arguments.get()[0]))
                .containsExactlyElementsOf(MachinePresets.names());
    }

    @Test
    void shouldRoundTripThroughConstructorWhenRebuilt() {
        for (MachineProfile profile : MachinePresets.all()) {
            assertThat(profile.toBuilder().build()).isEqualTo(profile);
        }
    }

    @Test
    void shouldCostAboutFortyOneNanosecondsPerPauseWhenSkylake() {
        assertThat(MachinePresets.byName("skylake-i7-6700").pauseNs()).isCloseTo(41.2, within(0.1));
        assertThat(MachinePresets.byName("sandybridge-e5-1650").pauseNs()).isCloseTo(3.1, within(0.05));
    }

    @Test
    void shouldChargeAnUpgradeTheMeasuredShareOfTheTransferWhenPreset() {
        // x86: the median share, 0.59, of the Intel parts measured both ways; Arm: the Cortex-A76's 0.18
        for (MachineProfile preset : MachinePresets.all()) {
            double share = preset.name().startsWith("arm") ? 0.18 : 0.59;
            assertThat(preset.invalidationNs()).as(preset.name())
                    .isEqualTo(Math.round(share * preset.cacheLineTransferNs()));
        }
        assertThat(MachinePresets.byName("skylake-i7-6700").invalidationNs()).isEqualTo(12);
        assertThat(MachinePresets.byName("xeon-2s-32t").invalidationNs()).isEqualTo(26);
        assertThat(MachinePresets.byName("arm-noop-pause").invalidationNs()).isEqualTo(7);
    }

    @Test
    void shouldChargeTheServerRingWithinAndOneQpiHopBetweenSocketsWhenSeveralSockets() {
        MachineProfile twoSockets = MachinePresets.byName("xeon-2s-32t");
        MachineProfile fourSockets = MachinePresets.byName("ivybridge-e7-4x12");

        assertThat(twoSockets.sockets()).isEqualTo(2);
        assertThat(fourSockets.sockets()).isEqualTo(4);
        for (MachineProfile server : List.of(twoSockets, fourSockets)) {
            assertThat(server.cacheLineTransferNs()).as(server.name()).isEqualTo(44);
            assertThat(server.crossSocketTransferNs()).as(server.name()).isEqualTo(118);
        }
        assertThat(MachinePresets.all().stream().filter(m -> m.sockets() > 1).map(MachineProfile::name))
                .containsExactlyInAnyOrder("xeon-2s-32t", "ivybridge-e7-4x12");
    }

    @Test
    void shouldDifferOnlyInTimerAndSliceWhenWindowsSkylake() {
        MachineProfile linux = MachinePresets.byName("skylake-i7-6700");
        MachineProfile windows = MachinePresets.byName("windows-skylake-i7-6700");

        assertThat(windows.sleepGranularityNs()).isEqualTo(15_625_000);
        assertThat(windows.timeSliceNs()).isEqualTo(31_250_000);
        assertThat(linux.sleepGranularityNs()).isEqualTo(1_060_000);
        assertThat(linux.timeSliceNs()).isEqualTo(4_000_000);
        assertThat(windows.toBuilder().name(linux.name()).description(linux.description())
                .sleepGranularityNs(linux.sleepGranularityNs()).timeSliceNs(linux.timeSliceNs()).build())
                .isEqualTo(linux);
    }

    @Test
    void shouldModelYieldWithReadyThreadAsContextSwitchWhenLinuxDefaults() {
        MachineProfile profile = MachinePresets.byName("skylake-i7-6700");

        assertThat(profile.yieldReadyNs()).isEqualTo(profile.contextSwitchNs());
        assertThat(profile.yieldIdleNs()).isLessThan(profile.yieldReadyNs());
        assertThat(profile.clockReadNs()).isEqualTo(20);
        assertThat(profile.atomicOpNs()).isCloseTo(20 / 3.4, within(0.1));
    }

    @Test
    void shouldHaveNoSmtWhenHaswellOrArm() {
        assertThat(MachinePresets.byName("haswell-i5-4670k").smtThreadsPerCore()).isEqualTo(1);
        assertThat(MachinePresets.byName("arm-noop-pause").smtThreadsPerCore()).isEqualTo(1);
        assertThat(MachinePresets.byName("ivybridge-e7-4x12").smtThreadsPerCore()).isEqualTo(2);
    }

    @Test
    void shouldListValidNamesWhenNameUnknown() {
        assertThatThrownBy(() -> MachinePresets.byName("skylake"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown machine preset 'skylake'")
                .hasMessageContaining("skylake-i7-6700")
                .hasMessageContaining("manycore-256");
        assertThat(MachinePresets.contains("skylake")).isFalse();
        assertThat(MachinePresets.contains("skylake-i7-6700")).isTrue();
    }
}
