package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.ThreadCount;
import io.spinlab.sim.workload.Window;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The experiment plans: names, rows, tunings, published figures; and the verdict arithmetic. */
class ExperimentsTest {

    @Test
    void shouldPlanEveryPublishedRowWhenExperimentsAreBuilt() {
        assertThat(Experiments.names()).containsExactly("mres-proc-scaling", "normalized-spin",
                "eventpipe-lockless", "threadpool-global-queue", "monitor-convoy", "future-cpus");
        assertThat(Experiments.byName("eventpipe-lockless").rows()).hasSize(3 * 2);
        assertThat(Experiments.byName("mres-proc-scaling").rows()).hasSize(2 * 2 * 2 * 6);
        assertThat(Experiments.byName("normalized-spin").rows()).hasSize(2 * 11 * 2);
        // the QUWI matrix (modes × depths × drivers) and the description's batch benchmark (one and 1pc queuers)
        assertThat(Experiments.byName("threadpool-global-queue").rows()).hasSize(2 * 5 * 5 + 2);
        assertThat(Experiments.byName("monitor-convoy").rows()).hasSize(6);
        assertThat(Experiments.byName("future-cpus").rows()).hasSize(6 * 4 * 2);
    }

    @Test
    void shouldCompareNamedTuningsWhenExperimentsAreBuilt() {
        Experiment procScaling = Experiments.byName("mres-proc-scaling");

        // Each published experiment runs the generations its pull request measured.
        assertThat(procScaling.left().describe()).isEqualTo("netcore2.0");
        assertThat(procScaling.right().describe()).isEqualTo("netcore2.0-13556");
        assertThat(Experiments.byName("normalized-spin").left().describe()).isEqualTo("corert-2019-before");
        assertThat(Experiments.byName("normalized-spin").right().describe()).isEqualTo("corert-2019-after");
        assertThat(Experiments.byName("threadpool-global-queue").left().describe())
                .isEqualTo("netcore2.0,global-queue=queue-segment");
        assertThat(Experiments.byName("threadpool-global-queue").right().describe()).isEqualTo("netcore2.0");
        assertThat(Experiments.byName("monitor-convoy").left().describe()).isEqualTo("netcore2.1,monitor=convoy");
        assertThat(Experiments.byName("monitor-convoy").right().describe()).isEqualTo("netcore2.1");
        assertThat(Experiments.byName("future-cpus").left().describe()).isEqualTo("netcore2.0");
        assertThat(Experiments.byName("future-cpus").right().describe()).isEqualTo("net6");
        assertThat(Experiments.byName("eventpipe-lockless").left().describe()).isEqualTo("netcore3.0");
        assertThat(Experiments.byName("eventpipe-lockless").right().describe())
                .isEqualTo("netcore3.0,reservation=lockless");
        assertThat(Experiments.byName("eventpipe-lockless").memoryModel()).isTrue();
        assertThat(Experiments.byName("eventpipe-lockless").withMemoryModel(false).select(r -> true).memoryModel())
                .isFalse();
    }

    @Test
    void shouldCarryPublishedFiguresWhereTheyExist() {
        List<PlannedRow> skylake = Experiments.byName("mres-proc-scaling").select(r -> r.machine().name()
                .equals("skylake-i7-6700") && r.published().deltaPercent().isPresent()).rows();

        assertThat(skylake).extracting(r -> r.workload().name() + " " + r.workload().parameters().split(",")[0])
                .containsExactlyInAnyOrder("mres-wait-drain-rate threads=1pc", "mres-wait-drain-rate threads=16pc",
                        "mres-wait-drain-rate threads=64pc", "mres-wait-latency threads=0.5pc");
        assertThat(skylake.get(0).published().deltaPercent().getAsDouble()).isCloseTo(489.3, within(0.1));
        Set<String> machines = Experiments.byName("normalized-spin").rows().stream()
                .map(r -> r.machine().name()).collect(Collectors.toSet());
        assertThat(machines).containsExactlyInAnyOrder("kabylake-e3-1245v6", "haswell-i5-4670k");
    }

