package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.ThreadMetrics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each injected fault does what it says, within its bounds, and only when switched on. */
class FaultsTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final long US = 1_000_000L;
    private static final long WAKE = 5 * US;

    @Test
    void shouldWakeParkSpuriouslyWithinMaxDelayWhenSpuriousWakeupsAreCertain() {
        for (long seed = 0; seed < 20; seed++) {
            Simulation sim = Simulation.builder(SKYLAKE).seed(seed)
                    .faults(Faults.none().withSpuriousWakeups(1.0, 10_000)).build();
            SimulatedPlatform platform = sim.platform();
            long[] elapsed = new long[1];
            sim.startThread("parker", () -> {
                long t0 = platform.nowPicos();
                platform.park(this); // nobody unparks: only a spurious wake-up returns
                elapsed[0] = platform.nowPicos() - t0;
            });

            SimulationResult result = sim.run().requireCompleted();

            assertThat(elapsed[0]).isBetween(WAKE, WAKE + 10 * US);
            assertThat(result.metrics().thread("parker").spuriousWakeUps()).isEqualTo(1);
        }
    }

    @Test
    void shouldDelayWakeUpsWithinBoundWhenDelayedWakeupsAreCertain() {
        List<Long> latencies = new ArrayList<>();
        for (long seed = 0; seed < 20; seed++) {
            Simulation sim = Simulation.builder(SKYLAKE).seed(seed)
                    .faults(Faults.none().withDelayedWakeups(1.0, 20_000)).build();
            SimulatedPlatform platform = sim.platform();
            long[] wokeAt = new long[1];
            long[] unparkedAt = new long[1];
            Thread parker = sim.startThread("parker", () -> {
                platform.park(this);
                wokeAt[0] = platform.nowPicos();
            });
            sim.startThread("unparker", () -> {
                platform.pause(100);
                unparkedAt[0] = platform.nowPicos();
                platform.unpark(parker);
            });

            sim.run().requireCompleted();

            latencies.add(wokeAt[0] - unparkedAt[0]);
        }
        assertThat(latencies).allSatisfy(l -> assertThat(l).isBetween(WAKE, WAKE + 20 * US));
        assertThat(latencies.stream().distinct().count()).as("delays are drawn, not fixed").isGreaterThan(10);
    }

    @Test
    void shouldHoldThreadOffForChosenTimeWhenPreemptionIsCertain() {
        Simulation sim = Simulation.builder(SKYLAKE).seed(1).faults(Faults.none().withPreemption(1.0, 7_000)).build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("victim", () -> {
            for (int i = 0; i < 10; i++) {
                platform.pause(1);
            }
        });

        SimulationResult result = sim.run().requireCompleted();

        ThreadMetrics victim = result.metrics().thread("victim");
        // The thread runs 11 times (its start and after each of 10 PAUSEs); each run is preceded
        // by one injected preemption, since a held-off thread runs one operation before the next.
        assertThat(victim.preemptions()).isEqualTo(11);
        assertThat(victim.picos(Activity.RUNNABLE)).isEqualTo(11 * 7 * US);
        assertThat(victim.endPicos()).isEqualTo(11 * 7 * US + SKYLAKE.pausePicos(10));
    }

    @Test
    void shouldKeepClockMonotonicAndWithinJitterWhenClockJitters() {
        Simulation sim = Simulation.builder(SKYLAKE).seed(4).faults(Faults.none().withClockJitter(500)).build();
        SimulatedPlatform platform = sim.platform();
        List<long[]> reads = new ArrayList<>();
        sim.startThread("reader", () -> {
            for (int i = 0; i < 200; i++) {
                long before = platform.nowPicos();
                reads.add(new long[] {before, platform.nanoTime()});
            }
        });

        sim.run().requireCompleted();

        long previous = Long.MIN_VALUE;
        long jittered = 0;
        for (long[] read : reads) {
            long exact = read[0] / 1_000;
            assertThat(read[1]).isBetween(exact, exact + 500).isGreaterThanOrEqualTo(previous);
            jittered += read[1] > exact ? 1 : 0;
            previous = read[1];
        }
        assertThat(jittered).isGreaterThan(100);
    }

    @Test
    void shouldDrawNothingWhenFaultsAreOff() {
        assertThat(Faults.none().any()).isFalse();
        assertThat(Faults.none().describe()).isEqualTo("none");
        assertThat(Faults.chaos().describe())
                .isEqualTo("spurious=0.3/20000ns,preempt=0.02/50000ns,delayed-wake=0.2/30000ns,jitter=100ns");
    }

    @Test
    void shouldRejectRatesOutsideZeroToOne() {
        assertThatThrownBy(() -> Faults.none().withSpuriousWakeups(1.5, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spuriousWakeupRate = 1.5 is out of range; allowed 0..1");
        assertThatThrownBy(() -> Faults.none().withPreemption(0.1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("preemptionNanos = -1 is negative");
    }
}
