package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class MachinesCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    @Test
    void shouldListEveryPresetWithItsKeyFigures() {
        assertThat(run("machines")).isZero();
        assertThat(out.toString()).contains("skylake-i7-6700").contains("sandybridge-e5-1650")
                .contains("ivybridge-e7-4x12").contains("PAUSE cycles");
        String skylakeLine = out.toString().lines().filter(l -> l.startsWith("skylake-i7-6700 ")).findFirst()
                .orElseThrow();
        assertThat(skylakeLine).contains("4/8").contains("3.4").contains("140").contains("41.2").contains(" windows ");
    }

    @Test
    void shouldPrintJsonThatParses() throws Exception {
        assertThat(run("machines", "--json")).isZero();
        JsonNode array = new ObjectMapper().readTree(out.toString());
        assertThat(array.isArray()).isTrue();
        JsonNode first = array.get(0);
        assertThat(first.has("name")).isTrue();
        assertThat(first.has("pauseCycles")).isTrue();
        assertThat(first.has("logicalProcessors")).isTrue();
        // Every field of the profile is listed, the scheduler rules and SMT among them.
        for (io.spinlab.model.machine.MachineField field : io.spinlab.model.machine.MachineField.values()) {
            assertThat(first.has(field.fieldName())).as(field.fieldName()).isTrue();
        }
        assertThat(first.get("os").asText()).as("sandybridge-e5-1650, a published machine").isEqualTo("windows");
        assertThat(first.get("smtSlowdown").asDouble()).isEqualTo(1.54);
        assertThat(first.get("wakeCallNs").asDouble()).isEqualTo(1_000);
        assertThat(first.get("sockets").asInt()).as("a one-socket part").isEqualTo(1);
    }

    @Test
    void shouldExitWithTwoOnBadUsage() {
        assertThat(run("machines", "--no-such-option")).isEqualTo(2);
        assertThat(err.toString()).contains("--no-such-option");
        assertThat(run("no-such-command")).isEqualTo(2);
    }

    @Test
    void shouldAnswerHelpOnEverySubcommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("machines");
        assertThat(run("machines", "--help")).isZero();
        assertThat(out.toString()).contains("--json");
    }
}
