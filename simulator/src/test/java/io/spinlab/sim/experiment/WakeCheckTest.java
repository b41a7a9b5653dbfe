package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.WakeCheck.Figures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The wake check's figures and line on fixed inputs, and the simulated side's two shapes. */
class WakeCheckTest {

    @Test
    void shouldTakeTheMediansOfPairedSamples() {
        long[] unpark = {1_600, 1_500, 9_000};
        long[] latency = {2_700, 40_000, 2_600};

        Figures figures = Figures.of(unpark, latency);

        assertThat(figures.unparkNs()).isEqualTo(1_600);
        assertThat(figures.latencyNs()).isEqualTo(2_700);
        assertThat(unpark).containsExactly(1_600, 1_500, 9_000); // not sorted in place
        assertThatThrownBy(() -> Figures.of(new long[1], new long[2])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldDescribeBothShapesOnBothSides() {
        WakeCheck check = new WakeCheck(new Figures(1_600, 2_700), new Figures(6_400, 11_800), new Figures(1_450, 1_700),
                new Figures(7_450, 4_800));

        assertThat(check.measured()).isTrue();
        assertThat(check.describe()).isEqualTo("unpark as soon as the parker parks: this host 1.6 µs to the waker, "
                + "2.7 µs to the parker, simulated 1.5 µs to the waker, 1.7 µs to the parker; 20 µs later: this host "
                + "6.4 µs to the waker, 11.8 µs to the parker, simulated 7.5 µs to the waker, 4.8 µs to the parker "
                + "(medians of 1000 wake-ups, and of 3 seeds of 200)");
        assertThat(WakeCheck.unmeasured().measured()).isFalse();
        assertThat(WakeCheck.unmeasured().describe()).isEqualTo("not measured");
    }

    /**
     * On a profile with a 3 µs context switch, a 1 µs wake-up call, a 300 ns bare system call and a
     * 5 µs wake latency (Skylake's, without noise in these figures' medians beyond its jitter): an
     * unpark right after the park finds the parker on its way into the kernel (the waker pays the
     * atomic and the bare call; the parker is back one switch after its park), one 20 µs later finds
     * it asleep (the atomic and the wake-up call; the wake latency).
     */
    @Test
    void shouldWakeAtOnceCheaplyAndAsleepAtTheWakeCosts() {
        MachineProfile machine = MachinePresets.byName("skylake-i7-6700").toBuilder().wakeJitterPercent(0)
                .costJitterPercent(0).build();
        long atomic = Math.round(machine.atomicOpNs());
        long clock = Math.round(machine.clockReadNs());

        Figures atOnce = WakeCheck.simulated(machine, 0);
        Figures asleep = WakeCheck.simulated(machine, WakeCheck.ASLEEP_GAP_NS);

        assertThat(atOnce.unparkNs()).isBetween((double) atomic + machine.yieldIdleNs(),
                atomic + machine.yieldIdleNs() + clock + 2);
        assertThat(atOnce.latencyNs()).isLessThan(machine.contextSwitchNs());
        assertThat(asleep.unparkNs()).isBetween((double) atomic + machine.wakeCallNs(),
                atomic + machine.wakeCallNs() + clock + 2);
        assertThat(asleep.latencyNs()).isBetween(machine.wakeLatencyNs(), machine.wakeLatencyNs() + 2 * clock + 2);
    }
}
