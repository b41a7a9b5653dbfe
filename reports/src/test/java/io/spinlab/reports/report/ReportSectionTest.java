package io.spinlab.reports.report;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Experiments;
import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.experiment.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportSectionTest {

    @Test
    void shouldPairEveryResultWithItsPlannedMachineAndSeedWhenBuiltFromAnExperiment() {
        Experiment experiment = Experiments.byName("future-cpus").select(r -> r.machine().logicalProcessors() == 16
                && r.machine().pauseCycles() == 300);
        List<ExperimentRow> results = experiment.rows().stream().map(p -> new ExperimentRow(experiment.name(),
                p.workload().name(), p.machine().name(), p.workload().parameters(), "legacy", 1, "current", 2,
                p.published(), Map.of(), Map.of(), Optional.empty(), 0, false, 1000, 1000, 1L)).toList();

        ReportSection section = ReportSection.of(experiment, results);

        assertThat(section.rows()).hasSize(2).allSatisfy(r -> {
            assertThat(r.machine().pauseCycles()).isEqualTo(300);
            assertThat(r.machine().logicalProcessors()).isEqualTo(16);
            assertThat(r.seed()).isEqualTo(Experiments.SEED);
        });
        assertThat(section.verdictCounts()).containsExactly(Map.entry(Verdict.NO_CLAIM, 2));
    }

    @Test
    void shouldRejectResultsWhenTheyAreNotThePlannedRows() {
        Experiment experiment = Experiments.byName("monitor-convoy");
        ExperimentRow stranger = new ExperimentRow("monitor-convoy", "quwi", "skylake-i7-6700", "x", "l", 1, "r", 1,
                experiment.rows().get(0).published(), Map.of(), Map.of(), Optional.empty(), 0, false, 1000, 1000, 1L);

        assertThatThrownBy(() -> ReportSection.of(experiment, List.of(stranger)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 results for 6 planned rows");
        assertThatThrownBy(() -> ReportSection.of(experiment.select(r -> r == experiment.rows().get(0)),
                List.of(stranger))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quwi");
    }

    @Test
    void shouldPairARowRunAgainOverALongerWindowWithItsPlannedRowAndShowWhy() throws Exception {
        Experiment experiment = Experiments.byName("future-cpus").select(r -> r.machine().logicalProcessors() == 16
                && r.machine().pauseCycles() == 300 && r.workload().name().equals("mres-wait-drain-rate"));
        var planned = experiment.rows().getFirst();
        assertThat(planned.workload().parameters()).isEqualTo("threads=1pc,delay=0,warmup=2ms,window=4ms");
        String why = "extended from warmup=2ms,window=4ms, where left counted 55 operations in the window (fewer than "
                + "100)";
        ExperimentRow longer = new ExperimentRow(experiment.name(), "mres-wait-drain-rate", planned.machine().name(),
                "threads=1pc,delay=0,warmup=10ms,window=40ms", "legacy", 150, "current", 300, planned.published(),
                Map.of(), Map.of(), Optional.empty(), 0, false, 600, 12_000, List.of(1L), List.of(150.0),
                List.of(300.0)).withWindowExtension(why, 5);
        ExperimentRow unexplained = new ExperimentRow(experiment.name(), "mres-wait-drain-rate",
                planned.machine().name(), "threads=1pc,delay=0,warmup=10ms,window=40ms", "legacy", 150, "current", 300,
                planned.published(), Map.of(), Map.of(), Optional.empty(), 0, false, 600, 12_000, 1L);

        ReportSection section = ReportSection.of(experiment, List.of(longer));

        assertThat(longer.wallMillis()).isEqualTo(5);
        assertThat(section.rows().getFirst().result().windowExtended()).contains(why);
        assertThatThrownBy(() -> ReportSection.of(experiment, List.of(unexplained)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not planned row");
        ReportData data = new ReportData(List.of(section), ReportFixture.PROVENANCE);
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(JsonReport.render(data));
        assertThat(json.at("/experiments/0/rows/0/windowExtended").asText()).isEqualTo(why);
        assertThat(json.at("/experiments/0/rows/0/workloadParameters/window").asText()).isEqualTo("40ms");
        assertThat(MarkdownReport.render(data)).contains("- longer window: ").contains("(threads=1pc,delay=0,"
                + "warmup=10ms,window=40ms): " + why);
    }

    @Test
    void shouldListARowWhoseRateStillChangedWithTheRatiosOfItsWindowsHalves() throws Exception {
        Experiment experiment = Experiments.byName("future-cpus").select(r -> r.machine().logicalProcessors() == 16
                && r.machine().pauseCycles() == 300 && r.workload().name().equals("mres-wait-drain-rate"));
        var planned = experiment.rows().getFirst();
        ExperimentRow later = new ExperimentRow(experiment.name(), "mres-wait-drain-rate", planned.machine().name(),
                "threads=1pc,delay=0,warmup=10ms,window=4ms", "legacy", 150, "current", 300, planned.published(),
                Map.of(), Map.of(), Optional.empty(), 0, false, 600, 1_200, List.of(1L, 2L), List.of(150.0, 160.0),
                List.of(300.0, 310.0), "", List.of(1.0, 1.1), List.of(2.0, Double.POSITIVE_INFINITY))
                .withWindowExtension("extended from warmup=2ms,window=4ms, where the right side counted 1.80 to 1.90 "
                        + "times as many operations in the window's second half as in its first, on every seed", 5);
        String why = "the right side counted 2.00 to ∞ times as many operations in the window's second half as in "
                + "its first, on every seed";
        assertThat(later.rateChanging()).contains(why);

        ReportData data = new ReportData(List.of(ReportSection.of(experiment, List.of(later))),
                ReportFixture.PROVENANCE);

        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(JsonReport.render(data));
        assertThat(json.at("/experiments/0/rows/0/rateChanging").asText()).isEqualTo(why);
        assertThat(json.at("/experiments/0/rows/0/leftHalvesRatios/1").asDouble()).isEqualTo(1.1);
        assertThat(json.at("/experiments/0/rows/0/rightHalvesRatios/1").isNull()).as("∞ has no JSON number").isTrue();
        assertThat(MarkdownReport.render(data)).contains("- rate still changing: ").contains(": " + why);
        assertThat(HtmlReport.render(data)).contains("<p class=\"rate-changing\">rate still changing: ");
    }

    @Test
    void shouldSetTheSimulatedLeftScoresBesideThePublishedOnesWhereOnlyTheLeftWasPrinted() throws Exception {
        // coreclr #9234's table: the 'before' cells could be read, the 'after' ones not.
        Experiment experiment = Experiments.byName("threadpool-global-queue").select(r -> r.workload().parameters()
                .startsWith("drivers=serial,depth=1,"));
        assertThat(experiment.rows()).hasSize(2).allSatisfy(r -> assertThat(r.published().leftPerMs()).isPresent());
        List<ExperimentRow> results = experiment.rows().stream().map(p -> new ExperimentRow(experiment.name(),
                p.workload().name(), p.machine().name(), p.workload().parameters(), "before", 611.294, "after",
                600, p.published(), Map.of(), Map.of(), Optional.empty(), 0, true, 2_400, 2_400, 1L)).toList();

        ReportData data = new ReportData(List.of(ReportSection.of(experiment, results)), ReportFixture.PROVENANCE);

        // 611.294 is twice the (TP) cell's 305.647 per ms, and 4.37 times the other block's 139.736.
        String levels = "simulated left scores ×2.96 the published ones (median over 2 rows; ×2.00 to ×4.37)";
        assertThat(data.levels().describe()).isEqualTo(levels);
        assertThat(MarkdownReport.render(data)).contains(Format.LEVELS_LEAD + levels + "; threadpool-global-queue: "
                + levels + ".").contains("| better (left 305.6) |");
        assertThat(HtmlReport.render(data)).contains("<p class=\"levels\">");
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(JsonReport.render(data));
        assertThat(json.at("/experiments/0/levels/rows").asInt()).isEqualTo(2);
        assertThat(json.at("/experiments/0/levels/highest").asDouble()).isCloseTo(4.3746,
                org.assertj.core.api.Assertions.within(1e-3));
        assertThat(json.at("/experiments/0/rows/0/published/leftPerMs").asDouble()).isCloseTo(305.647,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(json.at("/experiments/0/rows/0/leftOverPublished").asDouble()).isCloseTo(2.0,
                org.assertj.core.api.Assertions.within(1e-9));
        // A report without such rows says nothing of levels.
        assertThat(MarkdownReport.render(new ReportData(List.of(ReportFixture.procScaling()),
                ReportFixture.PROVENANCE))).doesNotContain(Format.LEVELS_LEAD);
    }

    @Test
    void shouldTableEachMachineWithItsPublishedTotalWhenMachinesAreFew() {
        List<ResultTable> tables = ReportFixture.procScaling().tables();

        assertThat(tables).hasSize(1);
        assertThat(tables.get(0).machine()).contains("skylake-i7-6700");
        assertThat(tables.get(0).publishedTotal()).isPresent();
        assertThat(tables.get(0).totalVerdict()).isEqualTo(Verdict.AGREES);
        assertThat(ReportFixture.eventPipe().tables()).extracting(t -> t.machine().orElseThrow())
                .containsExactly("kabylake-i7-7700hq", "ivybridge-e7-4x12");
    }

    @Test
    void shouldMakeOneTableWhenRowsSpanMoreMachinesThanTablesAreKeptFor() {
        List<ReportRow> rows = IntStream.rangeClosed(1, ReportSection.MAX_TABLES_PER_MACHINE + 1).mapToObj(pause -> {
            MachineProfile machine = Experiments.futureMachine(pause, 4);
            return new ReportRow(new ExperimentRow("sweep", "w", machine.name(), "threads=1pc", "l", 1, "r", 2,
                    Published.none(), Map.of(), Map.of(), Optional.empty(), 0, false, 1000, 1000, 1L), machine, 1);
        }).toList();

        List<ResultTable> few = new ReportSection("sweep", "", "l", "r", List.of(), Map.of(),
                rows.subList(0, ReportSection.MAX_TABLES_PER_MACHINE)).tables();
        List<ResultTable> many = new ReportSection("sweep", "", "l", "r", List.of(), Map.of(), rows).tables();

        assertThat(few).hasSize(ReportSection.MAX_TABLES_PER_MACHINE);
        assertThat(many).hasSize(1);
        assertThat(many.get(0).machine()).isEmpty();
        assertThat(many.get(0).rows()).hasSize(ReportSection.MAX_TABLES_PER_MACHINE + 1);
    }

    @Test
    void shouldLabelARowByWorkloadThreadsAndVariantWhenParametersAreGiven() {
        ReportRow row = ReportFixture.procScaling().rows().get(4);

        assertThat(row.label()).isEqualTo("mres-wait-drain-rate 1pc delay=1us");
        assertThat(row.variant()).isEqualTo("delay=1us");
        assertThat(row.threadMultiple()).contains(1.0);
    }
}
