package io.spinlab.reports.cli;

import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.trace.BlockerMetrics;
import io.spinlab.sim.trace.TraceRecorder;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code spinlab trace}: one simulated run as a Chrome trace-event file, plus who waited on what. */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {"Simulate one run with tracing on and write it as Chrome trace-event JSON (open it in "
                + "https://ui.perfetto.dev or chrome://tracing): a lane per processor and per thread, slices for "
                + "running, spinning, yielding, sleeping, parked and runnable, arrows from each unpark to the wake-up. "
                + "Prints a short summary of who waited on what."})
final class TraceCommand implements Callable<Integer> {

    @Mixin
    private RunSpec run;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the trace JSON.")
    private Path out;

    @Option(names = "--limit", defaultValue = "2000000", description = "Most trace records to keep "
            + "(default ${DEFAULT-VALUE}); a longer run is truncated, and says so.")
    private long limit;

    @Spec
    private CommandSpec spec;

    /** Most trace records: each takes about 100 bytes of heap while the run lasts. */
    static final long MAX_LIMIT = 50_000_000;

    @Override
    public Integer call() throws Exception {
        PrintWriter text = spec.commandLine().getOut();
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("--limit " + limit + " is out of range; allowed 1.." + MAX_LIMIT);
        }
        CliFiles.checkOutputFile("--out", out);
        Workload workload = run.workload();
        Simulation.Builder builder = run.simulation().trace(true).traceLimit(limit);
        SimulatedRun simulated = run.simulate(run.tuning(), builder);
        SimulationResult result = simulated.simulation();
        TraceRecorder trace = result.trace().orElseThrow(() -> new IllegalStateException("the run kept no trace"));
        try (OutputStream file = Files.newOutputStream(out)) {
            trace.writeChromeJson(file);
        }
        text.printf(Locale.ROOT, "%s on %s, tuning %s, seed %d: %s%n", workload.describe(), result.machine().name(),
                run.tuning().describe(), run.seed, result.outcome());
        text.printf(Locale.ROOT, "trace: %s (%d slices%s)%n", out, trace.sliceCount(),
                trace.truncated() ? ", truncated at --limit" : "");
        simulated.workloadResult().ifPresent(r -> text.printf(Locale.ROOT, "score: %.1f ops/ms%n", r.opsPerMs()));
        text.println("who waited on what (by total time waited):");
        result.metrics().blockers().stream()
                .sorted(Comparator.comparingLong(BlockerMetrics::totalWaitPicos).reversed())
                .limit(10)
                .forEach(b -> text.printf(Locale.ROOT, "  %-40s %8d waits, %10.3f ms waited, at most %d waiting%n",
                        b.name(), b.waits(), b.totalWaitPicos() / 1e9, b.maxWaiters()));
        if (!result.completed()) {
            text.println(result.report());
        }
        text.flush();
        return result.completed() ? 0 : SpinlabCommand.EXIT_CHECK_FAILED;
    }
}
