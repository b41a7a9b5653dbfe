package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.HostCalibration;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.RunMetrics;
import io.spinlab.sim.workload.Durations;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.ThreadTimes;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code spinlab run}: one workload, one machine, one tuning — score, metrics, digest. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run one workload once, in the simulator (default) or on this machine's real threads "
                + "(--hardware), and print its score (operations per ms), metrics and, simulated, the event-log digest "
                + "that any rerun with the same options reproduces."})
final class RunCommand implements Callable<Integer> {

    @Mixin
    private RunSpec run;

    @Option(names = "--hardware", description = "Run on this machine's real threads and clock instead of simulating.")
    private boolean hardware;

    @Option(names = "--jit-warmup", paramLabel = "D", description = "With --hardware: run the workload unmeasured "
            + "for this long first (whole runs), so that the measured run meets compiled code, e.g. 2s; 0 for none "
            + "(default 500ms; at most 60s).")
    private String jitWarmup;

    @Option(names = "--thread-times", description = "With --hardware: also print each thread's processor time, "
            + "lifetime and yields, sleeps and parks, as a simulated run prints its threads (every Platform call then goes through one more call: "
            + "look inside a run with it, do not compare its score).")
    private boolean threadTimes;

    @Option(names = "--json", description = "Print one JSON object: workload, machine, tuning, threads, seed, score, "
            + "unit, digest, metrics.")
    private boolean json;

    @Spec
    private CommandSpec spec;

    /** The first line of every output made in fast mode. */
    static final String FAST_MODE_WARNING = "FAST MODE (--fast): only Platform calls cost time; shared memory and "
            + "the code between calls are free and atomic, so races and contention are not modelled";

    /** The JIT warm-up of a run on real threads when not told: as calibrate's per point. */
    static final long DEFAULT_JIT_WARMUP_NANOS = HostCalibration.Settings.DEFAULT_HARDWARE_WARMUP_NANOS;
    /** The longest JIT warm-up: a minute. */
    static final long MAX_JIT_WARMUP_NANOS = HostCalibration.Settings.MAX_HARDWARE_WARMUP_NANOS;

    /** Fewer operations than this in the window make no score (the floor every experiment row uses too). */
    static final long MIN_OPERATIONS = ExperimentRow.MIN_OPERATIONS;

