package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.Spread;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Run-to-run noise ({@link Simulation.Builder#noise}): off, every cost is the machine's mean;
 * on, the seed draws wake latencies, PAUSE and clock-read costs and each processor's timer
 * phase, the same ones for the same seed.
 */
class NoiseTest {

    private static final long US = 1_000_000L;

    /** 1 GHz, a 100-cycle PAUSE, wake latency 5 µs ± 50 %, PAUSE and clock costs ± 10 %. */
    private static MachineProfile machine(int processors) {
        return MachineProfile.builder("noisy").frequencyGhz(1.0).pauseCycles(100).physicalCores(processors)
                .logicalProcessors(processors).clockReadNs(20).wakeLatencyNs(5_000).timeSliceNs(4_000_000)
                .wakeJitterPercent(50).costJitterPercent(10).build();
    }

    /**
     * A planted aliasing scenario: a setter unparks a waiter, then holds a flag up for 1 µs from
     * 5.5 µs after the unpark, every 10 µs. The machine wakes a thread exactly 5 µs after its
     * unpark, so without noise every wake-up lands before the flag goes up, and the waiter never
     * sees it.
     *
     * @return how many of {@code rounds} wake-ups saw the flag
     */
    private static int hits(boolean noise, long seed, int rounds) {
        Simulation sim = Simulation.builder(machine(4)).seed(seed).noise(noise).build();
        SimulatedPlatform platform = sim.platform();
        AtomicInteger hits = new AtomicInteger();
        boolean[] flag = {false};
        int[] woken = {0};
        Thread waiter = sim.startThread("waiter", () -> {
            for (int i = 0; i < rounds; i++) {
                int before = woken[0];
                while (woken[0] == before) {
                    platform.park(flag);
                    woken[0]++;
                }
                if (flag[0]) {
                    hits.incrementAndGet();
                }
            }
        });
        sim.startThread("setter", () -> {
            for (int i = 0; i < rounds; i++) {
                platform.unpark(waiter);
                platform.charge(5_500 * 1_000L);
                flag[0] = true;
                platform.charge(1_000 * 1_000L);
                flag[0] = false;
                platform.charge(3_500 * 1_000L);
            }
        });
        sim.run().requireCompleted();
        return hits.get();
    }

    @Test
    void shouldNeverSeeTheFlagWithoutNoiseAndAStableShareWithIt() {
        assertThat(hits(false, 1, 200)).isZero();
        assertThat(hits(false, 2, 200)).as("without noise the seed changes nothing here").isZero();

        List<Double> shares = new ArrayList<>();
        for (long seed = 1; seed <= 5; seed++) {
            shares.add(hits(true, seed, 200) / 200.0);
        }
        // A wake-up uniform in 2.5..7.5 µs after the unpark sees the flag (5.5..6.5 µs) one time in five.
        Spread spread = Spread.of(shares);
        assertThat(spread.median()).isBetween(0.12, 0.28);
        assertThat(spread.min()).isPositive();
        assertThat(hits(true, 3, 200)).as("same seed, same run").isEqualTo(hits(true, 3, 200));
    }

    private static SimulationResult pauses(boolean noise, long seed) {
        Simulation sim = Simulation.builder(machine(2)).seed(seed).noise(noise).build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("spinner", () -> {
            for (int i = 0; i < 1_000; i++) {
                platform.pause(10);
                platform.nanoTime();
            }
        });
        return sim.run();
    }

    @Test
    void shouldVaryPauseAndClockCostsAroundTheirMeansOnlyWithNoise() {
        // 1,000 × (10 PAUSEs of 100 ns + a 20 ns clock read) = 1,020 µs exactly without noise.
        SimulationResult quiet = pauses(false, 1);
        assertThat(quiet.endPicos()).isEqualTo(1_020 * US);
        assertThat(pauses(false, 2).digest()).isEqualTo(quiet.digest());

        SimulationResult noisy = pauses(true, 1);
        assertThat(noisy.endPicos()).isNotEqualTo(quiet.endPicos());
        // ± 10 % uniform on each of 2,000 costs: the total stays within 1 % of the mean.
        assertThat(noisy.endPicos()).isBetween(1_010 * US, 1_030 * US);
        assertThat(pauses(true, 1).digest()).isEqualTo(noisy.digest());
        assertThat(pauses(true, 2).digest()).isNotEqualTo(noisy.digest());
    }

    @Test
    void shouldGiveEachProcessorItsOwnTimerPhaseWithNoise() {
        // Three threads that only compute, on two processors: the first preemption comes at the
        // end of a full 4 ms slice (plus the 3 µs context switch) without noise, and earlier on a
        // processor whose timer phase makes its first slice shorter.
        long quiet = firstPreemption(false, 1);
        assertThat(quiet).isEqualTo(4_003 * US);
        List<Long> noisy = new ArrayList<>();
        for (long seed = 1; seed <= 4; seed++) {
            noisy.add(firstPreemption(true, seed));
        }
        assertThat(noisy).allSatisfy(t -> assertThat(t).isLessThan(quiet));
        assertThat(noisy.stream().distinct().count()).isGreaterThan(1);
        assertThat(firstPreemption(true, 3)).isEqualTo(firstPreemption(true, 3));
    }

    /** When the third thread first gets a processor: the first preemption. */
    private static long firstPreemption(boolean noise, long seed) {
        Simulation sim = Simulation.builder(machine(2)).seed(seed).noise(noise).build();
        SimulatedPlatform platform = sim.platform();
        AtomicLong start = new AtomicLong(-1);
        for (int t = 0; t < 2; t++) {
            sim.startThread("busy-" + t, () -> {
                for (int i = 0; i < 100; i++) {
                    platform.charge(100 * US);
                }
            });
        }
        sim.startThread("late", () -> start.set(platform.nowPicos()));
        sim.run().requireCompleted();
        return start.get();
    }
}
