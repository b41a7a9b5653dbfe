package io.spinlab.sim.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the tables of {@code simulator/EXPERIMENTS.md}: every experiment's rows, simulated
 * against published, and the calibration figure. A program in the test sources, not a test
 * (the command-line module will own the user-facing version): run it after {@code install}
 * with the simulator's test and main classes, model, impl and Jackson on the class path and
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED}. Arguments: an output file (default
 * stdout), then optionally {@code --no-calibration}, {@code --memory-model} and experiment names
 * (default all).
 */
public final class ExperimentsReport {

    private ExperimentsReport() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        boolean calibrate = true;
        boolean memoryModel = false;
        Path out = null;
        for (String arg : args) {
            if (arg.equals("--no-calibration")) {
                calibrate = false;
            } else if (arg.equals("--memory-model")) {
                memoryModel = true;
            } else if (arg.endsWith(".md")) {
                out = Path.of(arg);
            } else {
                names.add(arg);
            }
        }
        if (names.isEmpty()) {
            names = Experiments.names();
        }
        StringBuilder md = new StringBuilder();
        long start = System.nanoTime();
        for (String name : names) {
            Experiment experiment = Experiments.byName(name).withMemoryModel(memoryModel);
            long t0 = System.nanoTime();
            List<ExperimentRow> rows = experiment.run(new ProgressListener() {
                @Override
                public void rowFinished(Experiment e, int index, int total, ExperimentRow row) {
                    System.err.printf(Locale.ROOT, "%s %d/%d %s %s %.1f%%%n", e.name(), index + 1, total,
                            row.machine(), row.parameters(), row.deltaPercent());
                }
            });
            double seconds = (System.nanoTime() - t0) / 1e9;
            md.append(table(experiment, rows, seconds));
        }
        md.append(String.format(Locale.ROOT, "All experiments: %.0f s of wall time on %d processors.%n%n",
                (System.nanoTime() - start) / 1e9, Runtime.getRuntime().availableProcessors()));
        if (calibrate) {
            md.append(calibration(HostCalibration.run(HostCalibration.Settings.defaults(), p -> { })));
        }
        if (out == null) {
            PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            stdout.print(md);
        } else {
            Files.writeString(out, md, StandardCharsets.UTF_8);
        }
    }

    static String table(Experiment experiment, List<ExperimentRow> rows, double seconds) {
        StringBuilder md = new StringBuilder();
        md.append("### ").append(experiment.name()).append("\n\n").append(experiment.description()).append("\n\n");
        md.append(experiment.memoryModel() ? "Memory model on. " : "").append("Left: `")
                .append(experiment.left().describe()).append("`; right: `")
                .append(experiment.right().describe()).append("`. Scores in operations per virtual ms; ")
                .append(String.format(Locale.ROOT, "%d rows in %.0f s.%n%n", rows.size(), seconds));
        md.append("| machine | workload | parameters | left | right | Δ % | published | verdict |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---|\n");
        Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        Map<String, List<ExperimentRow>> byMachine = new LinkedHashMap<>();
        for (ExperimentRow r : rows) {
            verdicts.merge(r.verdict(), 1, Integer::sum);
            byMachine.computeIfAbsent(r.machine(), k -> new ArrayList<>()).add(r);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", r.machine(),
                    r.workload(), shortParameters(r.parameters()), score(r.leftScore()), score(r.rightScore()),
                    delta(r.deltaPercent()), r.published().describe(), verdict(r)));
        }
        md.append('\n');
        for (Map.Entry<String, List<ExperimentRow>> e : byMachine.entrySet()) {
            md.append(String.format(Locale.ROOT, "- %s: geometric mean of right/left over %d rows %s%n",
                    e.getKey(), e.getValue().size(), geometricMean(e.getValue())));
        }
        for (String claim : experiment.publishedSummary()) {
            md.append("- published: ").append(claim).append('\n');
        }
        md.append("- verdicts: ").append(verdicts).append("\n\n");
        return md.toString();
    }

    static String calibration(CalibrationResult result) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Host: %d processors, PAUSE measured at %.2f ns (%d cycles at %.2f GHz)."
                + "%n%n", result.host().logicalProcessors(), result.nsPerPause(), result.host().pauseCycles(),
                result.host().frequencyGhz()));
        md.append("| workload | tuning | hardware | simulated |\n|---|---|---:|---:|\n");
        for (CalibrationPoint p : result.points()) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", p.workload(), p.tuning(),
                    score(p.hardwareScore()), score(p.simulatedScore())));
        }
        md.append(String.format(Locale.ROOT, "%nSpearman ρ over %d points (workloads × tunings): **%.2f**; "
                + "tuning order within a workload agrees in %s of the pairs that differ by 10 %% or more on "
                + "hardware.%n%n", result.measurable().size(), result.spearman(),
                percent(result.tuningOrderAgreement())));
        return md.toString();
    }

    private static String shortParameters(String parameters) {
        return parameters.replaceAll(",?warmup=[^,]*", "").replaceAll(",?window=[^,]*", "")
                .replace(",requests=per-item", "");
    }

    private static String geometricMean(List<ExperimentRow> rows) {
        double logSum = 0;
        int n = 0;
        for (ExperimentRow r : rows) {
            if (r.completed() && r.leftScore() > 0 && r.rightScore() > 0) {
                logSum += Math.log(r.rightScore() / r.leftScore());
                n++;
            }
        }
        if (n == 0) {
            return "(none comparable)";
        }
        return String.format(Locale.ROOT, "%.2f× (%+.0f %%, %d rows with both scores above 0)",
                Math.exp(logSum / n), (Math.exp(logSum / n) - 1) * 100, n);
    }

    private static String score(double value) {
        if (Double.isNaN(value)) {
            return "failed";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String delta(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        if (Double.isInfinite(value)) {
            return "+∞";
        }
        return String.format(Locale.ROOT, "%+,.0f", value);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f %%", share * 100);
    }

    private static String verdict(ExperimentRow r) {
        return switch (r.verdict()) {
            case AGREES -> "agrees";
            case DISAGREES -> "**disagrees**";
            case NEUTRAL -> "neutral (within the seeds' spread)";
            case NO_CLAIM -> "";
            case NOT_MEASURABLE -> "not measurable: " + r.notMeasurable().orElse("");
            case FAILED -> "failed: " + r.failure().orElse("");
        };
    }
}
