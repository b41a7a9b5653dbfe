package io.spinlab.sim.tuning;

import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TuningFilesTest {

    @TempDir
    Path dir;

    @Test
    void shouldApplyKnobsOnTheBasePresetWhenLoadingYaml() throws Exception {
        Path file = dir.resolve("t.yaml");
        Files.writeString(file, "base: legacy\nreservation: lockless\n");
        assertThat(TuningFiles.load(file)).isEqualTo(Tuning.parse("legacy,reservation=lockless"));
    }

    @Test
    void shouldStartFromCurrentWhenJsonHasNoBase() throws Exception {
        Path file = dir.resolve("t.json");
        Files.writeString(file, "{\"spin\": \"proc-scaled\"}");
        assertThat(TuningFiles.load(file)).isEqualTo(Tuning.parse("current,spin=proc-scaled"));
    }

    @Test
    void shouldNameTheFileAndTheValidKeysWhenAKeyIsUnknown() throws Exception {
        Path file = dir.resolve("t.yaml");
        Files.writeString(file, "spinn: none\n");
        assertThatThrownBy(() -> TuningFiles.load(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tuning file '" + file + "': unknown key 'spinn'")
                .hasMessageContaining("valid keys: base, spin, spinwait, pause");
    }

    @Test
    void shouldListTheValidValuesWhenAValueIsUnknown() {
        assertThatThrownBy(() -> TuningFiles.parse("spin: fast", false, "tuning file 'x.yaml'"))
                .hasMessageStartingWith("tuning file 'x.yaml': ").hasMessageContaining("valid values:");
    }

    @Test
    void shouldRejectMalformedEmptyAndNonTextInput() {
        assertThatThrownBy(() -> TuningFiles.parse("{\"spin\": ", true, "f")).hasMessageStartingWith("f: malformed JSON");
        assertThatThrownBy(() -> TuningFiles.parse("", false, "f")).hasMessageStartingWith("f: is empty");
        assertThatThrownBy(() -> TuningFiles.parse("spin: 3", false, "f")).hasMessageContaining("spin must be text");
        assertThatThrownBy(() -> TuningFiles.parse("base: newest", false, "f"))
                .hasMessageContaining("unknown tuning preset 'newest'");
        assertThatThrownBy(() -> TuningFiles.parse("spin: none\nspin: none\n", false, "f"))
                .hasMessageContaining("Duplicate");
    }

    @Test
    void shouldSayAMissingFileDoesNotExist() {
        assertThatThrownBy(() -> TuningFiles.load(dir.resolve("none.yaml"))).hasMessageEndingWith("does not exist");
    }
}
