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
