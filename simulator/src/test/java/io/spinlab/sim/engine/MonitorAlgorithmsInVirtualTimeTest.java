package io.spinlab.sim.engine;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Monitor algorithms do to a waiter when another thread takes the lock again right after
 * each release (a "hog": holds ~1 ms, releases, re-enters at once) — behaviour that needs blocking
 * threads and a clock, so it is checked in virtual time:
 * <ul>
 *   <li>{@code barging} (CoreCLR since #14216): each release wakes a waiter, which loses to the hog
 *       and waits again at the back of the queue, so wake-ups alternate between two waiters; after
 *       100 ms of waiter starvation the hog may no longer barge and a waiter gets the lock.</li>
 *   <li>{@code convoy} (CoreCLR 2.0): the first release hands the lock to the waiter.</li>
 *   <li>{@code corert-lock}: no starvation guard; the waiters get the lock only once the hog stops.</li>
 * </ul>
 */
class MonitorAlgorithmsInVirtualTimeTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** ~1 ms of PAUSEs on the Skylake profile (140 cycles at 4 GHz is 35 ns). */
    private static final int HOLD_PAUSES = 28_000;
    private static final long HOG_RUNS_NANOS = 300 * MS;

    /** Virtual ns from the start at which each waiter got the lock, and the unparks each was sent by then. */
    private record Outcome(long firstAcquiredNanos, long secondAcquiredNanos, Map<String, Integer> unparksAtFirst,
            long firstWaiterParkedNanos) {
    }

    private static Outcome runHogAndTwoWaiters(String tuning) {
        Simulation sim = Simulation.builder(SKYLAKE).seed(1).context("hog " + tuning).build();
        CountingPlatform platform = new CountingPlatform(sim.platform());
        SpinContext context = SpinContext.of(platform, Tuning.parse(tuning));
        MonitorLock lock = new MonitorLock(context);
        long[] acquired = {-1, -1};
        Map<String, Integer> unparksAtFirst = new HashMap<>();
        long[] start = {0};
        sim.startThread("hog", () -> {
            context.normalizer().refreshIfDue();
            start[0] = platform.nanoTime();
            lock.enter();
            platform.startThread("w1", () -> waiter(platform, lock, start, acquired, 0, unparksAtFirst));
            platform.sleep(0);
            platform.startThread("w2", () -> waiter(platform, lock, start, acquired, 1, unparksAtFirst));
            while (platform.nanoTime() - start[0] < HOG_RUNS_NANOS) {
                platform.pause(HOLD_PAUSES);
                lock.exit();
                lock.enter();
            }
            lock.exit();
        });
        SimulationResult run = sim.run();
        assertThat(run.outcome()).as(run.report()).isEqualTo(io.spinlab.sim.engine.Outcome.COMPLETED);
        long first = Math.min(acquired[0], acquired[1]);
        long second = Math.max(acquired[0], acquired[1]);
        String firstWaiter = acquired[0] <= acquired[1] ? "w1" : "w2";
        long parked = platform.firstPark.getOrDefault(firstWaiter, Long.MIN_VALUE) - start[0];
        return new Outcome(first, second, unparksAtFirst, parked);
    }

    private static void waiter(CountingPlatform platform, MonitorLock lock, long[] start, long[] acquired, int index,
            Map<String, Integer> unparksAtFirst) {
        platform.pause(1_000);
        lock.enter();
        acquired[index] = platform.nanoTime() - start[0];
        if (unparksAtFirst.isEmpty()) {
            unparksAtFirst.putAll(platform.unparks);
        }
        lock.exit();
    }

    @Test
    void shouldStopBargingAfterAHundredMillisecondsOfStarvationAndAlternateWakeUpsWhenBarging() {
        Outcome outcome = runHogAndTwoWaiters("net6");

        // Starvation is measured in whole milliseconds of the clock, as CoreCLR's GetTickCount.
        assertThat(outcome.firstAcquiredNanos()).as("first waiter's lock, virtual ns")
                .isBetween(99 * MS, 105 * MS);
        // The hog, refused, became a waiter too: from then on the lock goes round the queue, and the
        // second waiter gets it within one hold.
        assertThat(outcome.secondAcquiredNanos() - outcome.firstAcquiredNanos()).as("second after first, virtual ns")
                .isPositive().isLessThan(MS + MS / 5);
        // ~100 releases, each waking the waiter at the front; a loser goes to the back.
        assertThat(outcome.unparksAtFirst().get("w1")).isGreaterThan(40);
        assertThat(outcome.unparksAtFirst().get("w2")).isGreaterThan(40);
        assertThat(Math.abs(outcome.unparksAtFirst().get("w1") - outcome.unparksAtFirst().get("w2")))
                .as("wake-ups alternate between the waiters").isLessThanOrEqualTo(1);
    }

    @Test
    void shouldSpinTensOfMillisecondsThenGetTheLockAtTheFirstReleaseAfterBlockingWhenConvoy() {
        Outcome outcome = runHogAndTwoWaiters("netcore2.0");

        // 11 spin passes of 164,000 raw PAUSEs (8 processors) at ~35 ns each before blocking ...
        assertThat(outcome.firstWaiterParkedNanos()).as("when the first owner-to-be blocked")
                .isGreaterThan(50 * MS);
        // ... and then the next release hands the lock over: at most one ~1 ms hold later.
        assertThat(outcome.firstAcquiredNanos() - outcome.firstWaiterParkedNanos()).as("blocked to owner")
                .isPositive().isLessThan(MS + MS / 5);
    }

    @Test
    void shouldStarveTheWaitersUntilTheHogStopsWhenCoreRtLock() {
        Outcome outcome = runHogAndTwoWaiters("corert-2019-after");

        assertThat(outcome.firstAcquiredNanos()).isGreaterThanOrEqualTo(HOG_RUNS_NANOS);
    }
}
