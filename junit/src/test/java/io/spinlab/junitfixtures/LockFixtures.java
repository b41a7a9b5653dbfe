package io.spinlab.junitfixtures;

import io.spinlab.junit.Sim;
import io.spinlab.junit.SimulationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SimulationTest}s run by SimulationExtensionTest through the JUnit test kit (the name keeps
 * Surefire from running them itself): a correct lock, a planted one, and a test without contention.
 */
class LockFixtures {

    static final int THREADS = 4;
    static final int ROUNDS = 50;

    /**
     * {@code THREADS} threads enter the lock {@code ROUNDS} times each; inside, each writes its index,
     * pauses once and checks that the index is still its own.
     */
    static void enterAndCheck(Sim sim, Runnable lock, Runnable unlock) {
        Owner owner = new Owner();
        sim.threads(THREADS, i -> {
            for (int k = 0; k < ROUNDS; k++) {
                lock.run();
                owner.index = i;
                Thread.onSpinWait();
                assertThat(owner.index).as("owner after a PAUSE inside the lock").isEqualTo(i);
                sim.increment("entries");
                unlock.run();
            }
        });
        sim.run();
    }

    @SimulationTest(machines = {"skylake-i7-6700", "sandybridge-e5-1650 pauseCycles=300"}, seeds = 2)
    void ttasLockStaysExclusive(Sim sim) {
        TtasLock lock = new TtasLock();
        enterAndCheck(sim, lock::lock, lock::unlock);
        assertThat(sim.metric("entries")).isEqualTo(THREADS * ROUNDS);
    }

    @SimulationTest(seeds = 1)
    void checkThenActLockStaysExclusive(Sim sim) {
        CheckThenActLock lock = new CheckThenActLock();
        enterAndCheck(sim, lock::lock, lock::unlock);
    }

    @SimulationTest(seeds = 1)
    void oneThreadSeesNoContention(Sim sim) {
        TtasLock lock = new TtasLock();
        sim.thread("alone", () -> {
            lock.lock();
            lock.unlock();
        });
        sim.run();
    }

    @SimulationTest(seeds = 1)
    void failsAfterTheRun(Sim sim) {
        Owner owner = new Owner();
        sim.threads(2, i -> owner.index = i);
        sim.run();
        assertThat(owner.index).as("last writer").isEqualTo(7);
    }

    @SimulationTest(machines = "no-such-machine")
    void unknownMachine(Sim sim) {
        sim.run();
    }
}
