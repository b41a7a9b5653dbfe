package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.OperatingSystem;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.ThreadMetrics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operating systems' scheduling rules, with exact expected virtual times: per-processor
 * ready queues, what {@code SwitchToThread}/{@code sched_yield} and a zero sleep give way to,
 * and Windows' priority boost on a signalled wake-up. Each figure follows from the profile below
 * and the rules in {@code Engine} and {@code Scheduler}.
 */
class OsSchedulingRulesTest {

    private static final long NS = 1_000L;
    private static final long US = 1_000_000L;
    private static final long MS = 1_000_000_000L;

    /**
     * {@link SimulatedPlatformTest}'s round machine under {@code os}: 1 GHz, a 100-cycle PAUSE
     * (100 ns), context switch 3 µs, wake latency 5 µs, yield 3 µs / 300 ns, time slice 4 ms,
     * atomic 10 ns.
     */
    private static MachineProfile machine(int processors, OperatingSystem os) {
        return SimulatedPlatformTest.round(processors).toBuilder().name("rules-" + os).os(os).build();
    }

    /**
     * Two processors: "busy" (thread 0) runs on cpu0 for 10 µs, "caller" (thread 1) on cpu1, and
     * "queued" (thread 2, whose preferred processor is cpu0) waits on cpu0's queue. The caller
     * then yields or sleeps for zero, and PAUSEs 10 µs; returns {caller's return, queued's start} in ps.
     */
    private static long[] yieldWithAThreadReadyOnTheOtherProcessor(OperatingSystem os, boolean sleepZero) {
        Simulation sim = Simulation.builder(machine(2, os)).seed(1).build();
        SimulatedPlatform platform = sim.platform();
        AtomicLong callerBack = new AtomicLong();
        AtomicLong queuedStarted = new AtomicLong();
        sim.startThread("busy", () -> platform.pause(100));
        sim.startThread("caller", () -> {
            if (sleepZero) {
                platform.sleep(0);
            } else {
                platform.yieldThread();
            }
            callerBack.set(platform.nowPicos());
            platform.pause(100);
        });
        sim.startThread("queued", () -> {
            queuedStarted.set(platform.nowPicos());
            platform.pause(10);
        });
        SimulationResult result = sim.run().requireCompleted();
        assertThat(result.metrics().thread("caller").contextSwitches()).isEqualTo(callerBack.get() == 300 * NS ? 0 : 1);
        return new long[] {callerBack.get(), queuedStarted.get()};
    }

    @Test
    void shouldNotSwitchToAThreadReadyOnAnotherProcessorWhenYielding() {
        for (OperatingSystem os : OperatingSystem.values()) {
            long[] times = yieldWithAThreadReadyOnTheOtherProcessor(os, false);

            assertThat(times[0]).as("%s: the yield finds cpu1's queue empty and returns after the system call", os)
                    .isEqualTo(300 * NS);
            assertThat(times[1]).as("%s: the queued thread waits for cpu0: 10 µs + a context switch", os)
                    .isEqualTo(13 * US);
        }
    }

    @Test
    void shouldGiveWayToAThreadReadyAnywhereWhenSleepingZeroOnWindowsOnly() {
        long[] windows = yieldWithAThreadReadyOnTheOtherProcessor(OperatingSystem.WINDOWS, true);
        // cpu1 takes the queued thread from cpu0's queue (3 µs switch); it runs 1 µs, then the
        // caller, on cpu1's queue, gets cpu1 back after another switch.
        assertThat(windows[1]).isEqualTo(3 * US);
        assertThat(windows[0]).isEqualTo(7 * US);

        long[] linux = yieldWithAThreadReadyOnTheOtherProcessor(OperatingSystem.LINUX, true);
        assertThat(linux[0]).as("Sleep(0) is sched_yield on Linux").isEqualTo(300 * NS);
        assertThat(linux[1]).isEqualTo(13 * US);
    }

