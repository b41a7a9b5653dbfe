package com.example.spin;

import io.spinlab.junit.Measure;
import io.spinlab.junit.Measurement;
import io.spinlab.junit.Sim;
import io.spinlab.junit.SimulationFailure;
import io.spinlab.junit.Sims;
import io.spinlab.junit.SimulationTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The two locks on simulated machines: the TTAS lock holds, the check-then-act lock is caught. */
class SpinLockTest {

    static final int THREADS = 8;
    static final int ROUNDS = 100;

    /** Who is inside the critical section. */
    static final class Owner {
        volatile int index = -1;
    }

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

    @SimulationTest(machines = {"skylake-i7-6700", "skylake-i7-6700 logicalProcessors=64", "sandybridge-e5-1650"},
            seeds = 3)
    void ttasLockStaysExclusive(Sim sim) {
        TtasLock lock = new TtasLock();
        enterAndCheck(sim, lock::lock, lock::unlock);
        assertThat(sim.metric("entries")).isEqualTo(THREADS * ROUNDS);
    }

    /** The same check on the broken lock: it must fail, and the report must show the race. */
    @Test
    void checkThenActLockIsCaughtWithTheRacingAccesses() {
        assertThatThrownBy(() -> Sims.run("skylake-i7-6700", 1, sim -> {
            CheckThenActLock lock = new CheckThenActLock();
            enterAndCheck(sim, lock::lock, lock::unlock);
        })).isInstanceOfSatisfying(SimulationFailure.class, failure -> assertThat(failure.getMessage())
                .contains("  machine: --machine skylake-i7-6700")
                .contains("read CheckThenActLock#0.locked = false")
                .contains("volatile write CheckThenActLock#0.locked = false -> true"));
    }

    @Test
    void ttasLockThroughputOnSkylake() {
        Measurement ttas = Measure.on("skylake-i7-6700").threads(4).seeds(3).window(Duration.ofNanos(500_000))
                .run(sim -> {
                    TtasLock lock = new TtasLock();
                    return () -> {
                        lock.lock();
                        lock.unlock();
                    };
                });
        System.out.println(ttas);
        assertThat(ttas.opsPerMs().median()).isPositive();
    }
}
