package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.Window;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The calibration measures this host, builds its profile, and pairs hardware with simulated scores. */
class HostCalibrationTest {

    @Test
    void shouldBuildHostProfileWhenPauseIsMeasured() {
        double ns = HostCalibration.measureNsPerPause();

        MachineProfile host = HostCalibration.hostProfile(ns);

        // Every PAUSE (or its stand-in, e.g. an ISB or YIELD) costs some fraction of a ns to a few
        // hundred ns; a measurement outside that range is a broken measurement, not a slow host.
        assertThat(ns).as("ns per PAUSE").isBetween(0.05, 1_000.0);
        assertThat(host.name()).isEqualTo("host");
        assertThat(host.physicalCores()).as("SMT is not detected: every processor counts as a core")
                .isEqualTo(host.logicalProcessors());
        assertThat(host.pauseNs()).as("half a cycle of rounding at most")
                .isCloseTo(ns, within(Math.max(0.5, ns * 0.05)));
    }

    @Test
    void shouldTurnAPauseCostIntoCyclesAtTheHostClockWhenProfiled() {
        MachineProfile ten = HostCalibration.hostProfile(10.0);
        MachineProfile forty = HostCalibration.hostProfile(40.0);

        assertThat(forty.pauseCycles()).as("four times the cost, four times the cycles (to rounding)")
                .isCloseTo(4 * ten.pauseCycles(), within(2));
        assertThat(forty.pauseNs()).as("a cycle of rounding at most").isCloseTo(40.0, within(1.0));
        assertThat(HostCalibration.hostProfile(0.0).pauseCycles()).isZero();
    }

    @Test
    void shouldPairEveryWorkloadAndTuningWhenCalibrationRuns() throws InterruptedException {
        // 20 ms hardware windows: long enough that a loaded 2-core machine still counts operations.
        HostCalibration.Settings settings = new HostCalibration.Settings(new Window(2_000_000, 20_000_000),
                new Window(500_000, 1_000_000), 1, List.of("current", "legacy"),
                List.of("mres-wait-drain-rate", "spinlock-throughput"));
        List<CalibrationPoint> seen = new ArrayList<>();

        CalibrationResult result = HostCalibration.run(settings, seen::add);

        assertThat(result.points()).hasSize(4).containsExactlyElementsOf(seen);
        assertThat(result.points()).allSatisfy(p -> {
            assertThat(p.hardwareScore()).as("operations counted on real threads: %s", p).isPositive();
            assertThat(p.simulatedScore()).as("a completed simulation that counted operations: %s", p)
                    .isPositive();
        });
        assertThat(result.points()).extracting(CalibrationPoint::workload).containsExactly("mres-wait-drain-rate",
                "mres-wait-drain-rate", "spinlock-throughput", "spinlock-throughput");
        assertThat(result.byWorkload()).containsOnlyKeys("mres-wait-drain-rate", "spinlock-throughput");
        assertThat(result.host().name()).isEqualTo("host");
        assertThat(result.spearman()).as("every simulated run completed, so rho is defined: %s", result.points())
                .isNotNaN();
    }
}
