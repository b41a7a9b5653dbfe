package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run --workload-class ... --classpath ...}: a workload compiled here, outside spinlab's
 * class path, runs instrumented like a built-in one; a wrong class is a one-line error.
 */
class UserWorkloadCommandTest {

    @TempDir
    static Path classes;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** A workload of a user's: one thread counts on a volatile field, reading the clock every 100 steps. */
    private static final String COUNTING = """
            package com.example.userwork;

            import io.spinlab.impl.spin.SpinContext;
            import io.spinlab.sim.workload.Workload;
            import io.spinlab.sim.workload.WorkloadResult;

            public final class Counting implements Workload {
                private final int steps;
                private volatile int count;

                public Counting(String parameters) {
                    this.steps = parameters.isEmpty() ? 1000 : Integer.parseInt(parameters.replace("steps=", ""));
                }

                public String name() { return "counting"; }
                public String parameters() { return "steps=" + steps; }

                public WorkloadResult run(SpinContext context) {
                    long start = context.platform().nanoTime();
                    for (int i = 0; i < steps; i++) {
                        count = count + 1;
                    }
                    long elapsed = context.platform().nanoTime() - start;
                    return new WorkloadResult(name(), parameters(), context.platform().toString(), count, elapsed);
                }
            }
            """;

    private static final String NOT_A_WORKLOAD = """
            package com.example.userwork;

            public final class NotAWorkload {
            }
            """;

    private static final String NO_CONSTRUCTOR = """
            package com.example.userwork;

            import io.spinlab.impl.spin.SpinContext;
            import io.spinlab.sim.workload.Workload;
            import io.spinlab.sim.workload.WorkloadResult;

            public final class NeedsAnInt implements Workload {
                public NeedsAnInt(int steps) { }
                public String name() { return "needs-an-int"; }
                public String parameters() { return ""; }
                public WorkloadResult run(SpinContext context) { return null; }
            }
            """;

    @BeforeAll
    static void compile() throws Exception {
        Path sources = Files.createDirectories(classes.resolve("src/com/example/userwork"));
        Files.writeString(sources.resolve("Counting.java"), COUNTING);
        Files.writeString(sources.resolve("NotAWorkload.java"), NOT_A_WORKLOAD);
        Files.writeString(sources.resolve("NeedsAnInt.java"), NO_CONSTRUCTOR);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.resolve("out").toString(), "-cp",
                System.getProperty("java.class.path"), sources.resolve("Counting.java").toString(),
                sources.resolve("NotAWorkload.java").toString(), sources.resolve("NeedsAnInt.java").toString());
        assertThat(rc).as("javac").isZero();
    }

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    private String userClasses() {
        return classes.resolve("out").toString();
    }

    @Test
    void shouldRunAUsersWorkloadInstrumentedWhenItIsNamedWithItsClassPath() throws Exception {
        String[] args = {"run", "--workload-class", "com.example.userwork.Counting", "--classpath", userClasses(),
            "--param", "steps=500", "--json"};
        assertThat(run(args)).as(err.toString()).isZero();
        JsonNode first = new ObjectMapper().readTree(out.toString());

        assertThat(first.get("workload").asText()).isEqualTo("counting");
        assertThat(first.get("costModel").asText()).isEqualTo("full");
        assertThat(first.get("score").asDouble()).isPositive();
        assertThat(run(args)).isZero();
        assertThat(new ObjectMapper().readTree(out.toString()).get("digest")).isEqualTo(first.get("digest"));
        // Each step is a volatile read and a volatile write of the user's code, each a costed access:
        // 500 more steps, exactly 1000 more accesses.
        args[6] = "steps=1000";
        assertThat(run(args)).isZero();
        JsonNode longer = new ObjectMapper().readTree(out.toString());
        assertThat(longer.get("memoryAccesses").asLong() - first.get("memoryAccesses").asLong()).isEqualTo(1000);
    }

    @Test
    void shouldNameTheClassAndThePathWhenTheClassIsNotThere() {
        assertThat(run("run", "--workload-class", "com.example.userwork.Missing", "--classpath", userClasses()))
                .isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--workload-class com.example.userwork.Missing: no such class on "
                + "--classpath " + userClasses());
        assertThat(err.toString().strip()).doesNotContain("\n");
    }

    @Test
    void shouldSayWhatAWorkloadIsWhenTheClassIsNotOne() {
        assertThat(run("run", "--workload-class", "com.example.userwork.NotAWorkload", "--classpath", userClasses()))
                .isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("does not implement io.spinlab.sim.workload.Workload");
    }

    @Test
    void shouldSayWhichConstructorsAreAcceptedWhenNoneIs() {
        assertThat(run("run", "--workload-class", "com.example.userwork.NeedsAnInt", "--classpath", userClasses()))
                .isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("has no public constructor taking no argument or one String");
    }

    @Test
    void shouldRefuseBothOrNeitherWorkloadOption() {
        assertThat(run("run", "--workload", "mres-wait-latency", "--workload-class", "com.example.userwork.Counting"))
                .isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("give --workload NAME or --workload-class CLASS (exactly one)");
        assertThat(run("run")).isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("give --workload NAME or --workload-class CLASS (exactly one)");
    }
}
