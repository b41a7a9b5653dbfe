package io.spinlab.properties.sim;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.MonitorPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.sim.guest.MonitorHandoffScenario;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No Monitor loses a wake-up: in every generated {@link MonitorWorld} (a few threads entering one
 * lock a few times, some with timed entries, on generated machines and fault schedules, the memory
 * model on) every thread completes every critical section it did not time out of, one thread at a
 * time, and the run ends.
 *
 * <p>The planted counterparts are the real barging classes, each with the one branch changed that a
 * PIT mutant changes and no scripted test can reach (impl/MUTATION.md, race-only): a woken waiter that
 * lost the lock to a barger re-queues itself even when the lock was released between its failed
 * attempt and its look at the lock word ({@code BargingAwareLock.observeWakeSignalAndTryLock} and
 * {@code CoreRtLock.wokenWaiterTakesLock}, the {@code LOCKED} test always true). The releaser saw the
 * waiter already signalled and woke nobody, so the re-queued waiter waits for a release that, at the
 * end of the run, never comes. Only the memory model makes that window schedulable: it lies between
 * two reads of the lock word with no Platform call between them. The same branch in each class's
 * {@code abandonWait} (a timed waiter that was signalled, then timed out) is not caught here: 1,000
 * generated worlds with timed entries did not stage a release inside that window (it also needs the
 * signal and the time-out to meet, and the timed thread to leave right after).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class MonitorNoLostWakeupProperties {

    static final MachineProfile BASE = MachinePresets.byName("skylake-i7-6700");

    /** Worlds with timed and untimed entries. */
    static Gen<MonitorWorld> worlds(MonitorPolicy monitor) {
        return worlds(monitor, Gens.choose(0L, 20_000L, 200_000L, 2_000_000L));
    }

    /** Worlds whose timed threads' timeouts come from {@code timeout} (0: untimed). */
    static Gen<MonitorWorld> worlds(MonitorPolicy monitor, Gen<Long> timeout) {
        Gen<MachineProfile> machine = SimGens.machines(BASE, List.of(140, 10), List.of(2, 4, 1, 8));
        Gen<Integer> threads = Gens.integers(2, 4);
        Gen<Integer> acquisitions = Gens.integers(1, 4);
        Gen<Integer> pauses = Gens.choose(0, 10, 100, 1_000, 10_000);
        return source -> new MonitorWorld(monitor, machine.generate(source), threads.generate(source),
                acquisitions.generate(source), pauses.generate(source), pauses.generate(source),
                timeout.generate(source), SimGens.seeds().generate(source), SimGens.faults().generate(source));
    }

    static ScenarioRunner.Run<int[]> simulate(MonitorWorld world, Mutation mutant) {
        Simulation.Builder simulation = Simulation.builder(world.machine()).seed(world.seed()).faults(world.faults())
                .memoryModel(true);
        return ScenarioRunner.simulate(MonitorHandoffScenario.class, world, Tuning.current(), simulation, mutant);
    }

    static void assertEveryEntryCompleted(MonitorWorld world, Mutation mutant) {
        ScenarioRunner.Run<int[]> run = simulate(world, mutant);
        int[] observed = run.require();
        int threads = world.threads();
        String where = String.format("in %s%nreproduce: %s", world, run.simulation().reproduction());
        for (int i = 0; i < threads; i++) {
            int timedOut = observed[threads + i];
            assertThat(observed[i] + timedOut).as("thread %d: critical sections completed plus timed out %s", i, where)
                    .isEqualTo(world.acquisitions());
            if (i % 2 == 1 || world.timeoutNanos() == 0) {
                assertThat(timedOut).as("thread %d, untimed, timed out %s", i, where).isZero();
            }
        }
        assertThat(observed[2 * threads]).as("the most threads inside the lock at once %s", where).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(MonitorPolicy.class)
    void everyEntryShouldCompleteUnderEveryMonitor(MonitorPolicy monitor) {
        Property.forAll(worlds(monitor)).named("monitor " + monitor + ": no lost wake-up (simulated)")
                .tries(Math.min(100, DeterminismProperties.triesFromBuild()))
                .run(world -> assertEveryEntryCompleted(world, null));
    }

    /** The planted counterparts search worlds of untimed entries, where a lost wake-up is for good. */
    private static void assertCaught(MonitorPolicy monitor, Mutation mutant) {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(worlds(monitor, Gens.constant(0L))).named("planted: " + mutant).seed(1).tries(1_000)
                        .maxShrinkAttempts(100).run(world -> assertEveryEntryCompleted(world, mutant)));
        assertThat(failure).as("a wake-up dropped with the lock free must leave a thread waiting for good")
                .isNotNull();
        System.out.println(failure.getMessage());
        assertThat(failure.getCause()).hasMessageContaining("did not complete");
        PlantedCatch.<MonitorWorld>assertTheUnplantedCodePasses(failure, w -> assertEveryEntryCompleted(w, null));
    }

    @Test
    void shouldCatchABargingMonitorWhoseWokenWaiterRequeuesWithTheLockFree() {
        assertCaught(MonitorPolicy.BARGING, Mutation.branchNeverTaken(
                Mutation.inPackage(MonitorLock.class, "BargingAwareLock"), "observeWakeSignalAndTryLock", "IFEQ", 1));
    }

    @Test
    void shouldCatchACoreRtLockWhoseWokenWaiterRequeuesWithTheLockFree() {
        assertCaught(MonitorPolicy.CORERT_LOCK, Mutation.branchNeverTaken(
                Mutation.inPackage(MonitorLock.class, "CoreRtLock"), "wokenWaiterTakesLock", "IFEQ", 1));
    }
}