    @Test
    void shouldKeepAMachinesPublishedTotalOnlyWhenAllItsRowsAreSelected() {
        Experiment procScaling = Experiments.byName("mres-proc-scaling");

        assertThat(procScaling.publishedTotals()).containsOnlyKeys("sandybridge-e5-1650", "skylake-i7-6700");
        assertThat(procScaling.publishedTotals().get("skylake-i7-6700").deltaPercent().getAsDouble())
                .isEqualTo(322);
        assertThat(procScaling.select(r -> true).withMemoryModel(true).withWindowScale(2).publishedTotals())
                .isEqualTo(procScaling.publishedTotals());
        // Every Skylake row and one Sandy Bridge row: only Skylake's total still covers what was published.
        PlannedRow firstSandy = procScaling.rows().stream()
                .filter(r -> r.machine().name().equals("sandybridge-e5-1650")).findFirst().orElseThrow();
        Experiment reduced = procScaling.select(r -> r.machine().name().equals("skylake-i7-6700") || r == firstSandy);
        assertThat(reduced.publishedTotals()).containsOnlyKeys("skylake-i7-6700");
        assertThat(procScaling.select(r -> false).publishedTotals()).isEmpty();
        assertThat(Experiments.byName("future-cpus").publishedTotals()).isEmpty();
    }

