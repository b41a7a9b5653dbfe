package io.spinlab.properties.sim;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.sim.guest.ThreadPoolScenario;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
 * the memory model makes schedulable (each shared access is a scheduling point); the request must be
 * the last one before the shutdown (a later one would wake a worker that serves both), so the search
 * takes hundreds of generated worlds (667 with seed 1, about 30 s here).
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

    @Test
    void shouldCatchAPoolWhoseWorkerForgetsARequestThatArrivedAtTheGoal() {
        // removeWorkingWorker: if (requested.value > 0) maybeAddWorkingWorker(); the IFLE that skips the call
        // is always taken.
        Mutation mutant = Mutation.branchAlwaysTaken(ThreadPool.class, "removeWorkingWorker", "IFLE", 0);
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(ThreadPoolExactlyOnceProperties.worlds()
                                .map(w -> w.withMemoryModelAndQueue(true, GlobalQueuePolicy.CONCURRENT_QUEUE)
                                        .withoutGate()))
                        .named("planted: " + mutant).seed(1).tries(1_000).maxShrinkAttempts(100)
                        .run(world -> {
                            ScenarioRunner.Run<PoolObservation> run = simulate(world, mutant);
                            // Judged on what the controller saw: with the request lost the pool never
                            // terminates, and the gate thread, parked for an hour, then outlives the
                            // simulation's budget, so the run itself cannot complete.
                            assertThat(run.observedSoFar()).as("an observation of %s", world).isPresent();
                            assertThat(ThreadPoolExactlyOnceProperties.problems(world,
                                    run.observedSoFar().orElseThrow()))
                                    .as("a request lost in %s%nreproduce: %s", world, run.simulation().reproduction())
                                    .noneMatch(problem -> problem.contains("did not terminate"));
                        }));
        assertThat(failure).as("a worker that forgets a request must leave an item unrun").isNotNull();
        System.out.println(failure.getMessage());
        assertThat(failure.getCause()).hasMessageContaining("did not terminate");
    }
}
