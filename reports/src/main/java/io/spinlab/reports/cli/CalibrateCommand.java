package io.spinlab.reports.cli;

import io.spinlab.sim.experiment.CalibrationResult;
import io.spinlab.sim.experiment.HostCalibration;
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
        HostCalibration.Settings defaults = HostCalibration.Settings.defaults();
        HostCalibration.Settings settings = workloads.isEmpty() ? defaults
                : new HostCalibration.Settings(defaults.hardwareWindow(), defaults.simulatedWindow(),
                        defaults.repetitions(), defaults.tunings(), workloads);
        CalibrationResult result;
        long points = (long) settings.workloads().size() * settings.tunings().size();
        try (Progress bar = progress.start("calibrate", points)) {
            result = HostCalibration.run(settings, point -> bar.step(point.workload() + " " + point.tuning()));
        }
        text.printf(Locale.ROOT, "this machine: %.2f ns per PAUSE, %d logical processors%n", result.nsPerPause(),
                result.host().logicalProcessors());
        text.println("measured costs: " + result.costs().describe());
        text.println("instruction clock: " + result.bytecode().describe());
        TextTable table = new TextTable("workload", "tuning", "hardware ops/ms", "simulated ops/ms");
        result.points().forEach(p -> table.row(p.workload(), p.tuning(), ExperimentTables.score(p.hardwareScore()),
                ExperimentTables.score(p.simulatedScore())));
        text.print(table.render());
        for (var p : result.notMeasurable()) {
            text.println("not measurable, left out: " + p.workload() + " " + p.tuning() + ": "
                    + p.notMeasurable().orElseThrow());
        }
        text.printf(Locale.ROOT, "rank correlation (Spearman) of hardware and simulated scores over %d measurable "
                + "points: %.3f%n", result.measurable().size(), result.spearman());
        text.printf(Locale.ROOT, "tunings ranked the same way per workload: %.0f %%%n",
                100 * result.tuningOrderAgreement());
        if (out != null) {
            MachineProfileFiles.write(result.host(), out);
            text.println("wrote the profile to " + out + " (use it with --machine " + out + ")");
        }
        text.flush();
        return 0;
    }
}