    @Test
    void shouldListValidNamesWhenExperimentIsUnknown() {
        assertThatThrownBy(() -> Experiments.byName("mres")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown experiment 'mres'").hasMessageContaining("normalized-spin");
    }

    @Test
    void shouldGrowWindowWithThreadsWhenRowsAreOversubscribed() {
        assertThat(Experiments.windowFor(8)).isEqualTo(new Window(2_000_000, 4_000_000));
        assertThat(Experiments.windowFor(768)).isEqualTo(new Window(7_680_000, 30_720_000));
        assertThat(ThreadCount.parse("64pc").resolve(12)).isEqualTo(768);
    }

    @Test
    void shouldScaleEveryWindowWhenAskedForLongerRows() {
        Experiment base = Experiments.byName("monitor-convoy");

        Experiment scaled = base.withWindowScale(2.5).withMemoryModel(false);

        assertThat(scaled.rows()).hasSameSizeAs(base.rows());
        // The row's own window (the 2017 AwareLock's 76 ms spin, then two of them on Skylake) × 2.5.
        assertThat(base.rows().get(0).workload().parameters())
                .isEqualTo("threads=1pc,hold=0,warmup=76282353ns,window=148564706ns");
        assertThat(scaled.rows().get(0).workload().parameters())
                .isEqualTo("threads=1pc,hold=0,warmup=190705883ns,window=371411765ns");
        assertThat(scaled.rows().get(0).machine()).isEqualTo(base.rows().get(0).machine());
        assertThat(scaled.memoryModel()).isFalse();
        assertThat(scaled).hasToString("monitor-convoy (netcore2.1,monitor=convoy vs netcore2.1, 6 rows, fast mode)");
        assertThatThrownBy(() -> base.withWindowScale(0)).hasMessageContaining("positive");
    }

    @Test
    void shouldGiveReaderTimeWhenWritersOutnumberProcessors() {
        List<PlannedRow> rows = Experiments.byName("eventpipe-lockless").rows();

        assertThat(rows).filteredOn(r -> r.machine().logicalProcessors() == 8)
                .allSatisfy(r -> assertThat(r.workload().parameters()).endsWith("warmup=10ms,window=40ms"));
        assertThat(rows).filteredOn(r -> r.machine().name().equals("ivybridge-e7-4x12"))
                .allSatisfy(r -> assertThat(r.workload().parameters()).endsWith("warmup=2ms,window=4ms"));
        assertThat(rows.get(0).published().deltaPercent().getAsDouble()).isEqualTo(63.9);
        assertThat(rows.get(1).published().deltaPercent().getAsDouble()).isEqualTo(47.9);
    }

    @Test
    void shouldBuildWhatIfPartWhenPauseAndProcessorsAreGiven() {
        MachineProfile part = Experiments.futureMachine(300, 256);

        assertThat(part.name()).isEqualTo("future-p300-n256");
        assertThat(part.pauseCycles()).isEqualTo(300);
        assertThat(part.logicalProcessors()).isEqualTo(256);
        assertThat(part.physicalCores()).isEqualTo(128);
        assertThat(Experiments.futureMachine(1, 4).physicalCores()).isEqualTo(2);
    }

    @Test
    void shouldJudgeDirectionsWithNoiseBandWhenDeltasAreGiven() {
        Published better = Published.figure(56, 330, "x");
        Published notWorse = Published.direction(Published.Direction.NOT_WORSE, "x");
        Published neutral = Published.direction(Published.Direction.NEUTRAL, "x");

        assertThat(better.direction()).isEqualTo(Published.Direction.RIGHT_BETTER);
        assertThat(better.judge(400)).isEqualTo(Verdict.AGREES);
        assertThat(better.judge(3)).isEqualTo(Verdict.DISAGREES);
        assertThat(better.judge(Double.POSITIVE_INFINITY)).isEqualTo(Verdict.AGREES);
        assertThat(notWorse.judge(-4)).isEqualTo(Verdict.AGREES);
        assertThat(notWorse.judge(-6)).isEqualTo(Verdict.DISAGREES);
        assertThat(neutral.judge(4.9)).isEqualTo(Verdict.AGREES);
        assertThat(neutral.judge(-30)).isEqualTo(Verdict.DISAGREES);
        assertThat(Published.none().judge(-30)).isEqualTo(Verdict.NO_CLAIM);
        assertThat(better.describe()).isEqualTo("+489 %");
    }

    @Test
    void shouldComputeDeltaWhenScoresAreEdgeCases() {
        assertThat(Experiment.deltaPercent(100, 150)).isEqualTo(50);
        assertThat(Experiment.deltaPercent(0, 0)).isZero();
        assertThat(Experiment.deltaPercent(0, 5)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Experiment.deltaPercent(Double.NaN, 5)).isNaN();
    }

    @Test
    void shouldReturnRowsInPlanOrderWhenRunInParallel() {
        Experiment reduced = Experiments.byName("future-cpus").select(r -> r.machine().logicalProcessors() == 4
                && r.machine().pauseCycles() >= 140);
        List<String> started = new ArrayList<>();
        List<ExperimentRow> rows = reduced.run(new ProgressListener() {
            @Override
            public void rowStarted(Experiment experiment, int index, int total, PlannedRow row) {
                started.add(index + "/" + total);
            }
        }, 2);

        assertThat(rows).extracting(r -> r.machine() + " " + r.workload())
                .containsExactlyElementsOf(reduced.rows().stream()
                        .map(r -> r.machine().name() + " " + r.workload().name()).toList());
        assertThat(started).hasSize(6).contains("0/6", "5/6");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.completed()).isTrue();
            assertThat(r.leftMetrics()).containsKey("threads");
        });
        // netcore2.0 drains 30 events in 4 ms on the 1,000-cycle part: too few to score, so that row ran
        // again over ten 4 ms slices; it drains 164 there, enough to score (78 before a hit stopped adding
        // 4 cycles to the instruction clock's charge for the load, when the row was reported not measurable).
        assertThat(rows).filteredOn(r -> r.windowExtended().isPresent())
                .extracting(r -> r.machine() + " " + r.workload() + " " + r.parameters() + ": "
                        + r.windowExtended().orElseThrow())
                .containsExactly("future-p1000-n4 mres-wait-drain-rate threads=1pc,delay=0,warmup=10ms,window=40ms: "
                        + "extended from warmup=2ms,window=4ms, where left counted 30 operations in the window (fewer "
                        + "than 100)");
        assertThat(rows).hasSize(6);
        assertThat(rows).filteredOn(r -> r.windowExtended().isEmpty()).hasSize(5).allSatisfy(r -> {
            assertThat(r.leftOperations()).isGreaterThanOrEqualTo(100);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_CLAIM);
        });
        assertThat(rows).filteredOn(r -> r.windowExtended().isPresent()).singleElement().satisfies(r -> {
            assertThat(r.leftOperations()).isEqualTo(164);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_CLAIM);
            assertThat(r.notMeasurable()).isEmpty();
        });
    }
}
