package io.spinlab.properties.sim;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.sim.guest.EventWaitScenario;
import io.spinlab.sim.engine.Budgets;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A ManualResetEvent's wait reports a time-out only when its time is up: in every generated
 * {@link EventWorld} (waiters with timed or untimed waits on an event that a setter sets and
 * resets a bounded number of times, then leaves set, under the current and the legacy tuning, with
 * and without spinning, on generated machines and fault schedules, the memory model on) every wait
 * ends, an untimed wait always sees the
 * event set, and a timed wait that returns false has lasted at least its time-out by the waiter's
 * own clock.
 *
 * <p>The planted counterpart is the real class with PIT's race-only survivor at
 * {@code awaitNanos} L164 (impl/MUTATION.md): a waiter that finds the event set on its re-check, after
 * counting itself as a waiter, reports false. The event must be set between the waiter's loop check
 * and that re-check, with no Platform call between them; the setter then saw no waiter and pulsed
 * nobody.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class EventNoEarlyTimeoutProperties {

    static final MachineProfile BASE = MachinePresets.byName("skylake-i7-6700");

    /**
     * A world's virtual-time bound: 10 s. A world takes milliseconds, or a few time slices where a
     * boosted thread keeps one processor from the others until its boost ends; a mutant's world that
     * waits for good is reported after 10 s of virtual time rather than the default 60 s.
     */
    static final long VIRTUAL_BUDGET_NANOS = 10_000_000_000L;

    /** The bound in the planted search: 1 s (it fails at the same world with either bound). */
    static final long PLANTED_VIRTUAL_BUDGET_NANOS = 1_000_000_000L;

    static Gen<EventWorld> worlds(Gen<Long> timeout) {
        Gen<Tuning> tuning = Gens.choose(Tuning.current(), Tuning.legacy());
        Gen<MachineProfile> machine = SimGens.machines(BASE, List.of(140, 10), List.of(2, 4, 1, 8));
        Gen<Integer> waiters = Gens.integers(1, 3);
        Gen<Integer> rounds = Gens.integers(1, 4);
        Gen<Integer> gap = Gens.choose(0, 10, 100);
        Gen<Integer> setDelay = Gens.choose(1, 10, 100, 1_000);
        Gen<Integer> spinCount = Gens.choose(0, 1, 35);
        return source -> new EventWorld(tuning.generate(source), machine.generate(source), waiters.generate(source),
                rounds.generate(source), timeout.generate(source), gap.generate(source), setDelay.generate(source),
                spinCount.generate(source), SimGens.seeds().generate(source), SimGens.faults().generate(source));
    }

    static Gen<EventWorld> worlds() {
        return worlds(Gens.choose(0L, 1_000L, 10_000L, 100_000L));
    }

    static void assertNoEarlyTimeout(EventWorld world, Mutation mutant) {
        long budget = mutant == null ? VIRTUAL_BUDGET_NANOS : PLANTED_VIRTUAL_BUDGET_NANOS;
        Simulation.Builder simulation = Simulation.builder(world.machine()).seed(world.seed()).faults(world.faults())
                .memoryModel(true).budgets(Budgets.defaults().withMaxVirtualNanos(budget));
        ScenarioRunner.Run<int[]> run = ScenarioRunner.simulate(EventWaitScenario.class, world, world.tuning(),
                simulation, mutant);
        int[] observed = run.require();
        String where = String.format("in %s%nreproduce: %s", world, run.simulation().reproduction());
        assertThat(observed[EventWaitScenario.WAITERS_DONE]).as("waiters done %s", where).isEqualTo(world.waiters());
        assertThat(observed[EventWaitScenario.COMPLETED] + observed[EventWaitScenario.TIMED_OUT])
                .as("waits ended %s", where).isEqualTo(world.waiters() * world.rounds());
        assertThat(observed[EventWaitScenario.EARLY_TIME_OUTS]).as("time-outs reported early %s", where).isZero();
        if (world.timeoutNanos() == 0) {
            assertThat(observed[EventWaitScenario.TIMED_OUT]).as("untimed waits that timed out %s", where).isZero();
        }
    }

    @Test
    void aWaitShouldReportATimeOutOnlyWhenItsTimeIsUp() {
        Property.forAll(worlds()).named("manual-reset event: no early time-out (simulated)")
                .tries(Math.min(100, DeterminismProperties.triesFromBuild()))
                .run(world -> assertNoEarlyTimeout(world, null));
    }

    @Test
    void shouldCatchAWaiterThatReportsATimeOutWhenItsReCheckFindsTheEventSet() {
        Mutation mutant = Mutation.returnsFalse(ManualResetEvent.class, "awaitNanos", 4);
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(worlds(Gens.choose(10_000L, 100_000L))).named("planted: " + mutant).seed(1)
                        .tries(1_000).maxShrinkAttempts(5).run(world -> assertNoEarlyTimeout(world, mutant)));
        assertThat(failure).as("the planted %s must report an early time-out in some world", mutant).isNotNull();
        System.out.println(failure.getMessage());
        PlantedCatch.<EventWorld>assertTheUnplantedCodePasses(failure, w -> assertNoEarlyTimeout(w, null));
    }
}
