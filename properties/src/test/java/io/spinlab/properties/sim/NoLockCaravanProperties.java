package io.spinlab.properties.sim;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.sim.guest.LockCaravanScenario;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.trace.BlockerMetrics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No lock caravan in the event buffer manager (dotnet/runtime #50797), in the simulator with the
 * memory model, for generated numbers of writers that only come to fail and generated machines
 * (see {@link CaravanWorld}):
 * <ul>
 *   <li>with {@code reservation=lockless} a writer whose reservation fails never takes the
 *       manager's lock: while only failing writers run the lock is not acquired at all, and no
 *       thread ever waits on it; with {@code under-lock} every failure is an acquisition;</li>
 *   <li>the threads waiting on the manager's lock do not grow with the number of failing writers
 *       with {@code lockless}, while with {@code under-lock} they do: the same property fails
 *       there, and the engine shrinks it to two failing writers on the smallest machine.</li>
 * </ul>
 * With {@code lockless} the second is implied by the first, in its strongest form: nobody waits
 * on the lock at all, whatever the number of failing writers, so it is checked there (zero
 * waits in every generated world) and not as a separate comparison of two zeros.
 * The waiting is the simulator's fact: the spin-waiters it counts on the lock
 * ({@code BlockerMetrics} of {@code ManagerLock#0}), their most at once and their mean.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class NoLockCaravanProperties {

    static final String MANAGER_LOCK = "ManagerLock#0";

    /** Failing writers 1..8, 50..150 attempts each, on 2..8 processors with three PAUSE costs. */
    static Gen<CaravanWorld> worlds(ReservationPolicy policy) {
        Gen<MachineProfile> machine = SimGens.machines(NoEventLostProperties.BASE, List.of(10, 140, 1),
                List.of(2, 1, 4, 8));
        return source -> new CaravanWorld(policy, machine.generate(source), Gens.integers(1, 8).generate(source),
                Gens.integers(50, 150).generate(source), Gens.longs(0, 1_000).generate(source));
    }

    /** A run's facts: the scenario's observation and the simulator's waiting on the manager lock. */
    record Facts(CaravanWorld world, CaravanObservation seen, BlockerMetrics lock, String reproduction) {

        int attempts() {
            return world.failingWriters() * world.attemptsPerWriter();
        }

        /** Mean threads spin-waiting on the lock while the failing writers ran. */
        double meanWaiters() {
            return seen.phaseNanos() == 0 ? 0 : lock.totalSpinWaitPicos() / (seen.phaseNanos() * 1_000.0);
        }

        String describeWaiting() {
            return String.format(Locale.ROOT, "%d failing writer(s): %d lock acquisitions, at most %d and on average "
                    + "%.2f threads waiting on the manager lock in %,d ns", world.failingWriters(), seen.phaseLockAcquisitions(),
                    lock.maxSpinWaiters(), meanWaiters(), seen.phaseNanos());
        }
    }

    static Facts run(CaravanWorld world) {
        Simulation.Builder simulation = Simulation.builder(world.machine()).seed(world.seed()).memoryModel(true);
        ScenarioRunner.Run<CaravanObservation> run = ScenarioRunner.simulate(LockCaravanScenario.class, world,
                Tuning.current(), simulation, "scenario=" + LockCaravanScenario.class.getSimpleName() + "(" + world
                        + ")");
        CaravanObservation seen = run.require();
        Facts facts = new Facts(world, seen, managerLock(run.simulation()), run.simulation().reproduction());
        assertThat(scenarioProblems(facts)).as("the scenario itself in %s", world).isEmpty();
        return facts;
    }

    /** The simulator's waiting figures for the manager lock; zeros if nobody ever waited on it. */
    static BlockerMetrics managerLock(SimulationResult result) {
        return result.metrics().blockers().stream().filter(b -> b.name().equals(MANAGER_LOCK)).findFirst()
                .orElse(new BlockerMetrics(MANAGER_LOCK, 0, 0, 0));
    }

    /** What must hold whatever the policy: every attempt dropped, the drain sees the filler's events and every drop. */
    static List<String> scenarioProblems(Facts facts) {
        List<String> problems = new ArrayList<>();
        CaravanObservation seen = facts.seen();
        for (int w = 0; w < seen.outcomes().length; w++) {
            for (int outcome : seen.outcomes()[w]) {
                if (outcome != BufferObservation.DROPPED) {
                    problems.add("failing writer " + w + " got " + BufferObservation.outcomeName(outcome)
                            + " instead of DROPPED");
                    break;
                }
            }
        }
        if (seen.eventsRead() != seen.fillerWritten()) {
            problems.add("the drain read " + seen.eventsRead() + " events; the filler wrote " + seen.fillerWritten());
        }
        // The filler's last attempt, which found the limit, is a drop too.
        if (seen.dropsSeen() != facts.attempts() + 1L) {
            problems.add("the drain saw " + seen.dropsSeen() + " drops; " + (facts.attempts() + 1) + " were made");
        }
        return problems;
    }

    static void assertFailingWritersNeverTakeTheLock(CaravanWorld world) {
        Facts facts = run(world);
        assertThat(facts.seen().phaseLockAcquisitions()).as("lock acquisitions while only failing writers ran in %s; "
                + "reproduce: %s", world, facts.reproduction()).isZero();
        assertThat(facts.lock().spinWaits()).as("waits on the manager lock in %s", world).isZero();
        assertThat(facts.lock().maxSpinWaiters()).as("most waiters on the manager lock in %s", world).isZero();
    }

    static void assertEveryFailureTakesTheLock(CaravanWorld world) {
        Facts facts = run(world);
        assertThat(facts.seen().phaseLockAcquisitions()).as("lock acquisitions in %s", world)
                .isEqualTo(facts.seen().phaseDropPathAcquisitions()).isEqualTo(facts.attempts());
    }

    /** Waiting on the manager lock with the world's failing writers is no more than with one. */
    static void assertWaitingDoesNotGrowWithFailingWriters(CaravanWorld world) {
        Facts many = run(world);
        Facts one = run(world.withFailingWriters(1));
        String comparison = many.describeWaiting() + "; " + one.describeWaiting() + "; in " + world;
        assertThat(many.lock().maxSpinWaiters()).as("most waiters: " + comparison)
                .isLessThanOrEqualTo(one.lock().maxSpinWaiters());
        assertThat(many.meanWaiters()).as("mean waiters: " + comparison).isLessThanOrEqualTo(one.meanWaiters());
    }

    @Test
    void failingWritersShouldNeverTakeTheLockWhenLockless() {
        Property.forAll(worlds(ReservationPolicy.LOCKLESS)).named("lockless: failing writers never take the lock")
                .tries(DeterminismProperties.triesFromBuild())
                .run(NoLockCaravanProperties::assertFailingWritersNeverTakeTheLock);
    }

    @Test
    void everyFailingWriterShouldTakeTheLockWhenUnderLock() {
        Property.forAll(worlds(ReservationPolicy.UNDER_LOCK)).named("under-lock: every failure takes the lock")
                .tries(DeterminismProperties.triesFromBuild())
                .run(NoLockCaravanProperties::assertEveryFailureTakesTheLock);
    }

    @Test
    void underLockShouldFormACaravanAndTheEngineShouldShrinkItToTwoWritersOnTwoProcessors() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(worlds(ReservationPolicy.UNDER_LOCK)).named("under-lock: no caravan").seed(1).tries(30)
                        .maxShrinkAttempts(300)
                        .run(NoLockCaravanProperties::assertWaitingDoesNotGrowWithFailingWriters));
        assertThat(failure).as("under-lock: failing writers must queue on the lock").isNotNull();
        System.out.println(failure.getMessage());
        CaravanWorld minimal = (CaravanWorld) failure.minimalExample();
        // Since a new buffer is allocated, zeroed and linked in one hold of CoreCLR's native spin
        // lock (as every generation to net6 did), two failing writers on two processors already
        // queue on it; before, with the managed SpinLock and the allocation outside, it took three.
        assertThat(minimal.failingWriters()).isEqualTo(2);
        assertThat(minimal.machine().logicalProcessors()).isEqualTo(2);
    }

    @Test
    void underLockWaitersShouldGrowWithFailingWritersWhileLocklessHasNone() {
        MachineProfile machine = SimGens.vary(NoEventLostProperties.BASE, 140, 8);
        List<Facts> underLock = new ArrayList<>();
        for (int writers : new int[] {1, 2, 4, 8}) {
            CaravanWorld world = new CaravanWorld(ReservationPolicy.UNDER_LOCK, machine, writers, 100, 0);
            underLock.add(run(world));
            Facts lockless = run(new CaravanWorld(ReservationPolicy.LOCKLESS, machine, writers, 100, 0));
            assertThat(lockless.lock().spinWaits()).as("lockless, " + lockless.describeWaiting()).isZero();
        }
        underLock.forEach(f -> System.out.println("under-lock, " + f.describeWaiting()));
        for (int i = 1; i < underLock.size(); i++) {
            assertThat(underLock.get(i).lock().maxSpinWaiters()).as("under-lock, " + underLock.get(i).describeWaiting())
                    .isGreaterThan(underLock.get(i - 1).lock().maxSpinWaiters());
        }
        assertThat(underLock.getLast().meanWaiters()).as("under-lock, mean waiters with 8 failing writers vs 2")
                .isGreaterThan(underLock.get(1).meanWaiters());
    }
}
