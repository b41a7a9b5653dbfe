package io.spinlab.sim.engine;

import io.spinlab.impl.spin.PauseNormalizer;
import io.spinlab.impl.spin.SampledPauseNormalizer;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The production PAUSE normalization, run unmodified in the simulator, measures the virtual
 * PAUSE of the machine profile: one PAUSE per normalized yield on Skylake-class parts, many
 * on pre-Skylake parts (about 37 ns divided by the PAUSE's duration).
 */
class PauseNormalizationInSimulatorTest {

    private static PauseNormalizer measure(MachineProfile machine) {
        Simulation sim = Simulation.builder(machine).seed(7).build();
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(sim.platform());
        AtomicReference<PauseNormalizer> out = new AtomicReference<>();
        sim.startThread("measure", () -> {
            normalizer.refreshIfDue();
            out.set(normalizer);
        });
        sim.run().requireCompleted();
        return out.get();
    }

    @Test
    void shouldSettleOnOnePausePerNormalizedYieldWhenPauseTakes140Cycles() {
        MachineProfile skylake = MachinePresets.byName("skylake-i7-6700");

        PauseNormalizer normalizer = measure(skylake);

        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo(1);
        // The established cost is the PAUSE plus a clock read spread over a 1 µs sample.
        assertThat(normalizer.nsPerPause()).isCloseTo(skylake.pauseNs(), within(2.0));
        // 272 ns per spin iteration: 272 / 41.2 = 6.6, and the clock-read overhead in the samples lowers it to 6.
        assertThat(normalizer.optimalMaxNormalizedYieldsPerSpinIteration()).isBetween(6, 7);
    }

    @Test
    void shouldSettleOnAboutNinePausesPerNormalizedYieldWhenPauseTakes10CyclesAt2400Mhz() {
        MachineProfile xeon = MachinePresets.byName("xeon-2s-32t");

        PauseNormalizer normalizer = measure(xeon);

        // 10 cycles at 2.4 GHz = 4.17 ns; 37 / 4.17 = 8.9.
        assertThat(normalizer.yieldsPerNormalizedYield()).isEqualTo(9);
        assertThat(normalizer.nsPerPause()).isCloseTo(xeon.pauseNs(), within(0.2));
    }

    @Test
    void shouldSettleOnManyPausesPerNormalizedYieldWhenPauseTakes10CyclesAt3200Mhz() {
        MachineProfile sandyBridge = MachinePresets.byName("sandybridge-e5-1650");

        PauseNormalizer normalizer = measure(sandyBridge);

        // 10 cycles at 3.2 GHz = 3.125 ns; 37 / 3.125 = 11.8; clock reads inside the samples lift it a little.
        assertThat(normalizer.yieldsPerNormalizedYield()).isBetween(11, 12);
        assertThat(normalizer.nsPerPause()).isCloseTo(sandyBridge.pauseNs(), within(0.2));
    }

    @Test
    void shouldScalePausesWithMeasurementWhenPauseCyclesVary() {
        MachineProfile base = MachinePresets.byName("skylake-i7-6700");
        int previous = Integer.MAX_VALUE;
        for (int cycles : new int[] {5, 10, 20, 40, 140}) {
            int yields = measure(base.withPauseCycles(cycles)).yieldsPerNormalizedYield();
            assertThat(yields).as("%d cycles", cycles).isLessThanOrEqualTo(previous);
            previous = yields;
        }
        assertThat(previous).isEqualTo(1);
    }
}
