package io.spinlab.model.machine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MachineSpecTest {

    @Test
    void shouldDescribeAPresetByItsNameAlone() {
        MachineProfile skylake = MachinePresets.byName("skylake-i7-6700");
        assertThat(MachineSpec.describe(skylake)).isEqualTo("skylake-i7-6700");
        assertThat(MachineSpec.parse("skylake-i7-6700")).isEqualTo(skylake);
    }

    @Test
    void shouldDescribeAChangedPresetAsItsChangesAndReadThemBack() {
        MachineProfile changed = MachinePresets.byName("skylake-i7-6700").withPauseCycles(300)
                .withProcessors(64, 64);
        String text = MachineSpec.describe(changed);
        assertThat(text).isEqualTo("skylake-i7-6700 pauseCycles=300 physicalCores=64 logicalProcessors=64");
        assertThat(MachineSpec.parse(text)).isEqualTo(changed);
    }

    @Test
    void shouldRoundTripEveryPresetWithEveryFieldChanged() {
        for (MachineProfile preset : MachinePresets.all()) {
            MachineProfile changed = preset.toBuilder().name("from-a-file").description("x".repeat(100_000))
                    .pauseCycles(preset.pauseCycles() + 7).physicalCores(preset.physicalCores() * 2)
                    .logicalProcessors(preset.logicalProcessors() * 2).wakeLatencyNs(1234.5).build();
            String text = MachineSpec.describe(changed);
            assertThat(text).hasSizeLessThan(300).doesNotContain("xxx");
            MachineProfile back = MachineSpec.parse(text);
            assertThat(back).isEqualTo(changed.toBuilder().name(back.name()).description(back.description()).build());
        }
    }

    @Test
    void shouldNameWhatIsWrongInABadLine() {
        assertThatThrownBy(() -> MachineSpec.parse("nosuch")).hasMessageContaining("unknown machine preset 'nosuch'");
        assertThatThrownBy(() -> MachineSpec.parse("skylake-i7-6700 pauseCycles"))
                .hasMessageContaining("must be field=value");
        assertThatThrownBy(() -> MachineSpec.parse("skylake-i7-6700 bogus=1")).hasMessageContaining("bogus");
        assertThatThrownBy(() -> MachineSpec.parse("skylake-i7-6700 pauseCycles=1 pauseCycles=2"))
                .hasMessageContaining("set twice");
        assertThatThrownBy(() -> MachineSpec.parse(" ")).hasMessageContaining("empty machine");
    }
}
