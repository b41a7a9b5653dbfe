package io.spinlab.sim.os;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Linux CFS's wake-up preemption figures and rules, exact (see {@link WakeupPreemption}). */
class WakeupPreemptionTest {

    private static final long MS = 1_000_000_000L;

    @Test
    void shouldScaleLatencyAndGranularityByOnePlusLog2OfUpToEightProcessors() {
        assertThat(WakeupPreemption.factor(1)).isEqualTo(1);
        assertThat(WakeupPreemption.factor(2)).isEqualTo(2);
        assertThat(WakeupPreemption.factor(4)).isEqualTo(3);
        assertThat(WakeupPreemption.factor(7)).isEqualTo(3);
        assertThat(WakeupPreemption.factor(8)).isEqualTo(4);
        assertThat(WakeupPreemption.factor(256)).isEqualTo(4);
        WakeupPreemption eight = new WakeupPreemption(8);
        assertThat(eight.latencyPicos()).isEqualTo(24 * MS);
        assertThat(eight.granularityPicos()).isEqualTo(4 * MS);
        assertThat(new WakeupPreemption(1).granularityPicos()).isEqualTo(MS);
        assertThatThrownBy(() -> new WakeupPreemption(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("processors = 0; allowed 1 or more");
    }

    @Test
    void shouldGiveALongSleeperAtMostHalfTheLatencyOfCredit() {
        WakeupPreemption one = new WakeupPreemption(1); // latency 6 ms, granularity 1 ms
        one.observe(0, 10 * MS);
        one.observe(0, 7 * MS); // the minimum never moves back
        assertThat(one.minVruntime(0)).isEqualTo(10 * MS);
        assertThat(one.placeWoken(0, 2 * MS)).as("slept long: 3 ms behind the minimum").isEqualTo(7 * MS);
        assertThat(one.placeWoken(0, 9 * MS)).as("slept briefly: keeps its own").isEqualTo(9 * MS);
        assertThat(one.preempts(10 * MS, 7 * MS)).isTrue();
        assertThat(one.preempts(10 * MS, 9 * MS)).as("exactly the granularity behind").isFalse();
    }

    @Test
    void shouldRebaseAVirtualRuntimeOnTheProcessorItMovesTo() {
        WakeupPreemption two = new WakeupPreemption(2);
        two.observe(0, 5 * MS);
        two.observe(1, 20 * MS);
        assertThat(two.migrate(6 * MS, 0, 1)).isEqualTo(21 * MS);
        assertThat(two.migrate(6 * MS, 0, 0)).isEqualTo(6 * MS);
    }
}
