package io.spinlab.reports.cli;

import io.spinlab.properties.hunt.Hunt;
import io.spinlab.properties.hunt.HuntWorkloads;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.workload.WorkloadSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code spinlab hunt}: look for a case where a candidate tuning regresses against a baseline. */
@Command(name = "hunt", mixinStandardHelpOptions = true,
        description = {"Generate machines, thread multipliers, run lengths and seeds; run the baseline and the "
                + "candidate tuning on each in the simulator; report the first case where the candidate loses by more "
                + "than the threshold, shrunk to the smallest machine, fewest threads and shortest run, with the "
                + "command that replays it."})
final class HuntCommand implements Callable<Integer> {

    @Option(names = "--baseline", required = true, paramLabel = "TUNING",
            description = "The tuning the candidate must not lose to, e.g. legacy or current,spin=unscaled, or a "
                    + "tuning file (.json, .yaml).")
    private String baseline;

    @Option(names = "--candidate", required = true, paramLabel = "TUNING",
            description = "The tuning under suspicion (text or a tuning file).")
    private String candidate;

    @Option(names = "--workload", paramLabel = "NAME",
            description = "A workload to hunt over (repeatable; default, when no --workload-class is given either: "
                    + "mres-wait-latency and mres-wait-drain-rate; "
                    + "valid: ${COMPLETION-CANDIDATES}).",
            completionCandidates = WorkloadNames.class)
    private List<String> workloads;

    @Mixin
    private UserWorkload userWorkload;

    @Option(names = "--budget", defaultValue = "50", description = "Cases to try (default ${DEFAULT-VALUE}).")
    private int budget;

    @Option(names = "--seed", defaultValue = "1", description = "The hunt's seed (default ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--threshold", defaultValue = "10", paramLabel = "PERCENT",
            description = "A loss beyond this %% of the baseline score is a regression (default ${DEFAULT-VALUE}).")
    private double threshold;

    @Option(names = "--replay", paramLabel = "CHOICES",
            description = "Replay one case from its printed choices (c:...).")
    private String replay;

    @Option(names = "--faults", paramLabel = "FAULTS", defaultValue = "none", description = "Faults to inject in "
            + "every run, drawn from each case's seed: " + Faults.SYNTAX + "; default ${DEFAULT-VALUE}.")
    private String faults;

    @Option(names = "--fail-on-regression", description = "Exit with 1 when a regression is found.")
    private boolean failOnRegression;

    @Mixin
    private MeasurementOptions measurement;

    @Mixin
    private ProgressOptions progress;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Hunt.Config config = new Hunt.Config(RunSpec.loadTuning(baseline), RunSpec.loadTuning(candidate),
                sources(), budget, seed, threshold, Faults.parse(faults), measurement.seeds, !measurement.noNoise);
        if (replay != null && spec.commandLine().getParseResult().hasMatchedOption("--budget")) {
            throw new IllegalArgumentException("--replay runs the one case it names; --budget does not apply");
        }
        Hunt.Report report;
        if (replay != null) {
            report = Hunt.replay(config, replay);
        } else {
            try (Progress bar = progress.start("hunt", budget)) {
                report = Hunt.run(config, (huntCase, tried, shrinking) -> {
                    if (shrinking) {
                        bar.message("regression found; shrinking (" + tried + " cases run)");
                    } else {
                        bar.step(huntCase.workload() + " on " + huntCase.machine().name());
                    }
                });
            }
        }
        out.println(report.describe(config));
        out.flush();
        return report.found().isPresent() && failOnRegression ? SpinlabCommand.EXIT_CHECK_FAILED : 0;
    }

    /** The named workloads and the user's class; the default set when neither is given. */
    private List<WorkloadSource> sources() {
        boolean named = workloads != null && !workloads.isEmpty();
        Optional<WorkloadSource> user = userWorkload.source();
        List<WorkloadSource> sources = new ArrayList<>(HuntWorkloads.named(named ? workloads
                : user.isEmpty() ? HuntWorkloads.DEFAULT : List.of()));
        user.ifPresent(sources::add);
        return sources;
    }

    /** The hunt's workload names, for help and completion. */
    static final class WorkloadNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return HuntWorkloads.names().iterator();
        }
    }
}
