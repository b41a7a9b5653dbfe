package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.Window;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The cost of one bytecode from single-threaded probes: the arithmetic, the simulated timings, the profile. */
class BytecodeCostTest {

    private static BytecodeCost.Probe probe(double hardware, double free, double oneCycle) {
        return new BytecodeCost.Probe("spinlock-throughput", "threads=1", hardware, free, oneCycle, 2.0);
    }

    @Test
    void shouldSolveForTheCyclesPerBytecodeFromTheThreeTimings() {
        // 40 ns free, 90 ns at one cycle: 50 ns of bytecodes at one cycle, 100 bytecodes at 2 GHz;
        // 65 ns on the host leaves 25 ns for them: half a cycle each.
        BytecodeCost.Probe p = probe(65, 40, 90);

        assertThat(p.bytecodesPerOperation()).isEqualTo(100.0);
        assertThat(p.cyclesPerBytecode()).isEqualTo(0.5);
        assertThat(probe(30, 40, 90).cyclesPerBytecode()).isEqualTo(-0.2);
        assertThat(probe(65, 40, 40).cyclesPerBytecode()).isNaN();
        assertThat(probe(Double.NaN, 40, 90).cyclesPerBytecode()).isNaN();
    }

    @Test
    void shouldTakeTheMedianOfThePositiveEstimates() {
        BytecodeCost odd = BytecodeCost.of(List.of(probe(65, 40, 90), probe(30, 40, 90), probe(140, 40, 90),
                probe(50, 40, 90)));
        BytecodeCost even = BytecodeCost.of(List.of(probe(65, 40, 90), probe(50, 40, 90)));
        BytecodeCost none = BytecodeCost.of(List.of(probe(30, 40, 90), probe(65, 40, 40)));

        // Estimates 0.5, -0.2 (left out), 2.0, 0.2: the median of 0.2, 0.5, 2.0.
        assertThat(odd.cyclesPerBytecode()).isEqualTo(0.5);
        assertThat(odd.probes()).hasSize(4);
        assertThat(odd.usable()).isTrue();
        assertThat(even.cyclesPerBytecode()).isCloseTo(0.35, within(1e-12));
        assertThat(none.cyclesPerBytecode()).isNaN();
        assertThat(none.usable()).isFalse();
        assertThat(none.describe()).startsWith("one bytecode's cost not measurable");
    }

    @Test
    void shouldTimeEachProbeExactlyLinearlyInTheCyclesPerBytecodeWhenSimulated() {
        MachineProfile host = HostCalibration.hostProfile(40).toBuilder().frequencyGhz(2.0).build();
        for (String probe : BytecodeCost.PROBES) {
            String name = probe.substring(0, probe.indexOf(':'));
            String parameters = probe.substring(probe.indexOf(':') + 1);
            double free = BytecodeCost.simulatedNs(host, name, parameters, 0);
            double one = BytecodeCost.simulatedNs(host, name, parameters, 1);
            double two = BytecodeCost.simulatedNs(host, name, parameters, 2);

            assertThat(free).as(probe).isPositive();
            assertThat(one - free).as(probe).isGreaterThan(10);
            // One thread with nothing to wait for: each cycle per bytecode adds the same time per operation
            // (to within the rounding of operations counted in a 1 ms window).
            assertThat((two - free) / (one - free)).as(probe).isCloseTo(2.0, within(0.02));
            assertThat(BytecodeCost.simulatedNs(host, name, parameters, 1)).as(probe).isEqualTo(one);
        }
    }

    @Test
    void shouldPutAUsableFigureIntoTheHostProfileAndLeaveTheDefaultOtherwise() {
        MachineProfile host = HostCalibration.hostProfile(40);
        BytecodeCost half = BytecodeCost.of(List.of(probe(65, 40, 90), probe(66, 40, 90)));

        MachineProfile measured = HostCalibration.withBytecodeCost(host, half);

        assertThat(measured.cyclesPerBytecode()).isEqualTo(0.51);
        assertThat(measured.description()).endsWith(", one bytecode of the primitives' code 0.51 cycles");
        assertThat(HostCalibration.withBytecodeCost(host, BytecodeCost.of(List.of(probe(30, 40, 90)))))
                .isEqualTo(host);
    }

    @Test
    void shouldMeasureEveryProbeOnThisHost() throws InterruptedException {
        MachineProfile host = HostCalibration.hostProfile(40);
        BytecodeCost cost = BytecodeCost.measure(host, new Window(2_000_000, 5_000_000), 1);

        assertThat(cost.probes()).extracting(BytecodeCost.Probe::workload).containsExactly("spinlock-throughput",
                "monitor-throughput", "semaphore-throughput", "queue-throughput", "stack-throughput");
        assertThat(cost.probes()).allSatisfy(p -> {
            assertThat(p.hardwareNs()).isPositive();
            assertThat(p.oneCycleNs()).isGreaterThan(p.freeNs());
            assertThat(p.frequencyGhz()).isEqualTo(host.frequencyGhz());
        });
        assertThat(cost.describe()).contains("spinlock-throughput: ").contains("stack-throughput: ");
    }
}
