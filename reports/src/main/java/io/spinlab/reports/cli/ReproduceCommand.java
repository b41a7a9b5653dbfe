package io.spinlab.reports.cli;

import io.spinlab.reports.report.Provenance;
import io.spinlab.reports.report.ReportData;
import io.spinlab.reports.report.ReportWriter;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Experiments;
import io.spinlab.sim.experiment.PlannedRow;
import io.spinlab.sim.experiment.ProgressListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code spinlab reproduce}: re-create the published before/after tables on simulated machines. */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"Run the named experiments of published-results.md (all by default) in the simulator: each "
                + "row runs one workload on one machine under the old and the new tuning and prints both scores, "
                + "the change, the published change where one exists, and whether the simulated direction agrees.",
                "Progress goes to standard error (--quiet: none), tables to standard output; the report (tables, "
                        + "charts, every result) goes to --out, spinlab-report/ by default."})
final class ReproduceCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "EXPERIMENT",
            description = "Experiments to run (default: all of ${COMPLETION-CANDIDATES}).",
            completionCandidates = ExperimentNames.class)
    private List<String> experiments;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "spinlab-report",
            description = "Where the report goes: README.md (tables), index.html (tables and charts), data.json "
                    + "and data.csv (every result); default ${DEFAULT-VALUE}.")
    private Path out;

    @Option(names = "--json", description = "Print the rows as one JSON array instead of tables.")
    private boolean json;

    @Option(names = "--quick", description = "Only the first rows of each experiment (a smoke run).")
    private boolean quick;

    @Option(names = "--parallelism", defaultValue = "0",
            description = "Rows run at once (default: one per processor).")
    private int parallelism;

    @Mixin
    private MeasurementOptions measurement;

    @Mixin
    private WindowOptions windows;

    @Mixin
    private ProgressOptions progress;

    @Spec
    private CommandSpec spec;

    /** Most rows at once: each holds a simulation of up to 64 × processors threads. */
    static final int MAX_PARALLELISM = 256;

    @Override
    public Integer call() throws Exception {
        PrintWriter text = spec.commandLine().getOut();
        List<String> names = experiments == null || experiments.isEmpty() ? Experiments.names() : experiments;
        CliFiles.checkDistinct("EXPERIMENT", names);
        if (parallelism < 0 || parallelism > MAX_PARALLELISM) {
            throw new IllegalArgumentException("--parallelism " + parallelism + " is out of range; allowed 0 (one "
                    + "per processor) or 1.." + MAX_PARALLELISM);
        }
        List<Experiment> plan = names.stream().map(Experiments::byName).map(this::maybeQuick)
                .map(measurement::apply).map(windows::apply).toList();
        ReportWriter.prepare(out);
        int threads = parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
        Map<Experiment, List<ExperimentRow>> results = new LinkedHashMap<>();
        long start = System.nanoTime();
        int total = plan.stream().mapToInt(e -> e.rows().size()).sum();
        try (Progress bar = progress.start("reproduce", total)) {
            for (Experiment experiment : plan) {
                List<ExperimentRow> rows = experiment.run(new ProgressListener() {
                    @Override
                    public void rowFinished(Experiment e, int index, int total, ExperimentRow row) {
                        bar.step(String.format(Locale.ROOT, "%s %d/%d: %s", e.name(), index + 1, total,
                                row.verdict().name().toLowerCase(Locale.ROOT)));
                    }
                }, threads);
                results.put(experiment, rows);
                if (!json) {
                    text.println(ExperimentTables.text(experiment, rows));
                    text.flush();
                }
            }
        }
        if (json) {
            text.println(ExperimentTables.json(results));
        } else {
            text.print(ExperimentTables.overall(results));
        }
        Provenance provenance = Provenance.capture(spec.commandLine().getParseResult().originalArgs(),
                Duration.ofNanos(System.nanoTime() - start), Clock.systemUTC());
        List<Path> written = ReportWriter.write(out, ReportData.of(results, provenance));
        PrintWriter where = json ? spec.commandLine().getErr() : text;
        where.println("report: " + written.get(1) + " (also " + written.get(0).getFileName() + ", "
                + written.get(2).getFileName() + ", " + written.get(3).getFileName() + ")");
        where.flush();
        text.flush();
        boolean failed = results.values().stream().flatMap(List::stream).anyMatch(r -> r.failure().isPresent());
        return failed ? SpinlabCommand.EXIT_CHECK_FAILED : 0;
    }

    private Experiment maybeQuick(Experiment experiment) {
        if (!quick) {
            return experiment;
        }
        List<PlannedRow> keep = experiment.rows().subList(0, Math.min(2, experiment.rows().size()));
        return experiment.select(keep::contains);
    }

    /** The experiment names, for help and completion. */
    static final class ExperimentNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Experiments.names().iterator();
        }
    }
}
