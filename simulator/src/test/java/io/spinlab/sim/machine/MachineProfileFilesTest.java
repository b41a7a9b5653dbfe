package io.spinlab.sim.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.machine.MachineProfileFiles.Format;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MachineProfileFilesTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"profile.json", "profile.yaml", "profile.yml", "PROFILE.JSON"})
    void shouldLoadEqualProfileWhenEveryPresetWrittenAndReadBack(String fileName) throws IOException {
        Path file = dir.resolve(fileName);
        for (MachineProfile preset : MachinePresets.all()) {
            MachineProfileFiles.write(preset, file);

            assertThat(MachineProfileFiles.load(file)).isEqualTo(preset);
        }
    }

    @Test
    void shouldWritePlainNumbersInFieldOrderWhenJson() {
        MachineProfile windows = MachinePresets.byName("windows-skylake-i7-6700");
        String json = MachineProfileFiles.toJson(windows);

        assertThat(json).startsWith("{\n  \"name\" : \"windows-skylake-i7-6700\",\n  \"description\" : ")
                .contains("\"frequencyGhz\" : 3.4,\n  \"pauseCycles\" : 140,")
                .contains("\"sleepGranularityNs\" : 15625000,")
                .doesNotContain("E7")
                .endsWith("\"cacheLineBytes\" : 64,\n  \"cyclesPerBytecode\" : 0.2,\n  \"storeBytesPerCycle\" : 32,\n"
                        + "  \"wakeJitterPercent\" : 50,\n"
                        + "  \"costJitterPercent\" : 5,\n"
                        + "  \"os\" : \"windows\",\n"
                        + "  \"smtSlowdown\" : 1.54,\n"
                        + "  \"wakeCallNs\" : 1000,\n"
                        + "  \"sockets\" : 1,\n"
                        + "  \"crossSocketTransferNs\" : 118,\n"
                        + "  \"invalidationNs\" : 12\n}\n");
        assertThat(MachineProfileFiles.parse(json, Format.JSON)).isEqualTo(windows);
    }

    @Test
    void shouldWriteReadableYamlWhenYaml() {
        String yaml = MachineProfileFiles.toText(SKYLAKE, Format.YAML);

        assertThat(yaml).startsWith("name: \"skylake-i7-6700\"\n").contains("pauseCycles: 140\n")
                .contains("timeSliceNs: 4000000\n");
        assertThat(MachineProfileFiles.parse(yaml, Format.YAML)).isEqualTo(SKYLAKE);
    }

    @Test
    void shouldStartFromPresetAndOverrideWhenBaseGiven() throws IOException {
        Path file = dir.resolve("slow-pause.yaml");
        Files.writeString(file, """
                # Skylake with a PAUSE as slow as a future part's
                base: skylake-i7-6700
                name: skylake-pause-300
                pauseCycles: 300
                yieldIdleNs: 250.5
                """);

        MachineProfile profile = MachineProfileFiles.load(file);

        assertThat(profile).isEqualTo(SKYLAKE.toBuilder().name("skylake-pause-300").pauseCycles(300)
                .yieldIdleNs(250.5).build());
        assertThat(profile.description()).isEqualTo(SKYLAKE.description());
    }

    @Test
    void shouldKeepThreadsPerCoreWhenBaseAndOnlyLogicalProcessorsGiven() {
        MachineProfile profile = MachineProfileFiles.parse("""
                {"base": "skylake-i7-6700", "name": "skylake-16", "logicalProcessors": 16}
                """, Format.JSON);

        assertThat(profile.physicalCores()).isEqualTo(8);
        assertThat(profile.smtThreadsPerCore()).isEqualTo(2);
    }

    @Test
    void shouldLoadCompleteProfileWhenNoBase() {
        String json = """
                {
                  "name": "my-box",
                  "frequencyGhz": 3,
                  "pauseCycles": 40,
                  "physicalCores": 2,
                  "logicalProcessors": 4,
                  "clockReadNs": 25,
                  "atomicOpNs": 7,
                  "cacheLineTransferNs": 55,
                  "contextSwitchNs": 2500,
                  "wakeLatencyNs": 4000,
                  "yieldReadyNs": 2500,
                  "yieldIdleNs": 200,
                  "sleepGranularityNs": 1000000,
                  "timeSliceNs": 3000000
                }
                """;

        MachineProfile profile = MachineProfileFiles.parse(json, Format.JSON);

        assertThat(profile.name()).isEqualTo("my-box");
        assertThat(profile.frequencyGhz()).isEqualTo(3.0);
        assertThat(profile.cacheLineBytes()).isEqualTo(64);
        assertThat(profile.description()).isEmpty();
        assertThat(profile.pauseNs()).isEqualTo(40 / 3.0);
    }

    @Test
    void shouldListMissingFieldsWhenNoBaseAndFieldsMissing() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("{\"name\": \"x\", \"pauseCycles\": 10}", Format.JSON))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("machine text (JSON): missing frequencyGhz, physicalCores, logicalProcessors,")
                .hasMessageContaining("skylake-i7-6700");
    }

    @Test
    void shouldRequireNameWhenBaseGiven() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("base: skylake-i7-6700\npauseCycles: 10\n", Format.YAML))
                .hasMessage("machine text (YAML): name is missing; every machine profile file names its machine");
    }

    @Test
    void shouldListValidKeysWhenKeyUnknown() throws IOException {
        Path file = dir.resolve("typo.json");
        Files.writeString(file, "{\"base\": \"skylake-i7-6700\", \"name\": \"t\", \"pauseCycle\": 300}");

        assertThatThrownBy(() -> MachineProfileFiles.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("machine file '" + file + "': unknown key 'pauseCycle'; ")
                .hasMessageContaining("valid keys: base, name, description, frequencyGhz, pauseCycles,")
                .hasMessageEndingWith("cacheLineBytes, cyclesPerBytecode, storeBytesPerCycle, wakeJitterPercent, "
                        + "costJitterPercent, os, smtSlowdown, wakeCallNs, sockets, crossSocketTransferNs, "
                        + "invalidationNs");
    }

    @Test
    void shouldNameFieldWhenValueHasWrongType() throws IOException {
        Path file = dir.resolve("types.json");
        Files.writeString(file, "{\"base\": \"skylake-i7-6700\", \"name\": \"t\", \"pauseCycles\": \"300\"}");

        assertThatThrownBy(() -> MachineProfileFiles.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("machine file '" + file + "': pauseCycles must be a whole number, got the text \"300\"; "
                        + "allowed 0..10000");
        assertThatThrownBy(() -> parseJson("\"frequencyGhz\": true"))
                .hasMessageContaining("frequencyGhz must be a number, got the boolean true");
        assertThatThrownBy(() -> parseJson("\"pauseCycles\": 140.5"))
                .hasMessageContaining("pauseCycles must be a whole number, got the number 140.5");
        assertThatThrownBy(() -> parseJson("\"clockReadNs\": null"))
                .hasMessageContaining("clockReadNs must be a number, got null");
        assertThatThrownBy(() -> parseJson("\"description\": 5"))
                .hasMessageContaining("description must be text, got the number 5");
        assertThatThrownBy(() -> MachineProfileFiles.parse("{\"base\": 3, \"name\": \"t\"}", Format.JSON))
                .hasMessageContaining("base must be the name of a preset (text), got the number 3");
    }

    @Test
    void shouldPrefixFileNameWhenModelRejectsValue() throws IOException {
        Path file = dir.resolve("range.yml");
        Files.writeString(file, "base: skylake-i7-6700\nname: bad\npauseCycles: -3\n");

        assertThatThrownBy(() -> MachineProfileFiles.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("machine file '" + file + "': machine 'bad': pauseCycles = -3 is out of range; "
                        + "allowed 0..10000");
        assertThatThrownBy(() -> parseJson("\"logicalProcessors\": 6, \"physicalCores\": 4"))
                .hasMessageContaining("machine 't': logicalProcessors = 6 is not a multiple of physicalCores = 4");
        assertThatThrownBy(() -> parseJson("\"pauseCycles\": 99999999999999999999"))
                .hasMessageContaining("pauseCycles = 99999999999999999999 is out of range");
        assertThatThrownBy(() -> MachineProfileFiles.parse("{\"base\": \"skylake-i7-6700\", \"name\": \"  \"}",
                Format.JSON)).hasMessage("machine text (JSON): machine profile: name = '  ' is blank");
    }

    @Test
    void shouldGiveLineAndColumnWhenJsonMalformed() throws IOException {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{\n  \"name\": \"x\",\n  \"pauseCycles\": 300,\n}\n");

        assertThatThrownBy(() -> MachineProfileFiles.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("machine file '" + file + "': malformed JSON at line 4, column 1: ");
    }

    @Test
    void shouldGiveLineWhenYamlMalformed() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("name: x\npauseCycles: [1, 2\n", Format.YAML, "m.yaml"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("m.yaml: malformed YAML at line ");
    }

    @Test
    void shouldKeepErrorOnOneLineWhenYamlMalformed() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("name: x\n  pauseCycles: 3\n", Format.YAML))
                .hasMessage("machine text (YAML): malformed YAML at line 2, column 14: "
                        + "mapping values are not allowed here");
    }

    @Test
    void shouldRejectNumberTooLargeForDoubleWhenJson() {
        assertThatThrownBy(() -> parseJson("\"frequencyGhz\": 1e400"))
                .hasMessage("machine text (JSON): machine 't': frequencyGhz = Infinity is not a finite number; "
                        + "allowed 0.01..10");
    }

    @Test
    void shouldWriteLongDescriptionOnOneLineWhenYaml() {
        String description = "a description long enough that a YAML writer would fold it over two or more lines";
        MachineProfile profile = SKYLAKE.toBuilder().description(description).build();

        assertThat(MachineProfileFiles.toText(profile, Format.YAML)).contains("description: \"" + description + "\"\n");
    }

    @Test
    void shouldRejectDuplicateKeysWhenEitherFormat() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("{\"name\": \"a\", \"name\": \"b\"}", Format.JSON))
                .hasMessageContaining("malformed JSON at line 1").hasMessageContaining("Duplicate field 'name'");
        assertThatThrownBy(() -> MachineProfileFiles.parse("name: a\nname: b\n", Format.YAML))
                .hasMessageContaining("malformed YAML at line 2").hasMessageContaining("Duplicate field 'name'");
    }

    @Test
    void shouldRejectTrailingContentWhenJson() {
        assertThatThrownBy(() -> MachineProfileFiles.parse(MachineProfileFiles.toJson(SKYLAKE) + "{}", Format.JSON))
                .hasMessageContaining("malformed JSON");
    }

    @Test
    void shouldRejectEmptyOrNonObjectWhenParsed() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("  ", Format.JSON))
                .hasMessage("machine text (JSON): is empty; expected an object of machine fields");
        assertThatThrownBy(() -> MachineProfileFiles.parse("", Format.YAML))
                .hasMessage("machine text (YAML): is empty; expected an object of machine fields");
        assertThatThrownBy(() -> MachineProfileFiles.parse("[1, 2]", Format.JSON))
                .hasMessage("machine text (JSON): expected an object of machine fields, got a list");
    }

    @Test
    void shouldListPresetsWhenBaseUnknown() {
        assertThatThrownBy(() -> MachineProfileFiles.parse("{\"base\": \"skylake\", \"name\": \"t\"}", Format.JSON))
                .hasMessageStartingWith("machine text (JSON): base = 'skylake' is not a preset; valid presets: "
                        + "sandybridge-e5-1650, skylake-i7-6700");
    }

    @Test
    void shouldRejectFileWhenExtensionUnknown() throws IOException {
        Path file = dir.resolve("profile.toml");
        Files.writeString(file, "name = 'x'");

        assertThatThrownBy(() -> MachineProfileFiles.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("machine file '" + file + "': unknown file format; a machine profile file ends with "
                        + ".json, .yaml or .yml");
        assertThatThrownBy(() -> MachineProfileFiles.write(SKYLAKE, dir.resolve("out.txt")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown file format");
    }

    @Test
    void shouldStartWithBaseWhenListingValidKeys() {
        assertThat(MachineProfileFiles.validKeys()).startsWith("base", "name", "description").endsWith("cacheLineBytes",
                "cyclesPerBytecode", "storeBytesPerCycle", "wakeJitterPercent", "costJitterPercent", "os", "smtSlowdown",
                "wakeCallNs", "sockets", "crossSocketTransferNs", "invalidationNs").hasSize(27);
    }

    private static MachineProfile parseJson(String fields) {
        return MachineProfileFiles.parse("{\"base\": \"skylake-i7-6700\", \"name\": \"t\", " + fields + "}",
                Format.JSON);
    }
}
