package io.spinlab.reports.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class HuntCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    @Test
    void shouldReportAShrunkRegressionAndReplayIt() {
        int code = run("hunt", "--baseline", "current", "--candidate", "current,spin=none", "--workload",
                "mres-wait-drain-rate", "--budget", "20", "--seed", "7", "--fail-on-regression");
        assertThat(code).isEqualTo(SpinlabCommand.EXIT_CHECK_FAILED);
        String report = out.toString();
        assertThat(report).contains("regression found").contains("replay: ./spinlab hunt");
        String replay = report.substring(report.indexOf("--replay ") + "--replay ".length()).strip();
        String caseLine = report.lines().filter(l -> l.strip().startsWith("case:")).findFirst().orElseThrow();

        out.getBuffer().setLength(0);
        assertThat(run("hunt", "--baseline", "current", "--candidate", "current,spin=none", "--workload",
                "mres-wait-drain-rate", "--replay", replay)).isZero();
        assertThat(out.toString()).contains(caseLine.strip());
    }

    @Test
    void shouldExitWithTwoOnABadTuningOrWorkload() {
        assertThat(run("hunt", "--baseline", "nope", "--candidate", "current")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown tuning preset 'nope'");
        assertThat(run("hunt", "--baseline", "legacy", "--candidate", "current", "--workload", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown hunt workload 'x'");
        assertThat(run("hunt", "--candidate", "current")).isEqualTo(2);
    }
}
