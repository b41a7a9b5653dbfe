package io.spinlab.reports.cli;

import io.spinlab.sim.experiment.CalibrationPoint;
import io.spinlab.sim.experiment.CalibrationResult;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.HostCalibration;
import io.spinlab.sim.experiment.HostScheduler;
import io.spinlab.sim.experiment.Spread;
import io.spinlab.sim.machine.MachineProfileFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code spinlab calibrate}: measure this machine, write its profile, compare hardware and simulated runs. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure this machine's PAUSE through the production normalization code and its OS costs "
                + "(clock read, park→unpark wake-up and its spread, yield, sleep), build a machine profile from them, run every workload under a few tunings on real threads and in the simulator of that "
                + "profile, and print both scores and how well their rankings agree (Spearman's rank correlation): the "
                + "simulator's calibration figure."})
final class CalibrateCommand implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "FILE", description = "Write the measured profile here (.json or .yaml).")
    private Path out;

    @Option(names = "--workload", paramLabel = "NAME", description = "Calibrate on these workloads only (repeatable; "
            + "default: every workload).", completionCandidates = RunSpec.WorkloadNames.class)
    private List<String> workloads = new ArrayList<>();

    @Option(names = "--repetitions", paramLabel = "N", defaultValue = ""
            + HostCalibration.Settings.DEFAULT_REPETITIONS, description = "Real-thread runs per workload and tuning "
            + "(1.." + HostCalibration.Settings.MAX_REPETITIONS + ", default ${DEFAULT-VALUE}): the score is their "
            + "median, their range its spread.")
    private int repetitions;

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "" + HostCalibration.Settings.DEFAULT_SEEDS,
            description = "Simulated runs per workload and tuning, seeds 1..N with the host's run-to-run noise (1.."
                    + Experiment.MAX_SEEDS + ", default ${DEFAULT-VALUE}): the score is their median.")
    private int seeds;

    @Option(names = "--json", description = "Print one JSON object instead of the text: the host's figures, every "
            + "point with each real-thread run and simulated seed, rho, the host against itself and the tuning pairs "
            + "(a figure not measured is null).")
    private boolean json;

    @Mixin
    private ProgressOptions progress;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter text = spec.commandLine().getOut();
        if (out != null) {
            String name = String.valueOf(out.getFileName()).toLowerCase(Locale.ROOT);
            if (!(name.endsWith(".json") || name.endsWith(".yaml") || name.endsWith(".yml"))) {
                throw new IllegalArgumentException("--out " + out + " must end with .json, .yaml or .yml");
            }
            CliFiles.checkOutputFile("--out", out);
        }
        CliFiles.checkDistinct("--workload", workloads);
        if (repetitions < 1 || repetitions > HostCalibration.Settings.MAX_REPETITIONS) {
            throw new IllegalArgumentException("--repetitions " + repetitions + " is out of range; allowed 1.."
                    + HostCalibration.Settings.MAX_REPETITIONS);
        }
        if (seeds < 1 || seeds > Experiment.MAX_SEEDS) {
            throw new IllegalArgumentException("--seeds " + seeds + " is out of range; allowed 1.." + Experiment.MAX_SEEDS);
        }
        HostCalibration.Settings defaults = HostCalibration.Settings.defaults().withRuns(repetitions, seeds);
        HostCalibration.Settings settings = workloads.isEmpty() ? defaults : defaults.withWorkloads(workloads);
        CalibrationResult result;
        long points = (long) settings.workloads().size() * settings.tunings().size();
        try (Progress bar = progress.start("calibrate", points)) {
            result = HostCalibration.run(settings, point -> bar.step(point.workload() + " " + point.tuning()));
        }
        if (json) {
            if (out != null) {
                MachineProfileFiles.write(result.host(), out);
            }
            text.println(CalibrationJson.of(result, settings, out));
            text.flush();
            return 0;
        }
        text.printf(Locale.ROOT, "this machine: %.2f ns per PAUSE, %d logical processors%n", result.nsPerPause(),
                result.host().logicalProcessors());
        HostScheduler scheduler = HostCalibration.HOST_SCHEDULER;
        text.printf(Locale.ROOT, "scheduler: the simulator's %s rules, time slice %.1f ms%s%n", scheduler.os(),
                result.host().timeSliceNs() / 1e6, scheduler.setsTimeSlice() ? " (the kernel's tick: "
                        + scheduler.tickSource() + ")" : " (the default; kernel tick: " + scheduler.tickSource() + ")");
        text.println("measured costs: " + result.costs().describe());
        if (result.lineTransferAfterNs() > 0) {
            text.printf(Locale.ROOT, "line transfer measured again after the runs: %.0f ns (the profile has the %.0f ns "
                    + "measured before them)%s%n", result.lineTransferAfterNs(), result.costs().lineTransferNs(),
                    result.lineTransferMoved() ? "; it moved more than " + Math.round(
                            CalibrationResult.LINE_TRANSFER_TOLERANCE) + "x, so the real-thread runs may have met "
                            + "another transfer cost than the profile's" : "");
        }
        text.println("instruction clock: " + result.bytecode().describe());
        text.println("contended line: " + result.casLoop().describe());
        text.println("contended ring: " + result.ringLoop().describe());
        text.println("line hand-over: " + result.handovers().describe());
        text.println("polling reader: " + result.pollingReader().describe());
        text.println("yield behind busy threads: " + result.yields().describe());
        text.println("waking a parked thread: " + result.wakes().describe());
        text.printf(Locale.ROOT, "each score: the median of %d real-thread runs (after %.1f s of unmeasured runs of "
                + "the point, for the JIT; a workload's tunings run in rounds, one run of each per round) and of %d "
                + "simulated seeds, with their range; busy: the processors the runs kept busy over each whole run (on "
                + "real threads the process's processor time over the run's wall time), the median; xfer: a cache "
                + "line handed between two threads, measured just before and just after the workload's real-thread "
                + "runs, ns (its simulations charge their mean)%n",
                settings.repetitions(), settings.hardwareWarmupNanos() / 1e9, settings.seeds());
        TextTable table = new TextTable("workload", "tuning", "hardware ops/ms", "hardware range", "simulated ops/ms",
                "simulated range", "busy hw", "busy sim", "xfer ns");
        result.points().forEach(p -> table.row(p.workload(), p.tuning(), ExperimentTables.score(p.hardwareScore()),
                range(p.hardware()), ExperimentTables.score(p.simulatedScore()), range(p.simulated()),
                busy(p.hardwareBusy()), busy(p.simulatedBusy()), transfers(p)));
        text.print(table.render());
        for (var p : result.points()) {
            boolean hardwareLonger = !p.parameters().contains(settings.hardwareWindow().parameters());
            boolean simulatedLonger = !p.simulatedParameters().contains(settings.simulatedWindow().parameters());
            if (hardwareLonger || simulatedLonger) {
                text.println("longer window (a run counted fewer than 100 operations in "
                        + (hardwareLonger && simulatedLonger ? "both windows" : hardwareLonger ? "the real-thread window"
                        : "the simulated window") + "): " + p.workload() + " " + p.tuning() + ": real threads "
                        + p.parameters() + "; simulated " + p.simulatedParameters());
            }
        }
        long moved = result.points().stream().filter(CalibrationPoint::lineTransferMoved).count();
        if (moved > 0) {
            text.printf(Locale.ROOT, "line transfer moved more than %.0fx during the real-thread runs of %d of the %d "
                    + "points (marked *): no one figure describes what those runs met%n",
                    CalibrationResult.LINE_TRANSFER_TOLERANCE, moved, result.points().size());
        }
        for (var p : result.notMeasurable()) {
            text.println("not measurable, left out: " + p.workload() + " " + p.tuning() + ": "
                    + p.notMeasurable().orElseThrow());
        }
        text.print(figures(result));
        if (out != null) {
            MachineProfileFiles.write(result.host(), out);
            text.println("wrote the profile to " + out + " (use it with --machine " + out + ")");
        }
        text.flush();
        return 0;
    }

    /**
     * The figure's lines: Spearman's ρ over the measurable points, the host against itself and the tuning pairs
     * ordered alike, each with its 95 % interval where one can be computed, then the pairs ordered otherwise.
     */
    static String figures(CalibrationResult result) {
        StringBuilder lines = new StringBuilder();
        lines.append(String.format(Locale.ROOT, "rank correlation (Spearman) of hardware and simulated scores over %d "
                + "measurable points: %.3f%s%n", result.measurable().size(), result.spearman(),
                interval(result.spearmanInterval().format())));
        double self = result.hostSelfAgreement();
        if (!Double.isNaN(self)) {
            lines.append(String.format(Locale.ROOT, "the host against itself (the same, between the medians of each "
                    + "point's odd-numbered and even-numbered real-thread runs): %.3f%s, about as high as the "
                    + "simulator's can be expected to reach against this host's noise%n", self,
                    interval(result.hostSelfAgreementInterval().format())));
        }
        CalibrationResult.Pairs pairs = result.tuningPairs();
        lines.append(String.format(Locale.ROOT, "tuning pairs ordered as on this host: %d of the %d whose hardware runs "
                + "tell them apart by rank (Mann–Whitney, two-sided 5 %%) (%s; %d pairs in all)%n", pairs.orderedAlike(),
                pairs.distinguishable(),
                pairs.distinguishable() == 0 ? "none to judge" : String.format(Locale.ROOT, "%.0f %%%s",
                        100 * result.tuningOrderAgreement(),
                        interval(result.tuningOrderAgreementInterval().formatPercent())), pairs.measurable()));
        for (CalibrationResult.Disagreement d : pairs.orderedOtherwise()) {
            lines.append("ordered otherwise: ").append(d.describe()).append(System.lineSeparator());
        }
        return lines.toString();
    }

    /** ", 95 % interval X" after a figure, or nothing where the interval could not be computed. */
    private static String interval(String formatted) {
        return "–".equals(formatted) ? "" : ", 95 % interval " + formatted;
    }

    /** Processors busy to two decimals, or a dash when not measured. */
    private static String busy(double processors) {
        return Double.isNaN(processors) ? "–" : String.format(Locale.ROOT, "%.2f", processors);
    }

    /** The line transfers measured around a point's real runs, "before→after", starred when they moved. */
    private static String transfers(CalibrationPoint p) {
        if (!(p.lineTransferBeforeNs() > 0) || !(p.lineTransferAfterNs() > 0)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.0f→%.0f%s", p.lineTransferBeforeNs(), p.lineTransferAfterNs(),
                p.lineTransferMoved() ? " *" : "");
    }

    /** {@code min–max} of a spread's values, or {@code –} for one that failed. */
    private static String range(Spread spread) {
        if (Double.isNaN(spread.min()) || Double.isNaN(spread.max())) {
            return "–";
        }
        return ExperimentTables.score(spread.min()) + "–" + ExperimentTables.score(spread.max());
    }
}
