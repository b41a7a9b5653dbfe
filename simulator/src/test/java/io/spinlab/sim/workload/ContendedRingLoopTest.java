package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The queue-ring loop of calibrate's second contended-line check, on real threads and simulated. */
class ContendedRingLoopTest {

    /** This CI host's calibrated costs (as CasLoopOwnershipTest's): a 218 ns line transfer between two cores. */
    private static final String HOST = "kabylake-i7-7700hq frequencyGhz=2.1 physicalCores=2 logicalProcessors=2 "
            + "atomicOpNs=5.5 cacheLineTransferNs=218 cyclesPerBytecode=0.195";

    @Test
    void shouldOfferAndTakeEveryItemOnRealThreads() throws InterruptedException {
        WorkloadResult result = WorkloadRunner.onHardware(new ContendedRingLoop(2, 20_000), Tuning.current());

        // the loop itself throws unless the tail and the head both moved 40,000 places
        assertThat(result.operations()).isEqualTo(40_000);
        assertThat(result.metric(ContendedCasLoop.OWNER_CHANGES)).isBetween(0.0, 40_000.0);
        assertThat(result.metric(ContendedCasLoop.LONGEST_LOSING_RUN)).isLessThanOrEqualTo(
                result.metric(ContendedCasLoop.FAILURES));
    }

    @Test
    void shouldOfferAndTakeEveryItemSimulatedTheSameWayForTheSameSeed() {
        SimulatedRun first = simulate(1);
        SimulatedRun again = simulate(1);

        assertThat(first.result().operations()).isEqualTo(4_000);
        assertThat(first.result().metric(ContendedCasLoop.OWNER_CHANGES)).isPositive();
        assertThat(first.result().metric(ContendedCasLoop.FAILURES)).isPositive();
        assertThat(again.simulation().digest()).isEqualTo(first.simulation().digest());
        assertThat(simulate(2).simulation().digest()).isNotEqualTo(first.simulation().digest());
    }

    @Test
    void shouldBackOffTwiceAsLongAfterEachLossInARowUpToItsCap() {
        assertThat(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 40L).stream().map(ContendedRingLoop::backoff).toList())
                .containsExactly(1, 2, 4, 8, 16, 32, 32, 32);
    }

    @Test
    void shouldRejectCountsOutOfRangeNamingWhatIsAllowed() {
        assertThatThrownBy(() -> new ContendedRingLoop(0, 10)).hasMessage(
                "threads = 0, offers = 10; allowed threads 1 to 64 and offers 1 or more");
        assertThatThrownBy(() -> new ContendedRingLoop(2, 0)).hasMessageContaining("offers = 0");
    }

    private static SimulatedRun simulate(long seed) {
        return WorkloadRunner.simulate(ContendedRingLoop.class, List.of(2, 2_000), Tuning.current(),
                Simulation.builder(MachineSpec.parse(HOST)).seed(seed).memoryModel(true).noise(true));
    }
}
