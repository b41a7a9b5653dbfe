package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.LineHandover;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The line hand-over check's loop, figures and line. */
class HandoverCheckTest {

    /** This CI host's calibrated costs (as CasLoopOwnershipTest's), without noise. */
    private static final String HOST = "kabylake-i7-7700hq frequencyGhz=2.1 physicalCores=2 logicalProcessors=2 "
            + "atomicOpNs=5.5 cacheLineTransferNs=218 cyclesPerBytecode=0.195";

    @Test
    void shouldHandTheCounterBackAndForthOnRealThreadsBothWays() throws InterruptedException {
        for (boolean cas : new boolean[] {false, true}) {
            WorkloadResult run = WorkloadRunner.onHardware(new LineHandover(10_000, cas), Tuning.current());

            // the loop itself throws unless the counter ends at 10,000
            assertThat(run.operations()).isEqualTo(10_000);
            assertThat(run.parameters()).isEqualTo("handovers=10000,wait=" + (cas ? "cas" : "read"));
        }
    }

    /**
     * What the model charges, pinned: a hand-over to a thread waiting by CAS retries is one line transfer
     * (the retry that fails pulls the line back, so the next writer's CAS fetches it once); one to a
     * reader is the writer's upgrade of the line it shares with the reader ({@code invalidationNs}) and
     * then the reader's miss, one after the other: one transfer with no invalidation cost, one and a half
     * with half a transfer's, two with a whole one (plus, on average, half of the reader's 67 ns PAUSE
     * and the writer's fence).
     */
    @Test
    void shouldChargeAReadersHandoverAnUpgradeAndATransferAndACasRetriersOneTransfer() {
        assertThat(simulatedNsPerHandover(false, 0) / 218).isBetween(1.1, 1.2);
        assertThat(simulatedNsPerHandover(false, 109) / 218).isBetween(1.5, 1.6);
        assertThat(simulatedNsPerHandover(false, 218) / 218).isBetween(2.0, 2.1);
        assertThat(simulatedNsPerHandover(true, 0) / 218).isBetween(1.0, 1.1);
        assertThat(simulatedNsPerHandover(true, 109) / 218).isBetween(1.0, 1.1);
    }

    @Test
    void shouldTakeTheMedianTimePerHandover() {
        List<WorkloadResult> runs = List.of(run(3_000_000), run(2_400_000), run(9_000_000));

        assertThat(HandoverCheck.nsPerHandover(runs)).isEqualTo(300.0);
        assertThat(HandoverCheck.nsPerHandover(runs.subList(0, 2))).isEqualTo(300.0);
    }

    @Test
    void shouldDescribeBothWaysOnBothSidesOrWhyItDidNotRun() {
        HandoverCheck check = new HandoverCheck(231, 225.2, 248.6, 469.5, 237.1);

        assertThat(check.describe()).isEqualTo("2 threads handing a counter back and forth, ns per hand-over: "
                + "waiting by reads with a PAUSE between them, this host 225.2, simulated 469.5 (2.03× the profile's "
                + "line transfer of 231.0); waiting by CAS retries, this host 248.6, simulated 237.1 (median of 5 "
                + "runs, of 3 seeds)");
        assertThat(HandoverCheck.unmeasured().describe()).isEqualTo("not measured (it needs 2 cores)");
    }

    @Test
    void shouldRejectFewerThanTwoHandovers() {
        assertThatThrownBy(() -> new LineHandover(1, false)).hasMessage("handovers = 1; allowed 2 or more");
    }

    private static double simulatedNsPerHandover(boolean cas, int invalidationNs) {
        WorkloadResult result = WorkloadRunner.simulate(LineHandover.class, List.of(2_000, cas), Tuning.current(),
                Simulation.builder(MachineSpec.parse(HOST + " invalidationNs=" + invalidationNs)).seed(1)
                        .memoryModel(true)).result();
        return result.elapsedNanos() / (double) result.operations();
    }

    private static WorkloadResult run(long nanos) {
        return new WorkloadResult("line-handover", "handovers=10000,wait=read", "test", 10_000, nanos, Map.of());
    }
}