    /**
     * One processor: "waiter" parks at once; "spinner" gets the processor after a context switch
     * (3 µs), unparks the waiter (10 ns and a 1 µs wake call) and PAUSEs for 10 ms; the woken waiter
     * PAUSEs 10 ms too.
     * Returns {waiter's wake-up, spinner's return, waiter's return} in ps and the two threads' metrics.
     */
    private static long[] boostScenario(OperatingSystem os, ThreadMetrics[] metrics) {
        return wakeScenario(os, 0, metrics);
    }

    /** {@link #boostScenario}, with the spinner PAUSEing {@code pausesFirst} times before it unparks. */
    private static long[] wakeScenario(OperatingSystem os, int pausesFirst, ThreadMetrics[] metrics) {
        Simulation sim = Simulation.builder(machine(1, os)).seed(1).build();
        SimulatedPlatform platform = sim.platform();
        AtomicLong woke = new AtomicLong();
        AtomicLong waiterDone = new AtomicLong();
        AtomicLong spinnerDone = new AtomicLong();
        Thread waiter = sim.startThread("waiter", () -> {
            platform.park(OsSchedulingRulesTest.class);
            woke.set(platform.nowPicos());
            platform.pause(100_000);
            waiterDone.set(platform.nowPicos());
        });
        sim.startThread("spinner", () -> {
            if (pausesFirst > 0) {
                platform.pause(pausesFirst);
            }
            platform.unpark(waiter);
            platform.pause(100_000);
            spinnerDone.set(platform.nowPicos());
        });
        SimulationResult result = sim.run().requireCompleted();
        metrics[0] = result.metrics().thread("waiter");
        metrics[1] = result.metrics().thread("spinner");
        return new long[] {woke.get(), spinnerDone.get(), waiterDone.get()};
    }

    @Test
    void shouldPreemptARunningThreadMidPauseWhenABoostedThreadWakesOnWindows() {
        ThreadMetrics[] metrics = new ThreadMetrics[2];
        long[] times = boostScenario(OperatingSystem.WINDOWS, metrics);

        // Unpark at 3 µs, ready at 8 µs: the boosted waiter preempts the spinner's PAUSE batch
        // (begun at 4.01 µs, after the unpark's 10 ns atomic and 1 µs wake call) there and runs
        // after a context switch.
        assertThat(times[0]).isEqualTo(11 * US);
        // The boost ends with the waiter's first full slice (4 ms after 11 µs): the spinner,
        // waiting first in line, gets the processor back after a switch and owes 9.99601 ms of
        // PAUSE. Preempted by a higher priority, it kept the rest of its slice: it had run 5 µs of
        // it (3 µs to 8 µs), so it runs 3.995 ms now. Slice ends then alternate the two, a switch
        // between each: waiter 4 ms, spinner 4 ms, waiter's last 2 ms, spinner's last 2.00101 ms.
        // (Before the spinner kept its slice, it ran a fresh 4 ms here and the waiter ended 5 µs later.)
        assertThat(times[2]).isEqualTo(11 * US + 4 * MS + 3 * US + 3_995 * US + 3 * US + 4 * MS + 3 * US + 4 * MS
                + 3 * US + 2 * MS);
        assertThat(times[1]).isEqualTo(times[2] + 3 * US + 2_001_010 * NS);
        assertThat(metrics[1].picos(Activity.SPINNING)).as("the cut batch's PAUSE time is owed, not lost")
                .isEqualTo(10 * MS);
        assertThat(metrics[0].picos(Activity.SPINNING)).isEqualTo(10 * MS);
        assertThat(metrics[1].preemptions()).isEqualTo(3);
    }

