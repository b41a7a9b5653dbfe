package io.spinlab.reports.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bad input found by trying the command line, each a case: exit code 2, nothing on
 * standard output, exactly one line on standard error that says what was wrong.
 */
class CommandLineErrorsTest {

    @TempDir
    static Path tmp;

    private static Path file;
    private static Path binary;
    private static Path textTuning;

    @BeforeAll
    static void files() throws IOException {
        file = Files.writeString(tmp.resolve("afile"), "not a directory");
        binary = Files.write(tmp.resolve("binary.json"), new byte[] {(byte) 0xC3, (byte) 0x28, 0, (byte) 0xFF});
        textTuning = Files.writeString(tmp.resolve("x.txt"), "base: current");
    }

    private static final String W = "mres-wait-latency";

    static Stream<Arguments> badInputs() {
        List<Arguments> cases = new ArrayList<>();
        // Output paths: checked before any simulation or measurement.
        cases.add(bad("is a directory", "trace", "--workload", W, "--out", tmp.toString()));
        cases.add(bad("empty path", "trace", "--workload", W, "--out", ""));
        cases.add(bad("is a file, not a directory", "trace", "--workload", W, "--out", file + "/trace.json"));
        if (Files.isDirectory(Path.of("/sys")) && !Files.isWritable(Path.of("/sys"))) {
            cases.add(bad("cannot be written", "trace", "--workload", W, "--out", "/sys/spinlab-trace.json"));
        }
        cases.add(bad("is a file, not a directory", "calibrate", "--out", file + "/host.json"));
        cases.add(bad("must end with .json", "calibrate", "--out", tmp.resolve("host.txt").toString()));
        cases.add(bad("--seeds 0 is out of range; allowed 1..100", "calibrate", "--seeds", "0"));
        cases.add(bad("--repetitions 101 is out of range; allowed 1..100", "calibrate", "--repetitions", "101"));
        // Benchmarks that do not exist, runs that would never end.
        cases.add(bad("no benchmark matches 'NoSuchBenchmark'", "bench", "NoSuchBenchmark"));
        cases.add(bad("no benchmark matches 'NoSuchBenchmark'", "bench", "--list", "NoSuchBenchmark"));
        cases.add(bad("not a regular expression", "bench", "--list", "Lock("));
        cases.add(bad("--time 1.0E9 is out of range; allowed 0.001..60", "bench", "--time", "1000000000"));
        cases.add(bad("--forks 0 is out of range", "bench", "--forks", "0"));
        cases.add(bad("allowed 1..100000", "hunt", "--baseline", "legacy", "--candidate", "current", "--budget",
                "1000000000"));
        cases.add(bad("--limit 0 is out of range", "trace", "--workload", W, "--out", tmp.resolve("t.json").toString(),
                "--limit", "0"));
        // Replays that name no case.
        cases.add(bad("is not a sequence", "hunt", "--baseline", "legacy", "--candidate", "current", "--replay",
                "c:"));
        cases.add(bad("is not a sequence", "hunt", "--baseline", "legacy", "--candidate", "current", "--replay",
                "c:99999,99999,99999,99999,99999,99999,99999,99999,99999,99999,99999,99999,99999,99999"));
        cases.add(bad("--budget does not apply", "hunt", "--baseline", "legacy", "--candidate", "current",
                "--replay", "c:0", "--budget", "5"));
        // Nonsense that used to run.
        cases.add(bad("empty setting in tuning ',,,'", "run", "--workload", W, "--tuning", ",,,"));
        cases.add(bad("empty setting", "run", "--workload", W, "--tuning", "current,"));
        cases.add(bad("not measurable", "run", "--workload", "mres-wait-drain-rate", "--duration", "1ns"));
        cases.add(bad("not measurable", "run", "--workload", "mres-wait-drain-rate", "--machine",
                "skylake-i7-6700 physicalCores=1 logicalProcessors=1", "--threads", "4096", "--duration", "100us"));
        cases.add(bad("--machine only apply to a simulated run", "run", "--workload", W, "--hardware", "--machine",
                "skylake-i7-6700"));
        cases.add(bad("--fast, --seed only apply", "run", "--workload", W, "--hardware", "--fast",
                "--seed", "3"));
        cases.add(bad("the sweep sets pauseCycles", "whatif", "--set", "pauseCycles=300"));
        cases.add(bad("the sweep sets logicalProcessors", "whatif", "--set", "logicalProcessors=8"));
        cases.add(bad("--pause-cycles gives 10 twice", "whatif", "--pause-cycles", "10,10"));
        cases.add(bad("--processors gives 4 twice", "whatif", "--processors", "4,16,4"));
        cases.add(bad("EXPERIMENT gives normalized-spin twice", "reproduce", "normalized-spin", "normalized-spin"));
        cases.add(bad("--parallelism -1 is out of range", "reproduce", "--parallelism", "-1"));
        // Files that are not what they should be, with messages that say so.
        cases.add(bad("not UTF-8 text", "run", "--workload", W, "--machine-file", binary.toString()));
        cases.add(bad("is a directory, not a file", "run", "--workload", W, "--machine-file", tmp.toString()));
        cases.add(bad("does not exist", "run", "--workload", W, "--machine-file", tmp.resolve("no.json").toString()));
        cases.add(bad("must end with .json, .yaml or .yml", "run", "--workload", W, "--tuning-file",
                textTuning.toString()));
        cases.add(bad("not UTF-8 text", "run", "--workload", W, "--tuning", binary.toString()));
        // Machines with changed fields and faults.
        cases.add(bad("unknown machine field 'bogus'", "run", "--workload", W, "--set", "bogus=1"));
        cases.add(bad("pauseCycles", "run", "--workload", W, "--machine", "skylake-i7-6700 pauseCycles=-5"));
        cases.add(bad("fault 'bogus' is not valid", "run", "--workload", W, "--faults", "bogus"));
        cases.add(bad("out of range; allowed 0..1", "run", "--workload", W, "--faults", "spurious=2/10us"));
        cases.add(bad("must be preempt=RATE/TIME", "trace", "--workload", W, "--out",
                tmp.resolve("f.json").toString(), "--faults", "preempt=0.1"));
        cases.add(bad("fault 'jitter' is given twice", "hunt", "--baseline", "legacy", "--candidate", "current",
                "--faults", "jitter=10ns,jitter=20ns"));
        return cases.stream();
    }

