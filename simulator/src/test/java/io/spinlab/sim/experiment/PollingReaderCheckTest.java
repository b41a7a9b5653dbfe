package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.experiment.PollingReaderCheck.Figures;
import io.spinlab.sim.workload.PollingReader;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The polling-reader check's loop, figures and line. */
class PollingReaderCheckTest {

    /** This CI host's calibrated costs (as CasLoopOwnershipTest's). */
    private static final String HOST = "kabylake-i7-7700hq frequencyGhz=2.1 physicalCores=2 logicalProcessors=2 "
            + "atomicOpNs=5.5 cacheLineTransferNs=218 cyclesPerBytecode=0.195";

    @Test
    void shouldOfferAndTakeAloneAndBesideAPollerOnRealThreads() throws InterruptedException {
        WorkloadResult alone = WorkloadRunner.onHardware(new PollingReader(20_000, false), Tuning.current());
        WorkloadResult beside = WorkloadRunner.onHardware(new PollingReader(20_000, true), Tuning.current());

        assertThat(alone.operations()).isEqualTo(20_000);
        assertThat(alone.metric(PollingReader.POLLS)).isZero();
        assertThat(beside.operations()).isEqualTo(20_000);
        assertThat(beside.metric(PollingReader.POLL_NANOS)).isPositive();
    }

    /**
     * What the model charges, pinned: beside the poller each of the writer's changes is an upgrade of a line
     * the poller shares, so the writer slows by the invalidations ({@code invalidationNs}: not at all when
     * they cost nothing, more than twice when each costs a transfer), and the poller's rounds take
     * transfers, each of its reads of a changed line a miss. (On this host the poller's rounds take about a
     * PAUSE and the writer slows 2 to 10 times: SIMULATOR-RESULTS.md.)
     */
    @Test
    void shouldChargeTheWriterItsInvalidationsAndThePollerATransferForEachChangedLineItReads() {
        double free = simulate(false, 0).elapsedNanos() / 2_000.0;
        WorkloadResult besideFree = simulate(true, 0);
        assertThat(besideFree.elapsedNanos() / 2_000.0).isCloseTo(free, within(free * 0.05));
        assertThat(besideFree.metric(PollingReader.POLL_NANOS) / besideFree.metric(PollingReader.POLLS))
                .isGreaterThan(2 * 218);

        double alone = simulate(false, 218).elapsedNanos() / 2_000.0;
        WorkloadResult beside = simulate(true, 218);
        assertThat(beside.elapsedNanos() / 2_000.0).isGreaterThan(2 * alone);
        assertThat(beside.metric(PollingReader.POLL_NANOS) / beside.metric(PollingReader.POLLS))
                .isGreaterThan(2 * 218);
    }

    @Test
    void shouldTakeTheMediansOfEachShape() {
        List<WorkloadResult> alone = List.of(run(13_000_000, 0, 0), run(14_000_000, 0, 0), run(30_000_000, 0, 0));
        List<WorkloadResult> beside = List.of(run(25_000_000, 500_000, 20_000_000), run(135_000_000, 4_000_000,
                136_000_000), run(60_000_000, 1_000_000, 60_000_000));

        Figures figures = Figures.of(alone, beside);

        assertThat(figures.aloneNs()).isEqualTo(14.0);
        assertThat(figures.besideNs()).isEqualTo(60.0);
        assertThat(figures.pollNs()).isEqualTo(40.0);
    }

    @Test
    void shouldDescribeBothSidesOrWhyItDidNotRun() {
        PollingReaderCheck check = new PollingReaderCheck(new Figures(13.1, 25.4, 38.0), new Figures(30.5, 108.0,
                574.0));

        assertThat(check.describe()).isEqualTo("a thread offering and taking alone on a queue's ring, then beside a "
                + "thread polling the ring's tail and slot with a PAUSE between rounds: this host 13.1 ns per offer and "
                + "take alone, 25.4 beside the poller, the poller 38.0 ns a round; simulated 30.5, 108.0, 574.0 (median "
                + "of 5 runs, of 3 seeds)");
        assertThat(PollingReaderCheck.unmeasured().describe()).isEqualTo("not measured (it needs 2 cores)");
    }

    @Test
    void shouldRejectNoOperations() {
        assertThatThrownBy(() -> new PollingReader(0, true)).hasMessage("operations = 0; allowed 1 or more");
    }

    private static WorkloadResult simulate(boolean poller, int invalidationNs) {
        return WorkloadRunner.simulate(PollingReader.class, List.of(2_000, poller), Tuning.current(),
                Simulation.builder(MachineSpec.parse(HOST + " invalidationNs=" + invalidationNs)).seed(1)
                        .memoryModel(true)).result();
    }

    private static WorkloadResult run(long nanos, double polls, double pollNanos) {
        return new WorkloadResult("polling-reader", "operations=1000000,poller=true", "test", 1_000_000, nanos,
                Map.of(PollingReader.POLLS, polls, PollingReader.POLL_NANOS, pollNanos));
    }
}
