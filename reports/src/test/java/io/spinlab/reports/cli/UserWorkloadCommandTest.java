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

    /**
     * A user's windowed workload that takes the parameters a sweep and a hunt pass: threads
     * increment one counter by CAS, pausing {@code backoff} times after a lost CAS.
     */
    private static final String CAS_COUNTER = """
            package com.example.userwork;

            import io.spinlab.impl.spin.SpinContext;
            import io.spinlab.sim.workload.MeasuredRun;
            import io.spinlab.sim.workload.ThreadCount;
            import io.spinlab.sim.workload.Window;
            import io.spinlab.sim.workload.Workload;
            import io.spinlab.sim.workload.WorkloadResult;

            import java.lang.invoke.MethodHandles;
            import java.lang.invoke.VarHandle;
            import java.util.HashMap;
            import java.util.Map;

            public final class CasCounter implements Workload {
                private static final VarHandle COUNT;
                static {
                    try {
                        COUNT = MethodHandles.lookup().findVarHandle(CasCounter.class, "count", int.class);
                    } catch (ReflectiveOperationException e) {
                        throw new ExceptionInInitializerError(e);
                    }
                }
                private final String parameters;
                private final ThreadCount threads;
                private final Window window;
                private volatile int count;

                public CasCounter(String parameters) {
                    this.parameters = parameters;
                    Map<String, String> given = new HashMap<>();
                    for (String pair : parameters.split(",")) {
                        if (!pair.isBlank()) {
                            String[] kv = pair.split("=", 2);
                            given.put(kv[0].strip(), kv[1].strip());
                        }
                    }
                    threads = ThreadCount.parse(given.getOrDefault("threads", "2"));
                    window = Window.parse(given.getOrDefault("warmup", "50us"), given.getOrDefault("window", "200us"));
                }

                public String name() { return "cas-counter"; }
                public String parameters() { return parameters; }

                public WorkloadResult run(SpinContext context) throws InterruptedException {
                    int n = threads.resolve(context.platform().processorCount());
                    MeasuredRun run = new MeasuredRun(context, window, n);
                    for (int t = 0; t < n; t++) {
                        run.start("counter-" + t, slot -> {
                            while (run.running()) {
                                int seen = count;
                                while (!COUNT.compareAndSet(this, seen, seen + 1)) {
                                    context.platform().pause(4);
                                    seen = count;
                                }
                                run.count(slot);
                            }
                        });
                    }
                    return run.measure(this, () -> { });
                }
            }
            """;

    private static final String NOT_A_WORKLOAD = """
            package com.example.userwork;

            public final class NotAWorkload {
            }
            """;

    private static final String NO_PARAMETERS = """
            package com.example.userwork;

            import io.spinlab.impl.spin.SpinContext;
            import io.spinlab.sim.workload.Workload;
            import io.spinlab.sim.workload.WorkloadResult;

            public final class Fixed implements Workload {
                public Fixed() { }
                public String name() { return "fixed"; }
                public String parameters() { return ""; }
                public WorkloadResult run(SpinContext context) { return null; }
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
        Files.writeString(sources.resolve("CasCounter.java"), CAS_COUNTER);
        Files.writeString(sources.resolve("NotAWorkload.java"), NOT_A_WORKLOAD);
        Files.writeString(sources.resolve("NeedsAnInt.java"), NO_CONSTRUCTOR);
        Files.writeString(sources.resolve("Fixed.java"), NO_PARAMETERS);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.resolve("out").toString(), "-cp",
                System.getProperty("java.class.path"), sources.resolve("Counting.java").toString(),
                sources.resolve("CasCounter.java").toString(), sources.resolve("NotAWorkload.java").toString(), sources.resolve("NeedsAnInt.java").toString(),
                sources.resolve("Fixed.java").toString());
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
    void shouldSweepAUsersWorkloadWithWhatif() throws Exception {
        Path report = classes.resolve("whatif-report");
        assertThat(run("whatif", "--workload-class", "com.example.userwork.CasCounter", "--classpath", userClasses(),
                "--threads", "2", "--pause-cycles", "10,140", "--processors", "2", "--left", "current",
                "--right", "current,spin=none", "--out", report.toString(), "-q")).as(err.toString()).isZero();

        assertThat(out.toString()).contains("com.example.userwork.CasCounter at 2 threads");
        JsonNode rows = new ObjectMapper().readTree(report.resolve("data.json").toFile()).get("experiments").get(0)
                .get("rows");
        assertThat(rows).hasSize(2);
        for (JsonNode row : rows) {
            assertThat(row.get("workload").asText()).isEqualTo("cas-counter");
            assertThat(row.get("leftScore").asDouble()).isPositive();
            assertThat(row.get("rightScore").asDouble()).isPositive();
        }
    }

    @Test
    void shouldHuntOverAUsersWorkloadAndReplayIt() {
        assertThat(run("hunt", "--baseline", "current", "--candidate", "current", "--workload-class",
                "com.example.userwork.CasCounter", "--classpath", userClasses(), "--budget", "2", "-q"))
                .as(err.toString()).isZero();

        assertThat(out.toString()).contains("over [com.example.userwork.CasCounter]: no regression beyond 10.0 % in 2 "
                + "cases");
    }

    @Test
    void shouldRefuseAUsersWorkloadThatTakesNoParametersWhereTheCommandMustSetThem() {
        assertThat(run("whatif", "--workload-class", "com.example.userwork.Fixed", "--classpath", userClasses()))
                .isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--workload-class com.example.userwork.Fixed: a sweep sets threads, "
                + "warmup and window at every point, so it needs a public constructor taking one String");
        assertThat(run("hunt", "--baseline", "current", "--candidate", "current", "--workload-class",
                "com.example.userwork.Fixed", "--classpath", userClasses())).isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("a hunt sets threads, warmup and window: com.example.userwork.Fixed needs "
                + "a public constructor taking one String");
        assertThat(run("hunt", "--baseline", "current", "--candidate", "current", "--workload-class",
                "com.example.userwork.NotAWorkload", "--classpath", userClasses())).isEqualTo(SpinlabCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("does not implement io.spinlab.sim.workload.Workload");
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