    /**
     * One processor, Windows, an injected preemption (1 µs) at every other scheduling point of every
     * thread: "waiter" parks at once; "spinner" unparks it and runs three 100 µs PAUSE batches; the woken, boosted
     * waiter then runs five 2 ms PAUSE batches. Each injected preemption hands the processor over,
     * but the boosted waiter takes it straight back. An injected preemption does not give the
     * waiter a new slice: it keeps the rest of the one it had, so its boost ends when it has run one
     * slice (4 ms, two batches) of its own, and the spinner runs before the waiter's third batch.
     */
    @Test
    void shouldEndABoostAfterOneSliceOfRunningWhenInjectedPreemptionsInterruptIt() {
        Simulation sim = Simulation.builder(machine(1, OperatingSystem.WINDOWS)).seed(1)
                .faults(Faults.parse("preempt=1.0/1000ns")).build();
        SimulatedPlatform platform = sim.platform();
        AtomicLong spinnerBack = new AtomicLong();
        AtomicLong waiterSecondBatchDone = new AtomicLong();
        AtomicLong waiterDone = new AtomicLong();
        Thread waiter = sim.startThread("waiter", () -> {
            platform.park(OsSchedulingRulesTest.class);
            for (int batch = 1; batch <= 5; batch++) {
                platform.pause(20_000);
                if (batch == 2) {
                    waiterSecondBatchDone.set(platform.nowPicos());
                }
            }
            waiterDone.set(platform.nowPicos());
        });
        sim.startThread("spinner", () -> {
            platform.unpark(waiter);
            for (int batch = 0; batch < 3; batch++) {
                platform.pause(1_000);
            }
            spinnerBack.set(platform.nowPicos());
        });
        sim.run().requireCompleted();

        // The rule: the spinner finishes between the waiter's second batch and its last. (Before,
        // every injected preemption gave the waiter a fresh slice, its boost never ended, and the
        // spinner finished only after the waiter: 10.356010 ms against the waiter's 10.053 ms.)
        assertThat(spinnerBack.get()).as("the spinner runs once the waiter's boost has ended")
                .isGreaterThan(waiterSecondBatchDone.get()).isLessThan(waiterDone.get());
        // The exact times of this deterministic run (seed 1), pinned so that any change shows (each
        // 1 µs later since the waker pays the wake-up's system call).
        assertThat(waiterSecondBatchDone.get()).isEqualTo(4_138_010 * NS);
        assertThat(spinnerBack.get()).isEqualTo(8_353_010 * NS);
        assertThat(waiterDone.get()).isEqualTo(10_357_010 * NS);
    }

    @Test
    void shouldLeaveAWokenThreadWaitingForTheSliceEndOnLinuxCfs() {
        ThreadMetrics[] metrics = new ThreadMetrics[2];
        long[] times = boostScenario(OperatingSystem.LINUX_CFS, metrics);

        // No boost, and no wake-up preemption: when the waiter wakes (8 µs) the spinner has run
        // 5 µs, its virtual runtime is 5 µs ahead of the waiter's, less than the 1 ms wake-up
        // granularity of one processor. The spinner's slice (from 3 µs) ends at 4.003 ms, then
        // the waiter runs.
        assertThat(times[0]).isEqualTo(4 * MS + 3 * US + 3 * US);
        assertThat(metrics[1].picos(Activity.SPINNING)).isEqualTo(10 * MS);
        assertThat(metrics[0].picos(Activity.SPINNING)).isEqualTo(10 * MS);
    }

    /**
     * Linux's wake-up preemption under CFS (before 6.6): one processor; "waiter" parks at once; "spinner" runs from 3 µs,
     * PAUSEs 2 ms, unparks the waiter (10 ns and a 1 µs wake call) and PAUSEs 10 ms. When the
     * waiter wakes (2.008 ms) the spinner's virtual runtime is 2.005 ms, the waiter's 0 (it is
     * placed at most half the 6 ms latency behind the processor's minimum, 2.005 ms − 3 ms, so at
     * its own 0): 2.005 ms behind, more than the 1 ms granularity, so it preempts the spinner's
     * PAUSE batch at once and runs after a context switch.
     */
    @Test
    void shouldPreemptTheRunningThreadWhenAWokenThreadIsFarBehindItOnLinuxCfs() {
        ThreadMetrics[] metrics = new ThreadMetrics[2];
        long[] times = wakeScenario(OperatingSystem.LINUX_CFS, 20_000, metrics);

        assertThat(times[0]).as("preempts at its wake-up, 2.008 ms, runs after the switch").isEqualTo(2_011 * US);
        // Then plain slices (4 ms, fresh each time on Linux), a 3 µs switch between each: waiter 4 ms,
        // spinner 4 ms (it owes 9.99601 ms of its cut batch), waiter 4 ms, spinner 4 ms, waiter's
        // last 2 ms, spinner's last 1.99601 ms.
        assertThat(times[2]).isEqualTo(2_011 * US + 4 * MS + 3 * US + 4 * MS + 3 * US + 4 * MS + 3 * US
                + 4 * MS + 3 * US + 2 * MS);
        assertThat(times[1]).isEqualTo(times[2] + 3 * US + 1_996_010 * NS);
        assertThat(metrics[1].preemptions()).isEqualTo(3);
    }

