package io.spinlab.reports.cli;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.reports.report.Provenance;
import io.spinlab.reports.report.ReportData;
import io.spinlab.reports.report.ReportWriter;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Experiments;
import io.spinlab.sim.experiment.PlannedRow;
import io.spinlab.sim.experiment.ProgressListener;
import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.workload.ThreadCount;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadSource;
import io.spinlab.sim.workload.Workloads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code spinlab whatif}: two tunings across PAUSE costs × processor counts, as tables and heat maps. */
@Command(name = "whatif", mixinStandardHelpOptions = true,
        description = {"Sweep PAUSE cycles × processors (any other machine field can be set with --set) for chosen "
                + "workloads and thread counts, run two tunings on each simulated machine, and print a table of "
                + "Δ %% (right against left) per workload; --out writes the report (tables, the "
                + "heat maps in index.html, every result) and a heat map SVG file per table. Answers: where does today's "
                + "heuristic stop working?"})
final class WhatifCommand implements Callable<Integer> {

    @Option(names = "--workload", paramLabel = "NAME", description = "Workloads (repeatable; default "
            + "mres-wait-drain-rate).")
    private List<String> workloads = new ArrayList<>();

    @Mixin
    private UserWorkload userWorkload;

    @Option(names = "--threads", paramLabel = "N|Mpc", description = "Thread counts (repeatable; default 1pc).")
    private List<String> threads = new ArrayList<>();

    @Option(names = "--left", defaultValue = "legacy", paramLabel = "TUNING|FILE",
            description = "The baseline tuning, or a tuning file (default ${DEFAULT-VALUE}).")
    private String left;

    @Option(names = "--right", defaultValue = "current", paramLabel = "TUNING|FILE",
            description = "The tuning compared, or a tuning file (default ${DEFAULT-VALUE}).")
    private String right;

    @Option(names = "--pause-cycles", split = ",", paramLabel = "C", defaultValue = "1,10,40,140,300,1000",
            description = "PAUSE costs to sweep (default ${DEFAULT-VALUE}).")
    private List<Integer> pauseCycles;

    @Option(names = "--processors", split = ",", paramLabel = "P", defaultValue = "4,16,64",
            description = "Logical processor counts to sweep (default ${DEFAULT-VALUE}).")
    private List<Integer> processors;

    @Option(names = "--base", defaultValue = "skylake-i7-6700", paramLabel = "PRESET|FILE",
            description = "The machine whose other costs every point keeps (default ${DEFAULT-VALUE}).")
    private String base;

