package io.spinlab.sim.engine;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code Monitor.PulseAll} does in .NET, checked in virtual time: CoreCLR's
 * {@code SyncBlock::PulseAll} takes every waiter off the condition queue and sets its wait event,
 * one {@code SetEvent} each, so every waiter is woken, runs, and competes to re-enter the monitor
 * (blocking again on the lock if the pulser still holds it). It does not move the waiters to the
 * lock's queue without running them, as HotSpot's {@code notifyAll} does. So the pulser pays one
 * wake call per waiter, and each waiter parks twice: once on the condition, once on the lock.
 */
class MonitorPulseAllInVirtualTimeTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final int WAITERS = 3;
    /** The pulser keeps the lock ~1 ms after the pulse (140-cycle PAUSEs at 3.4 GHz are ~41 ns). */
    private static final int HOLD_PAUSES = 24_000;
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What one run saw: pulseAll's count and duration, the lock's release time, and per waiter its parks and re-entry. */
    private record Seen(int pulsed, long pulseNanos, long exitNanos, List<Integer> parks, List<Long> reentered) {
    }

    private static Seen pulseAllWhileHolding(MachineProfile machine) {
        Simulation sim = Simulation.builder(machine).seed(1).context("pulseAll").build();
        CountingPlatform platform = new CountingPlatform(sim.platform());
        MonitorLock lock = new MonitorLock(SpinContext.of(platform, Tuning.parse("net6")));
        int[] waiting = {0};
        long[] reentered = new long[WAITERS];
        long[] seen = new long[3];
        sim.startThread("pulser", () -> {
            for (int i = 0; i < WAITERS; i++) {
                int index = i;
                platform.startThread("waiter-" + i, () -> {
                    lock.enter();
                    waiting[0]++;
                    try {
                        lock.await(); // releases the lock until pulsed, then re-enters it
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    reentered[index] = platform.nanoTime();
                    lock.exit();
                });
            }
            while (true) {
                lock.enter();
                if (waiting[0] == WAITERS && lock.waiterCount() == 0) {
                    break; // every waiter is on the condition queue
                }
                lock.exit();
                platform.sleep(MS);
            }
            long before = platform.nanoTime();
            seen[0] = lock.pulseAll();
            seen[1] = platform.nanoTime() - before;
            platform.pause(HOLD_PAUSES);
            seen[2] = platform.nanoTime();
            lock.exit();
        });
        SimulationResult run = sim.run();
        assertThat(run.outcome()).as(run.report()).isEqualTo(Outcome.COMPLETED);
        List<Integer> parks = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < WAITERS; i++) {
            parks.add(platform.parks.getOrDefault("waiter-" + i, 0));
            times.add(reentered[i]);
        }
        return new Seen((int) seen[0], seen[1], seen[2], parks, times);
    }

    @Test
    void shouldWakeEveryWaiterToCompeteForTheLockWhenPulsingAll() {
        Seen seen = pulseAllWhileHolding(SKYLAKE);

        assertThat(seen.pulsed()).isEqualTo(WAITERS);
        // Each waiter parked on the condition, was woken by the pulse, found the lock held and
        // parked again on the lock; it re-entered only after the pulser let go.
        assertThat(seen.parks()).containsOnly(2);
        assertThat(seen.reentered()).allSatisfy(t -> assertThat(t).isGreaterThan(seen.exitNanos()));
    }

    @Test
    void shouldChargeThePulserOneWakeCallPerWaiterWhenPulsingAll() {
        Seen withWakeCalls = pulseAllWhileHolding(SKYLAKE);
        Seen free = pulseAllWhileHolding(SKYLAKE.toBuilder().wakeCallNs(0).build());

        // Everything else is identical: the waiters wake 5 µs after their unpark, after the pulse.
        // Exactly 3 µs of virtual time; each side is read through nanoTime, which truncates the
        // picosecond clock, so the difference of two durations is exact to within 1 ns.
        assertThat(withWakeCalls.pulseNanos() - free.pulseNanos())
                .isBetween(WAITERS * (long) SKYLAKE.wakeCallNs() - 1, WAITERS * (long) SKYLAKE.wakeCallNs() + 1);
    }
}
