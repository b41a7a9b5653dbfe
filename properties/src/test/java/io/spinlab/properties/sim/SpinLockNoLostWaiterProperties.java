package io.spinlab.properties.sim;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.SpinLockPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.sim.guest.SpinLockEntryScenario;
import io.spinlab.properties.sim.guest.SpinLockExitRaceScenario;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * An anonymous-mode SpinLock keeps its word straight: in every generated {@link SpinLockWorld} (a
 * few threads entering one lock a few times, some with timed entries, with fenced or release-store
 * exits, on generated machines and fault schedules, the memory model on) every thread completes
 * every critical section it did not time out of, one thread at a time, the run ends, and once every
 * thread is done the lock is free, still anonymous, and counts no waiter that is not explained: none
 * after fenced exits, at most one per timed-out wait after release-store exits (an {@code exit(false)}
 * that read the word before a waiter left rewrites that waiter into the count, as .NET's does).
 *
 * <p>The planted counterparts are the real class, each with one change a PIT mutant makes and no
 * scripted test can reach (impl/MUTATION.md, race-only: another thread must change the word between
 * two reads with no Platform call between them, which only the memory model schedules).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class SpinLockNoLostWaiterProperties {

    static final MachineProfile BASE = MachinePresets.byName("skylake-i7-6700");

    static Gen<SpinLockWorld> worlds(SpinLockPolicy spinLock) {
        Gen<MachineProfile> machine = SimGens.machines(BASE, List.of(140, 10), List.of(2, 4, 1, 8));
        Gen<Integer> threads = Gens.integers(2, 4);
        Gen<Integer> acquisitions = Gens.integers(1, 4);
        Gen<Integer> pauses = Gens.choose(0, 10, 100, 1_000);
        Gen<Long> timeout = Gens.choose(0L, 20_000L, 200_000L, 2_000_000L);
        Gen<Boolean> releaseStoreExits = Gens.choose(false, true);
        return source -> new SpinLockWorld(spinLock, machine.generate(source), threads.generate(source),
                acquisitions.generate(source), pauses.generate(source), pauses.generate(source),
                timeout.generate(source), releaseStoreExits.generate(source), SimGens.seeds().generate(source),
                SimGens.faults().generate(source));
    }

    static ScenarioRunner.Run<int[]> simulate(SpinLockWorld world, Mutation mutant) {
        Simulation.Builder simulation = Simulation.builder(world.machine()).seed(world.seed()).faults(world.faults())
                .memoryModel(true);
        return ScenarioRunner.simulate(SpinLockEntryScenario.class, world, Tuning.current(), simulation, mutant);
    }

    static void assertTheWordStaysStraight(SpinLockWorld world, Mutation mutant) {
        ScenarioRunner.Run<int[]> run = simulate(world, mutant);
        int[] observed = run.require();
        int threads = world.threads();
        String where = String.format("in %s%nreproduce: %s", world, run.simulation().reproduction());
        int timeouts = 0;
        for (int i = 0; i < threads; i++) {
            int timedOut = observed[threads + i];
            timeouts += timedOut;
            assertThat(observed[i] + timedOut).as("thread %d: critical sections completed plus timed out %s", i, where)
                    .isEqualTo(world.acquisitions());
            if (i % 2 == 1 || world.timeoutNanos() == 0) {
                assertThat(timedOut).as("thread %d, untimed, timed out %s", i, where).isZero();
            }
        }
        int state = 2 * threads;
        assertThat(observed[state + SpinLockEntryScenario.MOST_INSIDE]).as("the most threads inside at once %s", where)
                .isEqualTo(1);
        assertThat(observed[state + SpinLockEntryScenario.THREADS_DONE]).as("threads done %s", where)
                .isEqualTo(threads);
        assertThat(observed[state + SpinLockEntryScenario.HELD_AT_END]).as("held after the last exit %s", where)
                .isZero();
        assertThat(observed[state + SpinLockEntryScenario.ANONYMOUS_AT_END]).as("still anonymous at the end %s", where)
                .isEqualTo(1);
        int waiters = observed[state + SpinLockEntryScenario.WAITERS_AT_END];
        if (world.releaseStoreExits()) {
            assertThat(waiters).as("waiters counted at the end, %d timed out %s", timeouts, where)
                    .isBetween(0, timeouts);
        } else {
            assertThat(waiters).as("waiters counted at the end, fenced exits %s", where).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(SpinLockPolicy.class)
    void theLockWordShouldStayStraightUnderEverySlowPath(SpinLockPolicy spinLock) {
        Property.forAll(worlds(spinLock)).named("spinlock " + spinLock + ": no lost or phantom waiter (simulated)")
                .tries(Math.min(100, DeterminismProperties.triesFromBuild()))
                .run(world -> assertTheWordStaysStraight(world, null));
    }

    /**
     * PIT's race-only survivors in SpinLock's waiter path (impl/MUTATION.md), each applied to the real
     * class. Four matter only when a registered waiter finds the waiter count at zero, which takes a
     * registration lost to a concurrent {@code exit(false)}: the waiter's acquisition then takes one
     * from a zero count (clearing the anonymous-mode bit, so the next exit throws as if in tracking
     * mode) or masks the mode bit away, and a departing waiter decrements a zero count. One reports
     * a lost acquisition CAS as won, which takes a second thread changing the word between the
     * waiter's read and its CAS: two threads inside, and an exit of a free lock. (PIT's other
     * survivor at L240, the CAS's success taken for a failure, is not a race: a scripted test in
     * impl kills it.)
     */
    static List<Mutation> raceOnlySurvivors() {
        return List.of(
                // L231: (o & WAITERS_MASK) == 0 ? o | HELD : (o - WAITER_ONE) | HELD
                Mutation.opcodeReplaced(SpinLock.class, "tryAcquireAsWaiter", "IAND", "IOR", 1),
                Mutation.branchAlwaysTaken(SpinLock.class, "tryAcquireAsWaiter", "IFNE", 0),
                Mutation.opcodeReplaced(SpinLock.class, "tryAcquireAsWaiter", "IOR", "IAND", 0),
                // L233: return OWNER.compareAndSet(this, o, next)
                Mutation.returnsTrue(SpinLock.class, "tryAcquireAsWaiter", 1),
                // L240: if ((o & WAITERS_MASK) == 0 || OWNER.compareAndSet(this, o, o - WAITER_ONE))
                Mutation.opcodeReplaced(SpinLock.class, "decrementWaiters", "IAND", "IOR", 0));
    }

    @ParameterizedTest
    @MethodSource("raceOnlySurvivors")
    void shouldCatchEachRaceOnlySurvivorOfPit(Mutation mutant) {
        PropertyFailure failure = null;
        for (SpinLockPolicy spinLock : SpinLockPolicy.values()) {
            failure = catchThrowableOfType(PropertyFailure.class, () ->
                    Property.forAll(worlds(spinLock)).named("planted: " + mutant).seed(1).tries(1_000)
                            .maxShrinkAttempts(100).run(world -> assertTheWordStaysStraight(world, mutant)));
            if (failure != null) {
                System.out.println(failure.getMessage());
                break;
            }
        }
        assertThat(failure).as("the planted %s must break the lock in some world under some slow path", mutant)
                .isNotNull();
        PlantedCatch.<SpinLockWorld>assertTheUnplantedCodePasses(failure, w -> assertTheWordStaysStraight(w, null));
    }

    static Gen<SpinLockExitRaceWorld> exitRaces() {
        Gen<MachineProfile> machine = SimGens.machines(BASE, List.of(140, 10), List.of(2, 4, 1, 8));
        Gen<Integer> delay = Gens.choose(0, 1, 10, 100);
        Gen<Boolean> waiter = Gens.choose(false, true);
        return source -> new SpinLockExitRaceWorld(machine.generate(source), delay.generate(source),
                delay.generate(source), waiter.generate(source), SimGens.seeds().generate(source),
                SimGens.faults().generate(source));
    }

    static void assertExactlyOneExitRefused(SpinLockExitRaceWorld world, Mutation mutant) {
        Simulation.Builder simulation = Simulation.builder(world.machine()).seed(world.seed()).faults(world.faults())
                .memoryModel(true);
        ScenarioRunner.Run<int[]> run = ScenarioRunner.simulate(SpinLockExitRaceScenario.class, world,
                Tuning.current(), simulation, mutant);
        int[] observed = run.require();
        String where = String.format("in %s%nreproduce: %s", world, run.simulation().reproduction());
        assertThat(observed[SpinLockExitRaceScenario.EXITS_REFUSED]).as("exits refused %s", where).isEqualTo(1);
        assertThat(observed[SpinLockExitRaceScenario.WAITER_ENTRIES]).as("the waiter's entries %s", where)
                .isEqualTo(world.waiter() ? 1 : 0);
        assertThat(observed[SpinLockExitRaceScenario.THREADS_DONE]).as("threads done %s", where)
                .isEqualTo(world.waiter() ? 3 : 2);
        assertThat(observed[SpinLockExitRaceScenario.HELD_AT_END]).as("held at the end %s", where).isZero();
        assertThat(observed[SpinLockExitRaceScenario.ANONYMOUS_AT_END]).as("anonymous at the end %s", where)
                .isEqualTo(1);
        assertThat(observed[SpinLockExitRaceScenario.WAITERS_AT_END]).as("waiters at the end %s", where).isZero();
    }

    /**
     * Of two fenced exits racing for one hold exactly one succeeds: the loser's CAS fails, it reads
     * the word again, finds the lock free and is refused (the retry exists because a waiter's
     * registration also fails an exit's CAS; it must not release a lock that is no longer held).
     */
    @Test
    void exactlyOneOfTwoRacingExitsShouldBeRefused() {
        Property.forAll(exitRaces()).named("spinlock: one of two racing exits refused (simulated)")
                .tries(Math.min(100, DeterminismProperties.triesFromBuild()))
                .run(world -> assertExactlyOneExitRefused(world, null));
    }

    /** PIT's two survivors at L318, the exit's retry: {@code if ((o & HELD) == 0) throw}, never thrown. */
    static List<Mutation> exitRetrySurvivors() {
        return List.of(
                Mutation.opcodeReplaced(SpinLock.class, "exit(Z)V", "IAND", "IOR", 4),
                Mutation.branchAlwaysTaken(SpinLock.class, "exit(Z)V", "IFNE", 3));
    }

    @ParameterizedTest
    @MethodSource("exitRetrySurvivors")
    void shouldCatchEachSurvivorOfTheExitRetry(Mutation mutant) {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(exitRaces()).named("planted: " + mutant).seed(1).tries(1_000).maxShrinkAttempts(100)
                        .run(world -> assertExactlyOneExitRefused(world, mutant)));
        assertThat(failure).as("the planted %s must let both racing exits through in some world", mutant).isNotNull();
        System.out.println(failure.getMessage());
        PlantedCatch.<SpinLockExitRaceWorld>assertTheUnplantedCodePasses(failure, w -> assertExactlyOneExitRefused(w, null));
    }
}
