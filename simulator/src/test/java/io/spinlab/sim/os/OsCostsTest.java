package io.spinlab.sim.os;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OsCostsTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");

    @Test
    void shouldChargeExactPauseCostsFromProfile() {
        OsCosts costs = OsCosts.of(SKYLAKE);

        assertThat(costs.pausePicos(1)).isEqualTo(41_176);
        assertThat(costs.pausePicos(14)).isEqualTo(SKYLAKE.pausePicos(14));
        assertThat(costs.clockReadPicos()).isEqualTo(20_000);
        assertThat(costs.wakeLatencyPicos()).isEqualTo(5_000_000);
        assertThat(costs.timeSlicePicos()).isEqualTo(4_000_000_000L);
    }

    @Test
    void shouldChargeOneCycleWhenPauseIsFree() {
        OsCosts costs = OsCosts.of(SKYLAKE.withPauseCycles(0));

        assertThat(costs.pausePicos(1_000)).isEqualTo(costs.callFloorPicos()).isEqualTo(294);
    }

    @Test
    void shouldRoundSleepsUpToWholeTicks() {
        OsCosts costs = OsCosts.of(SKYLAKE);

        assertThat(costs.sleepPicos(1)).isEqualTo(1_060_000_000L);
        assertThat(costs.sleepPicos(1_060_000)).isEqualTo(1_060_000_000L);
        assertThat(costs.sleepPicos(1_060_001)).isEqualTo(2_120_000_000L);
        assertThat(costs.sleepPicos(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }
}
