package io.spinlab.reports.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class BenchCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    @Test
    void shouldListTheSelectedBenchmarksWithoutRunningThem() {
        assertThat(run("bench", "--list", "Semaphore")).isZero();
        assertThat(out.toString().lines()).isNotEmpty().allMatch(l -> l.contains("SemaphoreBenchmark"));
    }

    @Test
    void shouldRejectBadSettingsWithExitTwo() {
        assertThat(run("bench", "--forks", "0", "Seam")).isEqualTo(2);
        assertThat(err.toString()).contains("--forks 0 is out of range; allowed 1..20");
        assertThat(run("bench", "--time", "-1")).isEqualTo(2);
        // Not rounded up behind the user's back: JMH counts whole milliseconds.
        assertThat(run("bench", "--time", "0.0001", "Seam")).isEqualTo(2);
        assertThat(err.toString()).contains("--time 1.0E-4 is out of range").contains("allowed 0.001..");
        assertThat(run("bench", "--threads", "4")).isEqualTo(2);
        assertThat(run("bench", "--filter", "Lock", "Seam")).isEqualTo(2);
        assertThat(err.toString()).contains("differ");
    }

    @Test
    void shouldRejectAFilterThatMatchesNothingOrIsNoRegexWithExitTwo() {
        assertThat(run("bench", "NoSuchBenchmarkAnywhere")).isEqualTo(2);
        assertThat(err.toString()).contains("no benchmark matches 'NoSuchBenchmarkAnywhere'");
        assertThat(run("bench", "--list", "Lock(")).isEqualTo(2);
        assertThat(err.toString()).contains("is not a regular expression");
    }

    @Test
    void shouldRejectIterationsAndForksOutOfRangeWithExitTwo() {
        assertThat(run("bench", "--iterations", "0", "Seam")).isEqualTo(2);
        assertThat(err.toString()).contains("--iterations 0 is out of range; allowed 1..");
        assertThat(run("bench", "--forks", "21", "Seam")).isEqualTo(2);
        assertThat(err.toString()).contains("--forks 21 is out of range; allowed 1..20");
        assertThat(run("bench", "--warmup-iterations", "-1", "Seam")).isEqualTo(2);
        assertThat(err.toString()).contains("--warmup-iterations -1 is out of range");
    }

    @Test
    void shouldDefaultToThreeForksSoThatIntervalsHoldForkToForkSpread() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("default 3;");
    }
}