    private static Arguments bad(String message, String... args) {
        return Arguments.of(String.join(" ", args), message, args);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void shouldRejectBadInputWithOneLineAndExitCode2(String name, String message, String[] args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        assertThat(code).as("exit code; stderr: %s", err).isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(out.toString()).as("standard output").isEmpty();
        assertThat(err.toString().lines().toList()).as("standard error").hasSize(1)
                .first().asString().startsWith("spinlab: ").contains(message);
    }

    @Test
    void shouldReplayAValidCaseAndSayWhichCaseRan() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] hunt = {"hunt", "--baseline", "legacy", "--candidate", "legacy", "--workload", "mres-wait-latency",
            "--replay", "c:"};
        assertThat(SpinlabCommand.commandLine(new PrintWriter(out), new PrintWriter(err, true)).execute(hunt))
                .isEqualTo(2);
        Matcher drawn = Pattern.compile("draws (c:[0-9,]+)").matcher(err.toString());
        assertThat(drawn.find()).as(err.toString()).isTrue();
        hunt[hunt.length - 1] = drawn.group(1);
        err.getBuffer().setLength(0);
        assertThat(SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(hunt))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("replayed case: mres-wait-latency").contains("baseline:")
                .contains("candidate:").contains("+0.0 %");
    }

    @Test
    void shouldPrintEveryHelpScreenWithoutAWarning() {
        List<String> commands = new ArrayList<>();
        commands.add("");
        SpinlabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
                .getSubcommands().keySet().stream().filter(name -> !name.equals("help")).forEach(commands::add);
        assertThat(commands).contains("run", "trace", "reproduce", "whatif", "hunt", "calibrate", "bench");
        PrintStream systemErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (String command : commands) {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                String[] args = command.isEmpty() ? new String[] {"--help"} : new String[] {command, "--help"};
                int code = SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                        .execute(args);
                assertThat(code).as(command).isZero();
                assertThat(out.toString()).as(command).startsWith("Usage: spinlab").doesNotContain("%n");
                assertThat(err.toString()).as(command + " stderr").isEmpty();
            }
        } finally {
            System.setErr(systemErr);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).as("System.err during help").isEmpty();
    }
}
