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

        assertThat(ns).isPositive();
        assertThat(host.name()).isEqualTo("host");
        assertThat(host.logicalProcessors()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(host.pauseNs()).as("half a cycle of rounding at most")
                .isCloseTo(ns, within(Math.max(0.5, ns * 0.05)));
    }

    @Test
    void shouldPairEveryWorkloadAndTuningWhenCalibrationRuns() throws InterruptedException {
        HostCalibration.Settings settings = new HostCalibration.Settings(new Window(1_000_000, 3_000_000),
                new Window(500_000, 1_000_000), 1, List.of("current", "legacy"),
                List.of("mres-wait-drain-rate", "spinlock-throughput"));
        List<CalibrationPoint> seen = new ArrayList<>();

        CalibrationResult result = HostCalibration.run(settings, seen::add);

        assertThat(result.points()).hasSize(4).containsExactlyElementsOf(seen);
        assertThat(result.points()).allSatisfy(p -> {
            assertThat(p.hardwareScore()).isNotNegative();
            assertThat(p.simulatedScore()).isNotNaN().isNotNegative();
        });
        assertThat(result.byWorkload()).containsOnlyKeys("mres-wait-drain-rate", "spinlock-throughput");
        assertThat(result.host().name()).isEqualTo("host");
        double rho = result.spearman();
        assertThat(Double.isNaN(rho) || (rho >= -1 && rho <= 1)).as("rho = " + rho).isTrue();
    }
}
