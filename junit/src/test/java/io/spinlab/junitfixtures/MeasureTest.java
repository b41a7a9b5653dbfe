package io.spinlab.junitfixtures;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.junit.Measure;
import io.spinlab.junit.Measurement;
import io.spinlab.sim.trace.Activity;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** {@link Measure}: a user's lock against spinlab's MonitorLock, with the spread over seeds. */
class MeasureTest {

    private static Measure fourThreads() {
        return Measure.on("skylake-i7-6700").threads(4).seeds(3).warmup(Duration.ofNanos(50_000))
                .window(Duration.ofNanos(300_000));
    }

    /**
     * The user's lock, held across one PAUSE: with an empty critical section a waiter's read may
     * always arrive after the holder's release (the holder keeps the line for a burst of
     * operations) and nobody ever spins.
     */
    private static Measurement ttas() {
        return fourThreads().run(sim -> {
            TtasLock lock = new TtasLock();
            return () -> {
                lock.lock();
                Thread.onSpinWait();
                lock.unlock();
            };
        });
    }

    @Test
    void shouldMeasureTheUsersLockAndTheMonitorLockSideBySide() {
        Measurement mine = ttas();
        Measurement monitor = fourThreads().run(sim -> {
            MonitorLock lock = new MonitorLock(SpinContext.of(sim.platform(), sim.tuning()));
            return () -> {
                lock.enter();
                lock.exit();
            };
        });

        for (Measurement m : new Measurement[] {mine, monitor}) {
            assertThat(m.seeds()).containsExactly(1L, 2L, 3L);
            assertThat(m.windowOperations()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(Measure.MIN_OPERATIONS));
            assertThat(m.opsPerMs().min()).isPositive();
            assertThat(m.opsPerMs().min()).isLessThanOrEqualTo(m.opsPerMs().median());
            assertThat(m.opsPerMs().median()).isLessThanOrEqualTo(m.opsPerMs().max());
            assertThat(m.cpuNanosPerOp().median()).isPositive();
            assertThat(m.timeSplit().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0,
                    within(1e-9));
            assertThat(m.windowHalvesRatios()).hasSize(3).allSatisfy(r -> assertThat(r).isPositive().isFinite());
        }
        // The machine's run-to-run noise (wake latency, PAUSE and clock costs, timer phase) makes
        // the seeds differ: the spread is measured, not zero by construction.
        assertThat(mine.opsPerMs().max()).isGreaterThan(mine.opsPerMs().min());
        // Four threads on one lock: the TTAS lock's waiters spin (PAUSE) for it.
        assertThat(mine.timeSplit().get(Activity.SPINNING)).isPositive();
        assertThat(mine.speedupOver(monitor)).isEqualTo(mine.opsPerMs().median() / monitor.opsPerMs().median());
        System.out.println(mine + "\n" + monitor);
    }

    @Test
    void shouldGiveTheSameFiguresWhenRepeated() {
        assertThat(ttas()).isEqualTo(ttas());
    }

    /**
     * Seeds whose rates lie more than ten times apart report no rate: here the operation's length depends on
     * the seed (one PAUSE on seed 1, a hundred on seed 2), as a bursty count's does on where the window falls.
     */
    @Test
    void shouldRefuseARateFromSeedsMoreThanTenTimesApart() {
        Measure twoSeeds = Measure.on("skylake-i7-6700").threads(1).seeds(2).window(Duration.ofMillis(1));

        assertThatThrownBy(() -> twoSeeds.run(sim -> {
            int pauses = sim.seed() == 1 ? 1 : 100;
            return () -> {
                for (int i = 0; i < pauses; i++) {
                    Thread.onSpinWait();
                }
            };
        })).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("the 2 seeds on skylake-i7-6700 scored ")
                .hasMessageContaining(" times apart; more than 10 times apart give no rate ")
                .hasMessageEndingWith(": lengthen the window or the warm-up");
        // The same operation with the same length on both seeds has a rate.
        assertThat(twoSeeds.run(sim -> Thread::onSpinWait).opsPerMs().min()).isPositive();
    }

    /**
     * A window that measured a start-up reports no rate: here each operation spins one PAUSE more for every ten
     * done before it, so the rate falls all the time (the second half of a window from 0 counts about 0.4 times
     * the first's), as a heuristic's does while it adapts.
     */
    @Test
    void shouldRefuseARateFromAWindowWhoseHalvesDifferOnEverySeed() {
        Measure fromStart = Measure.on("skylake-i7-6700").threads(1).seeds(2).warmup(Duration.ZERO)
                .window(Duration.ofMillis(1));

        assertThatThrownBy(() -> fromStart.run(sim -> {
            long[] done = new long[1];
            return () -> {
                for (long i = done[0]++ / 10; i > 0; i--) {
                    Thread.onSpinWait();
                }
            };
        })).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the 2 seeds on skylake-i7-6700: the measured side counted 0.")
                .hasMessageEndingWith(" times as many operations in the window's second half as in its first, on "
                        + "every seed: the window measured a start-up, not a rate: lengthen the warm-up");
        // An operation of constant length has a steady rate from the start.
        assertThat(fromStart.run(sim -> Thread::onSpinWait).windowHalvesRatios())
                .allSatisfy(r -> assertThat(r).isCloseTo(1.0, within(0.05)));
    }

    @Test
    void shouldRefuseARateFromAWindowThatCountedAlmostNothing() {
        Measure tiny = Measure.on("skylake-i7-6700").threads(1).seeds(1).window(Duration.ofNanos(500));

        // One operation takes 100 us of virtual time: the window sees one at most.
        assertThatThrownBy(() -> tiny.run(sim -> () -> LockSupport.parkNanos(100_000))).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("seed 1 on skylake-i7-6700 counted ")
                .hasMessageEndingWith("; fewer than 100 give no rate: lengthen the window");
    }
}