    /**
     * Linux 6.6 and later (EEVDF; one processor: slice 0.7 ms, ticks every 4 ms from the first
     * dispatch at 0). The spinner runs from 3 µs, protected to the deadline it got as a new thread
     * (half a slice on); the waiter woken at 8 µs is eligible but does not preempt a protected
     * runner, so it waits for the first tick after the spinner's protected slice, 4 ms, and runs
     * after the switch. From then the two alternate at every tick: at each, the runner has had
     * more than its share (ineligible) and the other is picked.
     */
    @Test
    void shouldHandTheProcessorOverAtTheTicksOnLinuxEevdf() {
        ThreadMetrics[] metrics = new ThreadMetrics[2];
        long[] times = boostScenario(OperatingSystem.LINUX, metrics);

        assertThat(times[0]).as("the waiter runs after the tick at 4 ms").isEqualTo(4 * MS + 3 * US);
        assertThat(metrics[1].preemptions()).as("spinner: at 4 and 12 ms").isEqualTo(2);
        assertThat(metrics[0].preemptions()).as("waiter: at 8 and 16 ms").isEqualTo(2);
        // The spinner's 10 ms batch began at 4.01 µs (3 µs switch, 10 ns unpark, 1 µs wake call):
        // 3.99599 ms to 4 ms, 3.997 ms from 8.003 to 12 ms, the last 2.00701 ms from 16.003 ms.
        assertThat(times[1]).isEqualTo(16_003 * US + 2_007_010 * 1_000L);
        // The waiter's: 3.997 ms to 8 ms, 3.997 ms from 12.003 to 16 ms, the last 2.006 ms after the switch.
        assertThat(times[2]).isEqualTo(times[1] + 3 * US + 2_006 * US);
    }

    @Test
    void shouldPreferAWholeIdleCoreWhenPlacingAThreadOnAnSmtPart() {
        for (OperatingSystem os : OperatingSystem.values()) {
            MachineProfile smt = machine(4, os).toBuilder().physicalCores(2).logicalProcessors(4).build();
            Simulation sim = Simulation.builder(smt).seed(1).build();
            SimulatedPlatform platform = sim.platform();
            sim.startThread("first", () -> platform.pause(100));
            sim.startThread("second", () -> platform.pause(100));

            SimulationResult result = sim.run().requireCompleted();

            // "first" takes cpu0 (core 0); "second" prefers cpu1, cpu0's sibling, but core 1 is
            // wholly idle, so it runs on cpu2.
            assertThat(result.metrics().processors()).extracting(p -> p.busyPicos() > 0)
                    .as("%s: busy processors", os).containsExactly(true, false, true, false);
        }
    }

