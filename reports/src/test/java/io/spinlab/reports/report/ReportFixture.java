package io.spinlab.reports.report;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Experiments;
import io.spinlab.sim.experiment.Published;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A small report made of fixed rows, no simulation: three experiments shaped like
 * mres-proc-scaling (thread multiples, a published figure and total), future-cpus (a what-if
 * grid) and eventpipe-lockless (events read and dropped, one failed row).
 */
final class ReportFixture {

    static final String PROC_SCALING_LEFT = "current,spin=proc-scaled,pause=raw";
    static final String PROC_SCALING_RIGHT = "current,spin=unscaled,pause=raw";
    static final Provenance PROVENANCE = Provenance.fixed(List.of("reproduce", "--quick", "--out", "my report"),
            "0.1.0-test", "abc1234", "Test JDK 25", Instant.parse("2026-01-02T03:04:05Z"), Duration.ofMillis(12_345));

    private ReportFixture() {
    }

    static ReportData data() {
        return new ReportData(List.of(procScaling(), futureCpus(), eventPipe(), seeded()), PROVENANCE);
    }

    static ReportSection procScaling() {
        MachineProfile skylake = MachinePresets.byName("skylake-i7-6700");
        List<ReportRow> rows = new ArrayList<>();
        double[][] scores = {{0.5, 300, 310}, {1, 60, 420}, {2, 80, 480}};
        for (String delay : List.of("", "delay=1us,")) {
            for (double[] s : scores) {
                String threads = s[0] == 0.5 ? "0.5pc" : (int) s[0] + "pc";
                Published published = threads.equals("1pc") && delay.isEmpty()
                        ? Published.figure(56, 330, "coreclr #13556, Core i7-6700: 56 → 330")
                        : s[0] >= 1 ? Published.direction(Published.Direction.RIGHT_BETTER,
                                "coreclr #13556: the multiply crawls on Skylake from 1 × processors on")
                        : Published.none();
                double factor = delay.isEmpty() ? 1 : 0.9;
                rows.add(new ReportRow(new ExperimentRow("mres-proc-scaling", "mres-wait-drain-rate",
                        skylake.name(), "threads=" + threads + "," + delay + "warmup=2ms,window=4ms",
                        PROC_SCALING_LEFT, s[1] * factor, PROC_SCALING_RIGHT, s[2] * factor, published,
                        Map.of("threads", s[0] * 8), Map.of("threads", s[0] * 8), Optional.empty(), 10, false, 1000, 1000, 1L),
                        skylake, 1));
            }
        }
        return new ReportSection("mres-proc-scaling", "ManualResetEvent's spin before blocking, fixture.",
                PROC_SCALING_LEFT, PROC_SCALING_RIGHT, List.of("skylake-i7-6700: total +322 %"),
                Map.of(skylake.name(), Published.delta(322, "coreclr #13556, Core i7-6700: total +322 %")), rows);
    }

    static ReportSection futureCpus() {
        List<ReportRow> rows = new ArrayList<>();
        int i = 0;
        for (int processors : List.of(4, 16, 64, 256)) {
            for (int pause : List.of(10, 140)) {
                MachineProfile machine = Experiments.futureMachine(pause, processors);
                double left = 100 + 10 * i;
                double right = left * (1 + (i - 1) * 0.25);
                rows.add(new ReportRow(new ExperimentRow("future-cpus", "mres-wait-drain-rate", machine.name(),
                        "threads=1pc,warmup=2ms,window=4ms", "legacy", left, "current", right, Published.none(),
                        Map.of(), Map.of(), Optional.empty(), 10, false, 1000, 1000, 7L), machine, 7));
                i++;
            }
        }
        return new ReportSection("future-cpus", "What-if parts, fixture.", "legacy", "current", List.of(), Map.of(),
                rows);
    }

    static ReportSection eventPipe() {
        List<ReportRow> rows = new ArrayList<>();
        String params = "threads=32,payload=200,limit=16mb,reader-interval=1ms,score=read,warmup=10ms,window=40ms";
        MachineProfile laptop = MachinePresets.byName("kabylake-i7-7700hq");
        rows.add(new ReportRow(new ExperimentRow("eventpipe-lockless", "eventpipe-stress", laptop.name(), params,
                "current,reservation=under-lock", 1000, "current", 1500,
                Published.delta(63.9, "runtime #50797, 2017 MacBook Pro: events read +63.9 %"),
                events(40_000, 960_000), events(60_000, 1_140_000), Optional.empty(), 10, false, 1000, 1000, 1L), laptop, 1));
        MachineProfile xeon = MachinePresets.byName("ivybridge-e7-4x12");
        rows.add(new ReportRow(new ExperimentRow("eventpipe-lockless", "eventpipe-stress", xeon.name(), params,
                "current,reservation=under-lock", Double.NaN, "current", 2000,
                Published.direction(Published.Direction.RIGHT_BETTER, "runtime #50797: improvements also reported"),
                Map.of(), events(80_000, 20_000), Optional.of("budget exhausted, \"virtual\" time (reproduce: x)"), 10,
                false, 1000, 1000, 1L), xeon, 1));
        return new ReportSection("eventpipe-lockless", "EventPipe's buffer reservation, fixture.",
                "current,reservation=under-lock", "current", List.of(), Map.of(), rows);
    }

    /**
     * Two rows over three seeds with noise: one whose per-seed Δ straddles 0 against a published
     * improvement (neutral), one that gains on every seed (agrees).
     */
    static ReportSection seeded() {
        MachineProfile kabylake = MachinePresets.byName("kabylake-e3-1245v6");
        String params = "threads=1pc,delay=0,warmup=2ms,window=4ms";
        Published published = Published.delta(34, "dotnet/corert #7569: MresWaitDrainRate");
        List<ReportRow> rows = List.of(
                new ReportRow(new ExperimentRow("normalized-spin", "mres-wait-drain-rate", kabylake.name(), params,
                        "corert-2019-before", 200, "corert-2019-after", 210, published,
                        Map.of("cpuNanosPerOp", 412.0), Map.of("cpuNanosPerOp", 380.4),
                        Optional.empty(), 10, false, 1000, 1000, List.of(1L, 2L, 3L), List.of(180.0, 200.0, 230.0),
                        List.of(250.0, 210.0, 190.0)), kabylake, 1),
                new ReportRow(new ExperimentRow("normalized-spin", "mres-wait-drain-rate", kabylake.name(),
                        "threads=2pc,delay=0,warmup=2ms,window=4ms", "corert-2019-before", 200, "corert-2019-after",
                        262, published, Map.of(), Map.of(), Optional.empty(), 10, false, 1000, 1000,
                        List.of(1L, 2L, 3L), List.of(190.0, 200.0, 210.0), List.of(250.0, 262.0, 270.0)),
                        kabylake, 1));
        return new ReportSection("normalized-spin", "Normalized PAUSE, fixture over three seeds.",
                "corert-2019-before", "corert-2019-after", List.of(), Map.of(), rows, true);
    }

    private static Map<String, Double> events(double read, double dropped) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("writers", 32.0);
        metrics.put("read", read);
        metrics.put("dropped", dropped);
        metrics.put("efficiency", read / (read + dropped));
        return metrics;
    }
}
