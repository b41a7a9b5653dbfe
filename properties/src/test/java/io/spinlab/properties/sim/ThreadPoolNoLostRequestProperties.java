package io.spinlab.properties.sim;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.sim.guest.ThreadPoolScenario;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The thread pool loses no thread request: with the starvation gate out of the way (it looks once an
 * hour), every accepted item still runs exactly once and the pool terminates, under the generated
 * schedules of {@link ThreadPoolExactlyOnceProperties}. The gate exists for items that block; the
 * generated items never block, so a request that waits until the gate looks is a request the
 * protocol lost (ThreadPool's notes: no request waits while processing is below the goal).
 *
 * <p>Its planted counterpart is the real pool with one branch changed, the one a PIT mutant of
 * {@code ThreadPool.removeWorkingWorker} changes and no scripted test can reach: a worker that gives
 * its processing slot back no longer looks for a request that arrived while processing was at the
 * goal, after the worker's last look. Only an interleaving inside the pool's own code shows it, which
 * the memory model makes schedulable (each shared access is a scheduling point), and only for the last
 * submission before the shutdown (a later one would wake a worker that serves both). The general
 * worlds almost never put that submission into the window (none of 1,000 with seed 1), so
 * {@link #windowWorlds} aims at it: one worker, two items, the second submitted after a generated
 * number of PAUSEs fine-grained enough to sweep across the worker's exit. The unmutated pool must pass
 * those worlds too, and the world that catches the plant.
 *
 * <p>An earlier version of the plant's test searched the general worlds and "caught" the plant at
 * world 667 of seed 1; the unmutated pool failed that world as well (a lost wake-up of the starvation
 * gate, since fixed: impl's MUTATION.md), so the catch proved nothing. Hence the control run below.
  */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class ThreadPoolNoLostRequestProperties {

    private static ScenarioRunner.Run<PoolObservation> simulate(PoolWorld world, Mutation mutant) {
        Simulation.Builder simulation = Simulation.builder(world.machine()).seed(world.seed()).faults(world.faults())
                .memoryModel(world.memoryModel());
        return ScenarioRunner.simulate(ThreadPoolScenario.class, world, Tuning.current(), simulation, mutant);
    }

    @Test
    void everyAcceptedItemShouldRunWithoutTheStarvationGate() {
        Property.forAll(ThreadPoolExactlyOnceProperties.worlds().map(PoolWorld::withoutGate))
                .named("thread pool: no request lost (gate off, simulated)")
                .tries(DeterminismProperties.triesFromBuild())
                .run(world -> ThreadPoolExactlyOnceProperties.assertExactlyOnce(world, simulate(world, null)));
    }

    /**
     * The world in which the starvation gate lost its wake-up (impl's MUTATION.md): submitter 1 shuts the
     * pool down as the last item runs, the pool drains between the gate thread's first park and its
     * starter's store of the thread, and the drain woke nobody, so the pool outlived the controller's wait.
     * Pinned as the general worlds' try with this seed (world 667 of seed 1); the first assertions fail if
     * the generator no longer makes that world, so that this test cannot go stale silently.
     */
    @Test
    void theDrainShouldWakeAGateThreadThatParkedBeforeItsStarterStoredIt() {
        Property.forAll(ThreadPoolExactlyOnceProperties.worlds()
                        .map(w -> w.withMemoryModelAndQueue(true, GlobalQueuePolicy.CONCURRENT_QUEUE).withoutGate()))
                .named("thread pool: the gate's lost wake-up, pinned").seed(6_726_081_386_752_106_337L).tries(1)
                .maxShrinkAttempts(0)
                .run(world -> {
                    assertThat(world.seed()).as("the pinned world's simulation seed").isEqualTo(339_650L);
                    assertThat(world.machine().name()).isEqualTo("skylake-i7-6700@pause=10,procs=8");
                    assertThat(world.shutdownBy()).isEqualTo(1);
                    ThreadPoolExactlyOnceProperties.assertExactlyOnce(world, simulate(world, null));
                });
    }

    /**
     * Worlds aimed at the window between a worker's last look for requests and its giving back its
     * slot: memory model on, a goal of one worker, one submitter of two global items, the second after
     * 0–3,000 PAUSEs (on 10 and 140-cycle machines, from none to about 100 µs), short items, gate off.
     */
    static Gen<PoolWorld> windowWorlds() {
        Gen<MachineProfile> machine = SimGens.machines(NoEventLostProperties.BASE, List.of(10, 140), List.of(2, 4));
        Gen<Integer> delay = Gens.integers(0, 3_000);
        Gen<Integer> work = Gens.choose(0, 100, 1_000);
        return source -> {
            MachineProfile m = machine.generate(source);
            long seed = Gens.longs(0, 1_000_000).generate(source);
            Faults faults = SimGens.faults().generate(source);
            boolean perItem = Gens.booleans().generate(source);
            PoolWorld.Item first = new PoolWorld.Item(0, 0, work.generate(source), false, true, List.of());
            PoolWorld.Item second = new PoolWorld.Item(0, delay.generate(source), work.generate(source), false, true,
                    List.of());
            return new PoolWorld(m, true, seed, faults, GlobalQueuePolicy.CONCURRENT_QUEUE, perItem, 1, 1,
                    20_000_000_000L, PoolWorld.GATE_OFF_NANOS, List.of(List.of(first, second)), -1, 0, 0L, false,
                    PoolWorld.Plant.NONE).numbered();
        };
    }

    @Test
    void everyAcceptedItemShouldRunWhenTheLastSubmissionRacesTheWorkersExit() {
        Property.forAll(windowWorlds())
                .named("thread pool: no request lost at a worker's exit (gate off, simulated)")
                .tries(DeterminismProperties.triesFromBuild())
                .run(world -> ThreadPoolExactlyOnceProperties.assertExactlyOnce(world, simulate(world, null)));
    }

    /**
     * A lost request, judged on what the controller saw: with a request lost the pool never terminates,
     * and the gate thread, parked for an hour, then outlives the simulation's budget, so the run itself
     * cannot complete.
     */
    private static void assertThePoolTerminates(PoolWorld world, Mutation mutant) {
        ScenarioRunner.Run<PoolObservation> run = simulate(world, mutant);
        assertThat(run.observedSoFar()).as("an observation of %s", world).isPresent();
        assertThat(ThreadPoolExactlyOnceProperties.problems(world, run.observedSoFar().orElseThrow()))
                .as("a request lost in %s%nreproduce: %s", world, run.simulation().reproduction())
                .noneMatch(problem -> problem.contains("did not terminate"));
    }

    @Test
    void shouldCatchAPoolWhoseWorkerForgetsARequestThatArrivedAtTheGoal() {
        // removeWorkingWorker: if (requested.value > 0) maybeAddWorkingWorker(); the IFLE that skips the call
        // is always taken.
        Mutation mutant = Mutation.branchAlwaysTaken(ThreadPool.class, "removeWorkingWorker", "IFLE", 0);
        // Seeded: the search finds a lost request at try 1,122 (before memory accesses waited for the
        // instructions ahead of them, within the first 1,000; the window is a few accesses wide).
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(windowWorlds())
                        .named("planted: " + mutant).seed(2).tries(2_000).maxShrinkAttempts(100)
                        .run(world -> assertThePoolTerminates(world, mutant)));
        assertThat(failure).as("a worker that forgets a request must leave an item unrun").isNotNull();
        System.out.println(failure.getMessage());
        assertThat(failure.getCause()).hasMessageContaining("did not terminate");
        PlantedCatch.<PoolWorld>assertTheUnplantedCodePasses(failure,
                w -> ThreadPoolExactlyOnceProperties.assertExactlyOnce(w, simulate(w, null)));
    }

    /**
     * The general worlds with the memory model on, the cascading request scheme and the gate out of
     * the way: the schedules in which the cascade alone keeps enough workers requested.
     */
    static Gen<PoolWorld> cascadingWorlds() {
        return ThreadPoolExactlyOnceProperties.worlds().map(w -> w
                .withMemoryModelAndQueue(true, GlobalQueuePolicy.CONCURRENT_QUEUE).withoutGate().withCascadingRequests());
    }

    /**
     * PIT's race-only survivors in the cascading request scheme (impl/MUTATION.md; lines of 8ef6317), each
     * applied to the real class, with the try of seed 1 that first catches it.
     */
    static List<Arguments> cascadeSurvivors() {
        Class<?> cascading = Mutation.inPackage(ThreadPool.class, "CascadingThreadRequests");
        return List.of(
                // The cascade's request removed (CascadingThreadRequests.firstItem L81): a worker that finds its
                // item with more work likely marks the stage SCHEDULED but requests no worker, so every later
                // enqueuer, seeing SCHEDULED, requests none either.
                Arguments.of(Mutation.callRemoved(cascading, "firstItem", "requestWorker", 0)),
                // L83 (removed) and L82 (its test's jump always taken): a worker whose scan an enqueuer relied on
                // (the stage found SCHEDULED when it gave up its scan for an item) requests no worker, and the
                // enqueuer's item waits while this worker is busy with its own.
                Arguments.of(Mutation.callRemoved(cascading, "firstItem", "requestWorker", 1)),
                Arguments.of(Mutation.branchAlwaysTaken(cascading, "firstItem", "IFNE", 1)),
                // PaddedLong.compareAndExchange L44 (returns 0): a worker whose scan an enqueuer relied on (the
                // witness SCHEDULED) takes the witness for NOT_SCHEDULED and stops scanning, leaving the stage
                // SCHEDULED with nobody scanning, so the enqueuer's item waits and later enqueuers request none.
                Arguments.of(Mutation.returnsZero(Mutation.inPackage(ThreadPool.class, "PaddedLong"),
                        "compareAndExchange", "LRETURN", 0)));
    }

    @ParameterizedTest
    @MethodSource("cascadeSurvivors")
    void shouldCatchEachRaceOnlySurvivorOfTheCascade(Mutation mutant) {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(cascadingWorlds()).named("planted: " + mutant).seed(1).tries(500)
                        .maxShrinkAttempts(100)
                        .run(world -> assertThePoolTerminates(world, mutant)));
        assertThat(failure).as("the planted %s must leave an item unrun in some world", mutant).isNotNull();
        System.out.println(failure.getMessage());
        PlantedCatch.<PoolWorld>assertTheUnplantedCodePasses(failure,
                w -> ThreadPoolExactlyOnceProperties.assertExactlyOnce(w, simulate(w, null)));
    }

    @Test
    void everyAcceptedItemShouldRunUnderTheCascadeAlone() {
        Property.forAll(cascadingWorlds()).named("thread pool: no request lost by the cascade (gate off, simulated)")
                .tries(DeterminismProperties.triesFromBuild())
                .run(world -> ThreadPoolExactlyOnceProperties.assertExactlyOnce(world, simulate(world, null)));
    }
}
