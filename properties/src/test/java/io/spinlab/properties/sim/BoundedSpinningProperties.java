package io.spinlab.properties.sim;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.spin.SpinBeforeBlock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Bounded spinning on any CPU: the spin phase a waiter runs before it blocks (ManualResetEvent,
 * Task) should last about what its authors intended whatever the PAUSE costs and however many
 * processors there are. "Intended" is its duration on the machines the heuristics were tuned
 * on: a pre-Skylake PAUSE (~4.1 ns, so that nine make one 37 ns normalized yield) and 4
 * processors. The band is ½× to 2× of that.
 *
 * <p>Measured in the simulator on one thread, with the PAUSE already measured (as in a process
 * that has been running), so only PAUSE, yield and sleep costs count.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class BoundedSpinningProperties {

    static final double REFERENCE_PAUSE_NS = 37.0 / 9;
    static final int REFERENCE_PROCESSORS = 4;
    static final double BAND = 2.0;
    static final MachineProfile BASE = MachinePresets.byName("skylake-i7-6700");
    static final Tuning LEGACY_SPIN = Tuning.parse("current,spin=proc-scaled,pause=raw");

    /** Virtual nanoseconds the tuning's spin-before-block phase lasts on {@code machine}. */
    static long spinPhaseNanos(MachineProfile machine, Tuning tuning) {
        Simulation sim = Simulation.builder(machine).seed(0).build();
        SpinContext context = SpinContext.of(sim.platform(), tuning);
        long[] elapsed = new long[1];
        sim.startThread("spinner", () -> {
            Platform platform = context.platform();
            context.normalizer().refreshIfDue();
            SpinBeforeBlock policy = SpinBeforeBlock.of(tuning.spin());
            long start = platform.nanoTime();
            policy.spin(context, policy.defaultSpinCount(platform), null, ignored -> false);
            elapsed[0] = platform.nanoTime() - start;
        });
        sim.run().requireCompleted();
        return elapsed[0];
    }

    static long intendedNanos(MachineProfile machine, Tuning tuning) {
        int referenceCycles = (int) Math.round(REFERENCE_PAUSE_NS * machine.frequencyGhz());
        return spinPhaseNanos(SimGens.vary(machine, referenceCycles, REFERENCE_PROCESSORS), tuning);
    }

    /** Fails (AssertionError) when the spin phase leaves the band. */
    static void assertWithinBand(MachineProfile machine, Tuning tuning) {
        long actual = spinPhaseNanos(machine, tuning);
        long intended = intendedNanos(machine, tuning);
        double ratio = (double) actual / intended;
        assertThat(ratio).as(String.format(Locale.ROOT, "%s spins %.2f µs for an intended %.2f µs (%.2f×) on %s",
                tuning.describe(), actual / 1e3, intended / 1e3, ratio, machine.name()))
                .isBetween(1 / BAND, BAND);
    }

    /** PAUSE costs no longer than a normalized yield (37 ns) on the base machine, and 2..64 processors. */
    static Gen<MachineProfile> normalizableMachines() {
        return SimGens.machines(BASE, List.of(10, 1, 40, 80, 125), List.of(2, 4, 8, 16, 64));
    }

    @Test
    void currentSpinShouldStayInItsBandWhilePauseIsNoLongerThanANormalizedYield() {
        Property.forAll(normalizableMachines()).named("current spin phase bounded")
                .tries(DeterminismProperties.triesFromBuild())
                .run(machine -> assertWithinBand(machine, Tuning.current()));
    }

    @Test
    void legacySpinShouldLeaveItsBandAndTheEngineShouldShrinkTheCounterexample() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(normalizableMachines()).named("legacy spin phase bounded").seed(1).tries(50)
                        .run(machine -> assertWithinBand(machine, LEGACY_SPIN)));
        assertThat(failure).as("the processor-scaled raw-PAUSE spin must leave its band").isNotNull();
        System.out.println(failure.getMessage());
        MachineProfile minimal = (MachineProfile) failure.minimalExample();
        // Shrunk to the simplest machine: the first PAUSE cost and the fewest processors.
        assertThat(minimal.pauseCycles()).isEqualTo(10);
        assertThat(minimal.logicalProcessors()).isEqualTo(2);
    }

    @Test
    void shouldFindWhereTheCurrentHeuristicBreaksBeyondANormalizedYield() {
        List<Integer> longPauses = List.of(140, 300, 1000, 2000, 3000, 4000, 6000, 10000);
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(SimGens.machines(BASE, longPauses, List.of(4))).named("current spin, long PAUSE")
                        .seed(1).tries(40)
                        .run(machine -> assertWithinBand(machine, Tuning.current())));
        assertThat(failure).as("a long enough PAUSE must break the normalized spin").isNotNull();
        MachineProfile breaking = (MachineProfile) failure.minimalExample();
        System.out.printf(Locale.ROOT, "what-if: the current spin phase leaves its band from a %d-cycle PAUSE "
                + "(%.0f ns at %.1f GHz) on: %s%n", breaking.pauseCycles(), breaking.pauseNs(), breaking.frequencyGhz(),
                failure.getCause().getMessage());
        assertThat(breaking.pauseNs()).isGreaterThan(37.0);
    }
}
