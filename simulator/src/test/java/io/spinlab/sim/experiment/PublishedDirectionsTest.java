package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published conclusions ({@code reference/published-results.md}) that the simulator
 * reproduces, checked on reduced configurations of the real experiments: the same rows, the
 * same windows and seeds as a full {@code reproduce}, only fewer of them. Rows where the
 * simulator disagrees with a publication are not asserted here; {@code simulator/EXPERIMENTS.md}
 * lists them with their likely causes. The last test pins one such disagreement so that it
 * cannot change unnoticed.
 */
class PublishedDirectionsTest {

    private static List<ExperimentRow> run(String experiment, Predicate<PlannedRow> keep) {
        return run(Experiments.byName(experiment).select(keep));
    }

    private static List<ExperimentRow> run(Experiment reduced) {
        String experiment = reduced.name();
        assertThat(reduced.rows()).as("rows selected from " + experiment).isNotEmpty();
        List<ExperimentRow> rows = reduced.run(ProgressListener.NONE, 2);
        assertThat(rows).allSatisfy(r -> assertThat(r.failure()).as(r.toString()).isEmpty());
        return rows;
    }

    private static Predicate<PlannedRow> row(String machine, String workload, String parametersPrefix) {
        return r -> r.machine().name().equals(machine) && r.workload().name().equals(workload)
                && r.workload().parameters().startsWith(parametersPrefix);
    }

    /** coreclr #13556: "it begins crawling at low thread counts" on Skylake; 56 → 330 at 1 × processors. */
    @Test
    void shouldLoseBadlyWithProcessorScaledSpinWhenSkylakeRunsOnePerProcessorAndMore() {
        List<ExperimentRow> rows = run("mres-proc-scaling",
                row("skylake-i7-6700", "mres-wait-drain-rate", "threads=1pc,delay=0")
                        .or(row("skylake-i7-6700", "mres-wait-drain-rate", "threads=16pc,delay=0"))
                        .or(row("skylake-i7-6700", "mres-wait-latency", "threads=1pc,delay=0")));

        assertThat(rows).hasSize(3).allSatisfy(r -> {
            assertThat(r.verdict()).as(r.toString()).isEqualTo(Verdict.AGREES);
            assertThat(r.deltaPercent()).as("unscaled at least doubles " + r).isGreaterThan(100);
        });
    }

    /** coreclr #13670: normalization helps the 140-cycle Kaby Lake on the drain rates (+34 %, +59 %, +35 %). */
    @Test
    void shouldScoreHigherWithNormalizedPauseWhenKabyLakeDrains() {
        List<ExperimentRow> rows = run("normalized-spin",
                row("kabylake-e3-1245v6", "mres-wait-drain-rate", "threads=1pc")
                        .or(row("kabylake-e3-1245v6", "mres-wait-drain-rate", "threads=2pc"))
                        .or(row("kabylake-e3-1245v6", "semaphore-wait-drain-rate", "threads=1pc")));

        assertThat(rows).hasSize(3).allSatisfy(r -> {
            assertThat(r.published().deltaPercent()).isPresent();
            assertThat(r.verdict()).as(r.toString()).isEqualTo(Verdict.AGREES);
        });
    }

    /** coreclr #13670: close to neutral on Haswell, where these rows wait through the lock and semaphore paths. */
    @Test
    void shouldStayNeutralWithNormalizedPauseWhenHaswellHandsOffLocksAndPermits() {
        List<ExperimentRow> rows = run("normalized-spin",
                row("haswell-i5-4670k", "semaphore-latency", "threads=1pc")
                        .or(row("haswell-i5-4670k", "spinlock-latency", "threads=1pc")));

        assertThat(rows).hasSize(2).allSatisfy(r -> {
            assertThat(r.verdict()).as(r.toString()).isEqualTo(Verdict.AGREES);
            assertThat(Math.abs(r.deltaPercent())).isLessThanOrEqualTo(Published.NOISE_PERCENT);
        });
    }

    /** coreclr #13978/#14216: barging beats the convoy handoff once waiters block. */
    @Test
    void shouldBeatConvoyWithBargingWhenWaitersBlock() {
        List<ExperimentRow> rows = run("monitor-convoy",
                r -> r.workload().parameters().startsWith("threads=1pc,hold=1us")
                        || r.workload().parameters().startsWith("threads=16pc,hold=0"));

        assertThat(rows).hasSize(2).allSatisfy(r -> {
            assertThat(r.verdict()).as(r.toString()).isEqualTo(Verdict.AGREES);
            assertThat(r.deltaPercent()).as("barging at least doubles " + r).isGreaterThan(100);
        });
    }

    /**
     * A pinned disagreement (coreclr #9234 reports about 2× for a serial driver): the two global
     * queues differ only in Java code between Platform calls, which costs no virtual time until
     * the simulator charges shared accesses (its memory model), so they score exactly alike.
     * When this fails, the simulator has learned to see the queue change: update EXPERIMENTS.md.
     */
    @Test
    void shouldScoreBothGlobalQueuesAlikeWhileSharedAccessesCostNothing() {
        List<ExperimentRow> rows = run("threadpool-global-queue",
                r -> r.workload().parameters().startsWith("drivers=serial,depth=16,mode=global"));

        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).deltaPercent()).isZero();
        assertThat(rows.get(0).verdict()).isEqualTo(Verdict.DISAGREES);
    }

    /** coreclr #9234, with the memory model on: where 16 drivers contend on the global queue, ConcurrentQueue wins. */
    @Test
    void shouldBeatQueueSegmentWithConcurrentQueueWhenDriversContendUnderMemoryModel() {
        List<ExperimentRow> rows = run(Experiments.byName("threadpool-global-queue").withMemoryModel(true)
                .select(r -> r.workload().parameters().startsWith("drivers=16,depth=16,mode=global")));

        assertThat(rows).hasSize(1).allSatisfy(r -> {
            assertThat(r.memoryModel()).isTrue();
            assertThat(r.verdict()).as(r.toString()).isEqualTo(Verdict.AGREES);
        });
    }
}
