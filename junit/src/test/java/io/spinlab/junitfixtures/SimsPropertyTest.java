package io.spinlab.junitfixtures;

import io.spinlab.junit.Sim;
import io.spinlab.junit.SimulationFailure;
import io.spinlab.junit.Sims;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.junit.PropertyTest;
import io.spinlab.properties.engine.Draws;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Sims} inside property tests: machines, thread counts and seeds are drawn, and a failing
 * run is shrunk like any other failure, with the simulation's report in its message.
 */
class SimsPropertyTest {

    private static final int ROUNDS = 20;

    /** Threads enter the lock {@code ROUNDS} times each and check that nobody else is inside. */
    static void exclusive(Sim sim, int threads, boolean planted) {
        TtasLock good = new TtasLock();
        CheckThenActLock bad = new CheckThenActLock();
        Owner owner = new Owner();
        sim.threads(threads, i -> {
            for (int k = 0; k < ROUNDS; k++) {
                if (planted) {
                    bad.lock();
                } else {
                    good.lock();
                }
                owner.index = i;
                Thread.onSpinWait();
                assertThat(owner.index).as("owner after a PAUSE inside the lock").isEqualTo(i);
                if (planted) {
                    bad.unlock();
                } else {
                    good.unlock();
                }
            }
        });
        sim.run();
    }

    @PropertyTest(tries = 12)
    void ttasLockShouldStayExclusiveOnAnyMachine(Draws draws) {
        int processors = draws.draw("processors", Gens.integers(1, 8));
        int threads = draws.draw("threads", Gens.integers(2, 6));
        long seed = draws.draw("seed", Gens.longs(0, 1_000));

        Sim sim = Sims.run("skylake-i7-6700 logicalProcessors=" + processors, seed,
                s -> exclusive(s, threads, false));

        assertThat(sim.result().completed()).isTrue();
    }

    @Test
    void shouldShrinkTheFailureToTwoThreadsWhenTheLockIsPlanted() {
        Property<List<Integer>> property = Property.forAll(Gens.lists(Gens.integers(2, 6), 2, 2))
                .named("check-then-act lock stays exclusive").tries(20).seed(7);

        assertThatThrownBy(() -> property.run(example -> {
            int threads = example.get(0);
            int seed = example.get(1);
            Sims.run("skylake-i7-6700", seed, s -> exclusive(s, threads, true));
        })).isInstanceOfSatisfying(PropertyFailure.class, failure -> {
            assertThat(((List<?>) failure.minimalExample()).getFirst()).isEqualTo(2);
            assertThat(failure).hasCauseInstanceOf(SimulationFailure.class);
            assertThat(failure.getCause().getMessage()).contains("read CheckThenActLock#0.locked = false")
                    .contains("  machine: --machine skylake-i7-6700\n");
        });
    }

    @Test
    void shouldRefuseABodyThatCapturesAnObjectBuiltOutsideTheSimulation() {
        TtasLock outside = new TtasLock();

        assertThatThrownBy(() -> Sims.run("skylake-i7-6700", 1, s -> s.thread("t", outside::lock).run()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the body given to Sims.run captures a io.spinlab.junitfixtures.TtasLock built outside the "
                        + "simulation, uninstrumented; build it inside the lambda, or capture only JDK values");
    }
}