    /** The options that only a simulated run has. */
    private static final List<String> SIMULATION_ONLY = List.of("--machine", "--machine-file", "--set",
            "--fast", "--seed", "--faults");

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (hardware) {
            List<String> ignored = SIMULATION_ONLY.stream()
                    .filter(option -> spec.commandLine().getParseResult().hasMatchedOption(option)).toList();
            if (!ignored.isEmpty()) {
                throw new IllegalArgumentException("--hardware runs on this machine's real threads and clock; "
                        + String.join(", ", ignored) + " only apply to a simulated run");
            }
        } else if (threadTimes) {
            throw new IllegalArgumentException("--thread-times applies to --hardware only; a simulated run prints "
                    + "its threads' times anyway");
        } else if (jitWarmup != null) {
            throw new IllegalArgumentException("--jit-warmup applies to --hardware only; a simulated run's time is "
                    + "virtual, the JIT does not change it");
        }
        long warmupNanos = hardware ? jitWarmupNanos() : 0;
        Workload workload = run.workload();
        Tuning tuning = run.tuning();
        WorkloadResult result;
        SimulationResult simulation = null;
        String machineName;
        ThreadTimes times = null;
        int warmupRuns = 0;
        if (hardware) {
            warmupRuns = WorkloadRunner.warmUpOnHardware(workload, tuning, warmupNanos);
            if (threadTimes) {
                times = ThreadTimes.around(HardwarePlatform.INSTANCE);
                result = WorkloadRunner.onHardware(workload, tuning, times.platform());
            } else {
                result = WorkloadRunner.onHardware(workload, tuning);
            }
            machineName = "hardware";
        } else {
            MachineProfile machine = run.machine();
            SimulatedRun simulated = run.simulate(tuning, run.simulation());
            simulation = simulated.simulation();
            if (!simulation.completed()) {
                spec.commandLine().getErr().println(simulation.report());
                return SpinlabCommand.EXIT_CHECK_FAILED;
            }
            result = simulated.result();
            machineName = machine.name();
        }
        if (result.operations() < MIN_OPERATIONS) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "not measurable: %s counted %d operations "
                    + "in %.3f ms, fewer than %d; give a longer --duration or fewer --threads", workload.describe(),
                    result.operations(), result.elapsedNanos() / 1e6, MIN_OPERATIONS));
        }
        if (json) {
            out.println(toJson(workload, machineName, tuning, result, simulation, hardware ? null : run.seed, times,
                    hardware ? warmupRuns : -1));
        } else {
            out.print(toText(workload, machineName, tuning, result, simulation));
            if (hardware) {
                out.printf(Locale.ROOT, "jit warm-up: %d unmeasured run%s in %s before this one%n", warmupRuns,
                        warmupRuns == 1 ? "" : "s", Durations.format(warmupNanos));
            }
            if (times != null) {
                out.print(times.table());
            }
        }
        out.flush();
        return 0;
    }

    /** {@code --jit-warmup} in ns: 500 ms when not given. */
    private long jitWarmupNanos() {
        long nanos = jitWarmup == null ? DEFAULT_JIT_WARMUP_NANOS : Durations.parseNanos("--jit-warmup", jitWarmup);
        if (nanos > MAX_JIT_WARMUP_NANOS) {
            throw new IllegalArgumentException("--jit-warmup " + jitWarmup + " is out of range; allowed 0 to 60s");
        }
        return nanos;
    }

    static String toText(Workload workload, String machine, Tuning tuning, WorkloadResult result,
                         SimulationResult simulation) {
        StringBuilder text = new StringBuilder();
        if (simulation != null && !simulation.memoryModel()) {
            text.append(FAST_MODE_WARNING).append('\n');
        }
        text.append(String.format(Locale.ROOT, "%s on %s, tuning %s%n", workload.describe(), machine,
                tuning.describe()));
        text.append(String.format(Locale.ROOT, "score: %.1f ops/ms (%d operations in %.3f ms)%n", result.opsPerMs(),
                result.operations(), result.elapsedNanos() / 1e6));
        for (Map.Entry<String, Double> metric : result.metrics().entrySet()) {
            text.append(String.format(Locale.ROOT, "  %s: %s%n", metric.getKey(), format(metric.getValue())));
        }
        if (simulation != null) {
            simulation.metrics().window().filter(w -> !Double.isNaN(w.halvesRatio())).ifPresent(w -> {
                text.append(String.format(Locale.ROOT, "window halves: %d then %d operations (second over first: %s)%n",
                        w.firstHalfOperations(), w.secondHalfOperations(), Double.isInfinite(w.halvesRatio())
                                ? "∞" : String.format(Locale.ROOT, "×%.2f", w.halvesRatio())));
                double factor = ExperimentRow.RATE_CHANGE_FACTOR;
                if (w.halvesRatio() > factor || w.halvesRatio() < 1 / factor) {
                    text.append(String.format(Locale.ROOT, "  the rate changed more than %.1f times between the "
                            + "window's halves: the window measured a start-up or a burst, not a steady rate (a longer "
                            + "warm-up, --param warmup=..., or a longer --duration may; reproduce runs such a row "
                            + "again after a longer warm-up)%n", factor));
                }
            });
        }
        if (simulation != null) {
            text.append("cost model: ").append(simulation.memoryModel() ? "full (shared memory and instructions "
                    + "costed)" : "fast (Platform calls only)").append('\n');
            text.append("digest: ").append(simulation.digest()).append('\n');
            text.append(simulation.metrics().table());
            text.append("reproduce: ").append(simulation.reproduction()).append('\n');
        }
        return text.toString();
    }

    static String toJson(Workload workload, String machine, Tuning tuning, WorkloadResult result,
                         SimulationResult simulation, Long seed, ThreadTimes times, int warmupRuns)
            throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode node = mapper.createObjectNode();
        node.put("workload", workload.name());
        node.put("parameters", workload.parameters());
        node.put("machine", machine);
        node.put("tuning", tuning.describe());
        if (result.metrics().containsKey("threads")) {
            node.put("threads", (long) result.metric("threads"));
        } else {
            node.putNull("threads");
        }
        if (seed == null) {
            node.putNull("seed");
        } else {
            node.put("seed", seed);
        }
        node.put("score", result.opsPerMs());
        node.put("unit", "ops/ms");
        if (simulation == null) {
            node.putNull("digest");
            node.putNull("memoryModel");
            node.putNull("costModel");
        } else {
            node.put("digest", simulation.digest());
            node.put("memoryModel", simulation.memoryModel());
            node.put("costModel", simulation.memoryModel() ? "full" : "fast");
            simulation.memory().ifPresent(m -> node.put("memoryAccesses", m.accesses()));
        }
        ObjectNode metrics = node.putObject("metrics");
        metrics.put("operations", result.operations());
        metrics.put("elapsedNanos", result.elapsedNanos());
        result.metrics().forEach(metrics::put);
        if (simulation != null) {
            RunMetrics m = simulation.metrics();
            metrics.put("contextSwitches", m.totalContextSwitches());
            metrics.put("meanUtilization", m.meanUtilization());
            m.window().filter(w -> !Double.isNaN(w.halvesRatio())).ifPresent(w -> {
                metrics.put("firstHalfOperations", w.firstHalfOperations());
                metrics.put("secondHalfOperations", w.secondHalfOperations());
            });
            for (Activity activity : Activity.values()) {
                metrics.put(activity.label() + "Picos", m.totalPicos(activity));
            }
        }
        if (warmupRuns >= 0) {
            node.put("jitWarmupRuns", warmupRuns);
        }
        if (times != null) {
            ArrayNode threads = node.putArray("threadTimes");
            for (ThreadTimes.Entry e : times.entries()) {
                ObjectNode t = threads.addObject();
                t.put("thread", e.name());
                t.put("cpuNanos", e.cpuNanos());
                t.put("lifetimeNanos", e.lifetimeNanos());
                t.put("ended", e.ended());
                t.put("yields", e.yields());
                t.put("sleeps", e.sleeps());
                t.put("parks", e.parks());
            }
        }
        return mapper.writeValueAsString(node);
    }

    private static String format(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.3f", value);
    }
}
