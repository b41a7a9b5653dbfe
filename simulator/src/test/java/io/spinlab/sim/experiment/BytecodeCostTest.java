package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.Window;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The cost of one bytecode from the guest-code slope: the arithmetic, the simulated counts, the profile. */
class BytecodeCostTest {

    private static BytecodeCost.Slope slope(double fewNs, double manyNs, double fewBytecodes, double manyBytecodes) {
        return new BytecodeCost.Slope(fewNs, manyNs, fewBytecodes, manyBytecodes, 2.0);
    }

    private static BytecodeCost cost(BytecodeCost.Slope slope) {
        return new BytecodeCost(slope, List.of(new BytecodeCost.Probe("spinlock-throughput", "threads=1", 65, 40, 90,
                2.0)));
    }

    @Test
    void shouldDivideTheExtraCyclesByTheExtraBytecodes() {
        // 30 ns more for 600 bytecodes more at 2 GHz: 60 cycles over 600 bytecodes.
        assertThat(slope(20, 50, 100, 700).cyclesPerBytecode()).isCloseTo(0.1, within(1e-12));
        // The fixed part of an operation cancels: the same slope 100 ns higher gives the same figure.
        assertThat(slope(120, 150, 100, 700).cyclesPerBytecode()).isCloseTo(0.1, within(1e-12));
        assertThat(slope(50, 20, 100, 700).cyclesPerBytecode()).isCloseTo(-0.1, within(1e-12));
        assertThat(slope(20, 50, 100, 100).cyclesPerBytecode()).isNaN();
        assertThat(slope(Double.NaN, 50, 100, 700).cyclesPerBytecode()).isNaN();
        assertThat(BytecodeCost.unmeasured().cyclesPerBytecode()).isNaN();
    }

    @Test
    void shouldBeUsableOnlyWhenTheFigureIsAboveZeroAndInTheFieldsRange() {
        assertThat(cost(slope(20, 50, 100, 700)).usable()).isTrue();
        assertThat(cost(slope(50, 20, 100, 700)).usable()).isFalse();
        assertThat(cost(slope(20, 20, 100, 700)).usable()).isFalse();
        // 101 cycles per bytecode is above the field's maximum of 100: a unit mistake, not a machine.
        assertThat(cost(slope(0, 30_300, 100, 700)).usable()).isFalse();
        assertThat(BytecodeCost.unmeasured().usable()).isFalse();
        assertThat(BytecodeCost.unmeasured().describe()).startsWith("one bytecode's cost not measurable");
    }

    @Test
    void shouldPriceEachProbeLinearlyAtTheMeasuredFigure() {
        BytecodeCost.Probe p = new BytecodeCost.Probe("spinlock-throughput", "threads=1", 65, 40, 90, 2.0);

        assertThat(p.bytecodesPerOperation()).isEqualTo(100.0);
        assertThat(p.simulatedNs(0)).isEqualTo(40.0);
        assertThat(p.simulatedNs(0.5)).isEqualTo(65.0);
        assertThat(cost(slope(20, 50, 100, 700)).describe()).startsWith("one bytecode costs 0.100 cycles")
                .contains("spinlock-throughput: 65.0 ns per operation on this host, 45.0 ns simulated at that cost");
    }

    @Test
    void shouldCountTheGuestCodesBytecodesExactlyWhenSimulated() {
        MachineProfile host = HostCalibration.hostProfile(40).toBuilder().frequencyGhz(2.0).build();
        double few = BytecodeCost.guestCodeBytecodes(host, BytecodeCost.FEW_STEPS);
        double many = BytecodeCost.guestCodeBytecodes(host, BytecodeCost.MANY_STEPS);
        double free = BytecodeCost.guestCodeNs(host, BytecodeCost.MANY_STEPS, 0);
        double one = BytecodeCost.guestCodeNs(host, BytecodeCost.MANY_STEPS, 1);
        double two = BytecodeCost.guestCodeNs(host, BytecodeCost.MANY_STEPS, 2);

        // Each step is some 30 bytecodes; the operation around the steps is the same at both counts.
        assertThat((many - few) / (BytecodeCost.MANY_STEPS - BytecodeCost.FEW_STEPS)).isBetween(20.0, 40.0);
        // One thread with nothing to wait for: each cycle per bytecode adds the same time per operation
        // (to within the rounding of operations counted in a 1 ms window).
        assertThat((two - free) / (one - free)).isCloseTo(2.0, within(0.02));
        assertThat(BytecodeCost.guestCodeBytecodes(host, BytecodeCost.MANY_STEPS)).isEqualTo(many);
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
            assertThat((two - free) / (one - free)).as(probe).isCloseTo(2.0, within(0.02));
        }
    }

    @Test
    void shouldPutAUsableFigureIntoTheHostProfileAndLeaveTheDefaultOtherwise() {
        MachineProfile host = HostCalibration.hostProfile(40);

        MachineProfile measured = HostCalibration.withBytecodeCost(host, cost(slope(20, 50.6, 100, 700)));

        assertThat(measured.cyclesPerBytecode()).isEqualTo(0.102);
        assertThat(measured.description()).endsWith(", one bytecode of guest code 0.102 cycles");
        assertThat(HostCalibration.withBytecodeCost(host, cost(slope(50, 20, 100, 700)))).isEqualTo(host);
        assertThat(HostCalibration.withBytecodeCost(host, BytecodeCost.unmeasured())).isEqualTo(host);
    }

    @Test
    void shouldMeasureTheSlopeAndEveryProbeOnThisHost() throws InterruptedException {
        MachineProfile host = HostCalibration.hostProfile(40);
        BytecodeCost cost = BytecodeCost.measure(host, new Window(2_000_000, 5_000_000), 5);

        // Real threads: 256 steps of plain code take longer than none, the fastest of five runs against the
        // fastest of five. One run each was not enough: in the parallel build, with a Lincheck suite busy on
        // both cores, a 5 ms run of the short loop was held off the processor for most of its window (83 µs
        // per operation against 1.2 µs for the long loop).
        assertThat(cost.slope().manyHardwareNs()).isGreaterThan(cost.slope().fewHardwareNs());
        assertThat(cost.slope().manyBytecodes()).isGreaterThan(cost.slope().fewBytecodes() + 5_000);
        assertThat(cost.slope().frequencyGhz()).isEqualTo(host.frequencyGhz());
        assertThat(cost.cyclesPerBytecode()).isPositive();
        assertThat(cost.probes()).extracting(BytecodeCost.Probe::workload).containsExactly("spinlock-throughput",
                "monitor-throughput", "semaphore-throughput", "queue-throughput", "stack-throughput");
        assertThat(cost.probes()).allSatisfy(p -> {
            assertThat(p.hardwareNs()).isPositive();
            assertThat(p.oneCycleNs()).isGreaterThan(p.freeNs());
            assertThat(p.frequencyGhz()).isEqualTo(host.frequencyGhz());
        });
    }
}