    @Option(names = "--set", paramLabel = "FIELD=VALUE", description = "Set any machine field on every point, e.g. "
            + "wakeLatencyNs=20000 (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Option(names = "--seed", defaultValue = "1", description = "Simulation seed (default ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--frontier", paramLabel = "PARAM=V1,V2,...", description = "Also sweep one workload parameter "
            + "(e.g. spin=0,35,70,140,280 with --workload quwi: the pool's semaphore spin) and print, per workload "
            + "and thread count, throughput and CPU time per operation of both tunings at each value; --out adds "
            + "the frontier chart (score against CPU ns/op) as an SVG file.")
    private String frontier;

    @Option(names = "--fast", description = "Fast mode, for quick sweeps only: only Platform calls cost time "
            + "(shared memory and the code between calls are free); every output says so first.")
    private boolean fast;

    @Option(names = "--out", paramLabel = "DIR", description = "Write the report (README.md, index.html with the "
            + "heat maps, data.json, data.csv) and one heat map SVG file per table.")
    private Path out;

    @Mixin
    private MeasurementOptions measurement;

    @Mixin
    private WindowOptions windows;

    @Mixin
    private ProgressOptions progress;

    @Spec
    private CommandSpec spec;

    /** The machine fields each point of the sweep sets itself. */
    private static final List<String> SWEPT_FIELDS = List.of("pauseCycles", "physicalCores", "logicalProcessors");

    /** The workloads named: registry names or one user class; the default when neither is given. */
    private List<WorkloadSource> sources() {
        Optional<WorkloadSource> user = userWorkload.source();
        if (user.isPresent()) {
            if (!workloads.isEmpty()) {
                throw new IllegalArgumentException("give --workload or --workload-class, not both");
            }
            if (!user.get().takesParameters()) {
                throw new IllegalArgumentException("--workload-class " + user.get().name() + ": a sweep sets "
                        + "threads, warmup and window at every point, so it needs a public constructor taking one "
                        + "String");
            }
            return List.of(user.get());
        }
        List<String> names = workloads.isEmpty() ? List.of("mres-wait-drain-rate") : workloads;
        CliFiles.checkDistinct("--workload", names);
        return names.stream().map(WorkloadSource::named).toList();
    }

    /** Whether the sweep sets the workload's thread count: every workload but a registry one without {@code threads}. */
    private static boolean threaded(WorkloadSource source) {
        return !(source instanceof WorkloadSource.Registered registered) || registered.takesParameter("threads");
    }

    /** The parameter of {@code --frontier PARAM=V1,V2,...}. */
    static String frontierParameter(String spec) {
        int eq = spec.indexOf('=');
        String name = eq < 0 ? "" : spec.substring(0, eq).strip();
        if (eq < 0 || name.isEmpty() || !name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("--frontier " + spec + ": expected PARAM=V1,V2,... with a workload "
                    + "parameter name, e.g. spin=0,35,70,140,280");
        }
        if (List.of("threads", "warmup", "window").contains(name)) {
            throw new IllegalArgumentException("--frontier " + spec + ": the sweep sets " + name + " at every point; "
                    + "sweep another parameter (threads: --threads)");
        }
        return name;
    }

    /** The values of {@code --frontier PARAM=V1,V2,...}: at least two, distinct. */
    static List<String> frontierValues(String spec) {
        List<String> values = java.util.Arrays.stream(spec.substring(spec.indexOf('=') + 1).split(","))
                .map(String::strip).toList();
        if (values.size() < 2 || values.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("--frontier " + spec + ": give at least two non-empty values, "
                    + "comma-separated, e.g. spin=0,35,70,140,280");
        }
        CliFiles.checkDistinct("--frontier", values);
        return values;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter text = spec.commandLine().getOut();
        Tuning leftTuning = RunSpec.loadTuning(left);
        Tuning rightTuning = RunSpec.loadTuning(right);
        List<WorkloadSource> sources = sources();
        List<String> names = sources.stream().map(WorkloadSource::name).toList();
        String frontierParameter = frontier == null ? null : frontierParameter(frontier);
        List<String> frontierValues = frontier == null ? List.of("") : frontierValues(frontier);
        List<ThreadCount> counts = (threads.isEmpty() ? List.of("1pc") : threads).stream().map(ThreadCount::parse)
                .toList();
        for (WorkloadSource source : sources) {
            if (!threads.isEmpty() && !threaded(source)) {
                throw new IllegalArgumentException("--threads: " + source.name() + " has no threads parameter (its "
                        + "parameters: " + String.join(", ", Workloads.byName(source.name()).parameterKeys())
                        + "); leave --threads out");
            }
        }
        CliFiles.checkDistinct("--threads", counts);
        CliFiles.checkDistinct("--pause-cycles", pauseCycles);
        CliFiles.checkDistinct("--processors", processors);
        for (String set : sets) {
            String field = set.contains("=") ? set.substring(0, set.indexOf('=')).strip() : set;
            if (SWEPT_FIELDS.contains(field)) {
                throw new IllegalArgumentException("--set " + set + ": the sweep sets " + field + " at every point; "
                        + "give its values with --pause-cycles or --processors");
            }
        }
        MachineProfile baseMachine = RunSpec.withSettings(RunSpec.loadMachine(base), sets, "--set");
        for (int pause : pauseCycles) {
            baseMachine.withPauseCycles(pause);
        }
        for (int procs : processors) {
            baseMachine.withProcessors(procs, procs);
        }
        if (out != null) {
            ReportWriter.prepare(out);
        }
        long start = System.nanoTime();
        Map<String, Heatmap> maps = new LinkedHashMap<>();
        List<PlannedRow> rows = new ArrayList<>();
        for (WorkloadSource source : sources) {
            for (ThreadCount count : counts) {
                for (String value : frontierValues) {
                    for (int pause : pauseCycles) {
                        for (int procs : processors) {
                            MachineProfile machine = baseMachine.withPauseCycles(pause).withProcessors(procs, procs)
                                    .withName(baseMachine.name() + "@pause=" + pause + ",procs=" + procs);
                            String swept = frontierParameter == null ? "" : frontierParameter + "=" + value + ",";
                            Workload workload = source.create(swept + (threaded(source) ? "threads=" + count + ","
                                    : "") + Experiments.windowFor(count.resolve(procs)).parameters());
                            rows.add(new PlannedRow(workload, machine, Published.none(), seed, source));
                        }
                    }
                }
            }
        }
        Experiment sweep = new Experiment("whatif", "PAUSE cycles × processors on " + baseMachine.name(),
                leftTuning, rightTuning, rows, List.of()).withMemoryModel(!fast);
        sweep = windows.apply(measurement.apply(sweep));
        if (fast) {
            text.println(RunCommand.FAST_MODE_WARNING);
        }
        List<ExperimentRow> results;
        try (Progress bar = progress.start("whatif", rows.size())) {
            results = sweep.run(new ProgressListener() {
                @Override
                public void rowFinished(Experiment e, int index, int total, ExperimentRow row) {
                    bar.step(row.workload() + " on " + row.machine() + ": "
                            + ExperimentTables.percent(row.deltaPercent()));
                }
            });
        }
        int i = 0;
        Map<String, Frontier> frontiers = new LinkedHashMap<>();
        for (String name : names) {
            for (ThreadCount count : counts) {
                String at = threaded(sources.get(names.indexOf(name))) ? " at " + count + " threads" : "";
                Frontier curve = frontierParameter == null ? null : new Frontier(name + at
                        + ": score and CPU time per operation over " + frontierParameter, frontierParameter,
                        frontierValues, leftTuning.describe(), rightTuning.describe());
                for (String value : frontierValues) {
                    String with = frontierParameter == null ? "" : " with " + frontierParameter + "=" + value;
                    Heatmap map = new Heatmap(name + at + with + ": " + rightTuning.describe()
                            + " vs " + leftTuning.describe() + ", Δ %", pauseCycles, processors);
                    for (int pause : pauseCycles) {
                        for (int procs : processors) {
                            ExperimentRow row = results.get(i++);
                            if (row.completed() && row.notMeasurable().isEmpty()) {
                                map.put(pause, procs, row.deltaPercent());
                            } else {
                                map.putNotMeasured(pause, procs);
                            }
                            if (curve != null) {
                                curve.put("pause=" + pause + ",procs=" + procs, value, row);
                            }
                        }
                    }
                    maps.put(name + "-" + count + (frontierParameter == null ? "" : "-" + frontierParameter + "="
                            + value), map);
                    text.println(map.table());
                }
                if (curve != null) {
                    frontiers.put("frontier-" + name + "-" + count, curve);
                    text.println(curve.table());
                }
            }
        }
        results.stream().filter(r -> r.failure().isPresent())
                .forEach(r -> text.println("n/m, failed: " + r.failure().orElseThrow()));
        results.stream().filter(r -> r.completed() && r.notMeasurable().isPresent())
                .forEach(r -> text.println("n/m, not measurable: " + r.workload() + "(" + r.parameters() + ") on "
                        + r.machine() + ": " + r.notMeasurable().orElseThrow()));
        results.stream().filter(r -> r.windowExtended().isPresent())
                .forEach(r -> text.println("longer window: " + r.workload() + "(" + r.parameters() + ") on "
                        + r.machine() + ": " + r.windowExtended().orElseThrow()));
        results.stream().filter(r -> r.rateChanging().isPresent())
                .forEach(r -> text.println("rate still changing: " + r.workload() + "(" + r.parameters() + ") on "
                        + r.machine() + ": " + r.rateChanging().orElseThrow()));
        if (out != null) {
            for (Map.Entry<String, Heatmap> entry : maps.entrySet()) {
                String file = entry.getKey().replaceAll("[^A-Za-z0-9.-]", "_") + ".svg";
                Files.writeString(out.resolve(file), entry.getValue().svg());
            }
            for (Map.Entry<String, Frontier> entry : frontiers.entrySet()) {
                String file = entry.getKey().replaceAll("[^A-Za-z0-9.-]", "_") + ".svg";
                Files.writeString(out.resolve(file), entry.getValue().svg());
            }
            Provenance provenance = Provenance.capture(spec.commandLine().getParseResult().originalArgs(),
                    Duration.ofNanos(System.nanoTime() - start), Clock.systemUTC());
            List<Path> written = ReportWriter.write(out, ReportData.of("spinlab whatif", "Two tunings on simulated "
                    + "machines swept over PAUSE cycles × processors: where does the newer heuristic stop winning?",
                    Map.of(sweep, results), provenance));
            text.println("report: " + written.get(1) + " (also README.md, data.json, data.csv, and " + maps.size()
                    + " heat map(s)" + (frontiers.isEmpty() ? "" : " and " + frontiers.size() + " frontier chart(s)")
                    + " as SVG files)");
        }
        text.flush();
        return results.stream().anyMatch(r -> r.failure().isPresent()) ? SpinlabCommand.EXIT_CHECK_FAILED : 0;
    }
}
