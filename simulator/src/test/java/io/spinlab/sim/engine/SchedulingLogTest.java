package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.sim.workload.RacyCounter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The scheduling log of a failure report: fields and values of the last points, and no effect on the run. */
class SchedulingLogTest {

    private static Simulation.Builder builder(int points) {
        return Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(5).memoryModel(true)
                .recordSchedulingPoints(points);
    }

    private static SimulationResult run(Simulation.Builder builder) throws ReflectiveOperationException {
        Class<?> type = builder.guestLoader().loadClass(RacyCounter.class.getName());
        Runnable counter = (Runnable) type.getConstructor(int.class).newInstance(3);
        Simulation sim = builder.build();
        sim.startThread("a", counter);
        sim.startThread("b", counter);
        return sim.run().requireCompleted();
    }

    @Test
    void shouldNameTheFieldAndItsValuesWhenAGuestAccessesAVolatileField() throws Exception {
        List<SchedulingPoint> points = run(builder(100)).schedulingPoints();

        // Each thread: 3 x (read, volatile write), then its end.
        assertThat(points).hasSize(14);
        SchedulingPoint first = points.getFirst();
        assertThat(first.thread()).isEqualTo("a");
        assertThat(first.text()).isEqualTo("read RacyCounter#0.count = 0");
        assertThat(points).filteredOn(p -> p.action().equals("volatile write")).hasSize(6)
                .allSatisfy(p -> assertThat(p.value()).matches("\\d -> \\d"));
        assertThat(points).filteredOn(p -> p.action().equals("end")).extracting(SchedulingPoint::thread)
                .containsExactlyInAnyOrder("a", "b");
        assertThat(points).isSortedAccordingTo((x, y) -> Long.compare(x.picos(), y.picos()));
    }

    @Test
    void shouldKeepOnlyTheNewestPointsWhenTheRunHasMore() throws Exception {
        List<SchedulingPoint> all = run(builder(100)).schedulingPoints();
        List<SchedulingPoint> last = run(builder(5)).schedulingPoints();

        assertThat(last).isEqualTo(all.subList(all.size() - 5, all.size()));
    }

    @Test
    void shouldLeaveTheRunUnchangedWhenPointsAreRecorded() throws Exception {
        SimulationResult plain = run(builder(0));
        SimulationResult recorded = run(builder(1_000));

        assertThat(plain.schedulingPoints()).isEmpty();
        assertThat(recorded.digest()).isEqualTo(plain.digest());
        assertThat(recorded.endPicos()).isEqualTo(plain.endPicos());
    }

    @Test
    void shouldRejectANegativeNumberOfPoints() {
        assertThatThrownBy(() -> builder(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("recordSchedulingPoints = -1; allowed 0 to 1000000");
    }
}