    /**
     * Busy threads that PAUSE 1 µs at a time until {@code until}, on two processors: per thread, the
     * spans (ps) in which it was off its processor for more than a PAUSE batch, each from the start of
     * the batch that ran into the switch to when it ran again.
     */
    private static List<List<long[]>> spinnersAway(OperatingSystem os, int threads, long until, long seed,
            boolean noise) {
        Simulation sim = Simulation.builder(machine(2, os)).seed(seed).noise(noise).build();
        SimulatedPlatform platform = sim.platform();
        List<List<long[]>> away = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            List<long[]> spans = new ArrayList<>();
            away.add(spans);
            sim.startThread("spinner-" + i, () -> {
                long last = platform.nowPicos();
                while (last < until) {
                    platform.pause(10); // 1 µs
                    long now = platform.nowPicos();
                    if (now - last > 2 * US) {
                        spans.add(new long[] {last, now});
                    }
                    last = now;
                }
            });
        }
        sim.run().requireCompleted();
        return away;
    }

    /**
     * Three busy threads on two processors, noise off (both processors' ticks at 0, 4 ms apart):
     * threads 0 and 2 share cpu0, thread 1 runs alone on cpu1; their spans away, up to 100 ms.
     */
    private static List<List<long[]>> threeSpinnersOnTwoProcessors(OperatingSystem os) {
        return spinnersAway(os, 3, 100 * MS, 1, false);
    }

    /**
     * Two spinners per processor on two processors, 40 ms: where each slice ended, as the offset from
     * the last multiple of the 4 ms slice of the start of the 1 µs PAUSE batch that ran into it.
     */
    private static List<Long> sliceEndOffsets(OperatingSystem os, long seed, boolean noise) {
        return spinnersAway(os, 4, 40 * MS, seed, noise).stream().flatMap(List::stream)
                .map(span -> Math.floorMod(span[0], 4 * MS)).toList();
    }

    private static long spread(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElseThrow()
                - values.stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    /**
     * Linux's ticks are aligned (skew_tick off): both processors' slices end at the same instants,
     * at whole slices without noise and at one phase the seed draws for the machine with it.
     * Windows' processors each take a phase of their own.
     */
    @Test
    void shouldEndBothProcessorsSlicesAtTheSameTicksOnLinux() {
        assertThat(sliceEndOffsets(OperatingSystem.LINUX, 1, false)).as("no noise: at whole slices")
                .hasSizeGreaterThan(10).containsOnly(4 * MS - US);
        for (long seed : List.of(1L, 2L, 3L)) {
            List<Long> offsets = sliceEndOffsets(OperatingSystem.LINUX, seed, true);
            assertThat(offsets).as("seed %d: slices ended on both processors", seed).hasSizeGreaterThan(10);
            assertThat(spread(offsets)).as("seed %d: one phase for the machine (a PAUSE batch's jitter apart)", seed)
                    .isLessThanOrEqualTo(2 * US);
        }
        assertThat(spread(sliceEndOffsets(OperatingSystem.WINDOWS, 1, true))).as("Windows: each processor its own phase")
                .isGreaterThan(100 * US);
    }

    /**
     * Linux's periodic balancing: cpu1, whose thread runs alone, balances every 7 jiffies (28 ms),
     * 30 µs after its tick (the softirq), when cpu0's slice that ends at the same aligned tick has
     * switched. At 28 ms its imbalance (half a thread) is less than a whole thread's load, and the
     * balance fails. At 56 ms the load halved once fits: under CFS, whose slices run 4 ms from each
     * dispatch (off the ticks after the first), cpu0's ready thread has waited since 52 ms and moves,
     * and takes cpu1 at its 60 ms tick; under EEVDF, whose slices end at the ticks, cpu0's ready thread
     * was switched out at the 56 ms tick 30 µs before (cache-hot), so the balance fails again; at 84 ms,
     * two failures in a row, the hot thread may move, and it takes cpu1 from the lone thread at the
     * 92 ms tick (it arrives with the negative lag of a thread that has just run its slice). Windows
     * has no such balancing: the lone thread keeps its processor.
     */
    @Test
    void shouldPullAThreadOntoTheLoneThreadsProcessorOnLinuxOnly() {
        Map<OperatingSystem, Long> leaves = Map.of(OperatingSystem.LINUX, 92 * MS, OperatingSystem.LINUX_CFS, 60 * MS);
        for (OperatingSystem os : List.of(OperatingSystem.LINUX, OperatingSystem.LINUX_CFS)) {
            List<long[]> lone = threeSpinnersOnTwoProcessors(os).get(1);

            assertThat(lone).as("%s: the lone thread is away at some point", os).isNotEmpty();
            assertThat(lone.get(0)[0]).as("%s: its last PAUSE batch before it leaves ends in the µs before the tick", os)
                    .isBetween(leaves.get(os) - 2 * US, leaves.get(os));
            assertThat(lone.get(0)[1]).as("%s: away for at least a tick", os).isGreaterThanOrEqualTo(leaves.get(os) + 4 * MS);
        }
        assertThat(threeSpinnersOnTwoProcessors(OperatingSystem.WINDOWS).get(1))
                .as("Windows: the lone thread keeps cpu1").isEmpty();
    }
}
