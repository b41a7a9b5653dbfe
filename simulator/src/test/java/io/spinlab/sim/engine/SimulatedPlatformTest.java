package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.OperatingSystem;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.ThreadMetrics;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Engine semantics with exact expected virtual times: every figure below follows from the
 * machine profile and the cost rules in {@code OsCosts} and {@code Engine}, to the picosecond.
 */
class SimulatedPlatformTest {

    private static final long NS = 1_000L;
    private static final long US = 1_000_000L;
    private static final long MS = 1_000_000_000L;

    /**
     * 1 GHz (1 ns per cycle), a 100-cycle PAUSE (100 ns), clock read 20 ns, atomic 10 ns,
     * context switch 3 µs, wake latency 5 µs, a wake-up's system call 1 µs to the waker, yield
     * 3 µs / 300 ns, sleep granularity 1.06 ms, time slice 4 ms.
     */
    static MachineProfile round(int processors) {
        return MachineProfile.builder("round")
                .frequencyGhz(1.0)
                .pauseCycles(100)
                .physicalCores(processors)
                .logicalProcessors(processors)
                .clockReadNs(20)
                .atomicOpNs(10)
                .contextSwitchNs(3_000)
                .wakeLatencyNs(5_000)
                .wakeCallNs(1_000)
                .yieldReadyNs(3_000)
                .yieldIdleNs(300)
                .sleepGranularityNs(1_060_000)
                .timeSliceNs(4_000_000)
                .build();
    }

    private static Simulation sim(MachineProfile machine) {
        return Simulation.builder(machine).seed(1).build();
    }

    @Test
    void shouldChargeExactlyNPausesWhenThreadPausesOnSkylake() {
        MachineProfile skylake = MachinePresets.byName("skylake-i7-6700");
        Simulation sim = sim(skylake);
        SimulatedPlatform platform = sim.platform();
        AtomicLong batch = new AtomicLong();
        AtomicLong single = new AtomicLong();
        sim.startThread("spinner", () -> {
            long t0 = platform.nowPicos();
            platform.pause(1_000);
            long t1 = platform.nowPicos();
            for (int i = 0; i < 1_000; i++) {
                platform.pause(1);
            }
            long t2 = platform.nowPicos();
            batch.set(t1 - t0);
            single.set(t2 - t1);
        });

        SimulationResult result = sim.run().requireCompleted();

        // 140 cycles at 3.4 GHz = 41.176470... ns, rounded once to 41,176 ps.
        assertThat(skylake.picosPerPause()).isEqualTo(41_176);
        assertThat(batch.get()).isEqualTo(1_000 * 41_176L).isEqualTo(skylake.pausePicos(1_000));
        assertThat(single.get()).isEqualTo(batch.get());
        assertThat(result.endPicos()).isEqualTo(2_000 * 41_176L);
        assertThat(result.metrics().thread("spinner").picos(Activity.SPINNING)).isEqualTo(2_000 * 41_176L);
    }

    @Test
    void shouldChargeOneCycleWhenPauseCostsNothing() {
        MachineProfile free = round(1).withPauseCycles(0);
        Simulation sim = sim(free);
        SimulatedPlatform platform = sim.platform();
        AtomicLong elapsed = new AtomicLong();
        sim.startThread("spinner", () -> {
            long t0 = platform.nowPicos();
            platform.pause(1_000_000);
            elapsed.set(platform.nowPicos() - t0);
        });

        sim.run().requireCompleted();

        assertThat(elapsed.get()).isEqualTo(1 * NS);
    }

    /** Threads "a" and "b" each PAUSE 10 ms, in 1 ms calls, on one processor under {@code os}. */
    private static SimulationResult twoSpinnersOnOneProcessor(OperatingSystem os) {
        Simulation sim = sim(round(1).toBuilder().os(os).build());
        SimulatedPlatform platform = sim.platform();
        Runnable tenMillis = () -> {
            for (int i = 0; i < 10; i++) {
                platform.pause(10_000); // 1 ms
            }
        };
        sim.startThread("a", tenMillis);
        sim.startThread("b", tenMillis);
        return sim.run().requireCompleted();
    }

    /**
     * The same two spinners under EEVDF (one processor: 0.7 ms slices, ticks at 0, 4, 8 ms ...):
     * a 0–4 ms; b from 4.003 ms, and at the tick at 8 ms b (v 3.997 ms) is still eligible against
     * a (4 ms), so it keeps the processor to 12 ms; a 12.003–16 ms; at 16 ms both have 7.997 ms and
     * equal deadlines, and the runner loses the tie: b 16.003–18.006 ms, a 18.009–20.012 ms.
     */
    @Test
    void shouldShareOneProcessorAtTicksByEligibilityUnderEevdf() {
        SimulationResult result = twoSpinnersOnOneProcessor(OperatingSystem.LINUX);

        ThreadMetrics a = result.metrics().thread("a");
        ThreadMetrics b = result.metrics().thread("b");
        assertThat(b.endPicos()).isEqualTo(18 * MS + 6 * US);
        assertThat(a.endPicos()).isEqualTo(20 * MS + 12 * US);
        assertThat(a.preemptions()).isEqualTo(2);
        assertThat(b.preemptions()).isEqualTo(1);
    }

    @Test
    void shouldShareOneProcessorByTimeSlicesWhenTwoThreadsSpin() {
        // fixed slices from each dispatch, as Windows' quanta and the CFS rule give them
        SimulationResult result = twoSpinnersOnOneProcessor(OperatingSystem.LINUX_CFS);

        // a: 0-4 ms, b: 4.003-8.003, a: 8.006-12.006, b: 12.009-16.009, a: 16.012-18.012, b: 18.015-20.015.
        ThreadMetrics a = result.metrics().thread("a");
        ThreadMetrics b = result.metrics().thread("b");
        assertThat(a.endPicos()).isEqualTo(18 * MS + 12 * US);
        assertThat(b.endPicos()).isEqualTo(20 * MS + 15 * US);
        assertThat(a.picos(Activity.SPINNING)).isEqualTo(10 * MS);
        assertThat(a.picos(Activity.RUNNABLE)).isEqualTo(8 * MS + 12 * US);
        assertThat(b.picos(Activity.RUNNABLE)).isEqualTo(10 * MS + 15 * US);
        assertThat(a.preemptions()).isEqualTo(2);
        assertThat(b.preemptions()).isEqualTo(2);
        assertThat(a.accountedPicos()).isEqualTo(a.endPicos() - a.startPicos());
        assertThat(b.accountedPicos()).isEqualTo(b.endPicos() - b.startPicos());
        assertThat(result.metrics().processors().get(0).switchPicos()).isEqualTo(5 * 3 * US);
    }

    @Test
    void shouldQueueThreadsWhenMoreThreadsThanProcessors() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        for (String name : new String[] {"t0", "t1", "t2"}) {
            sim.startThread(name, () -> platform.pause(10_000));
        }

        SimulationResult result = sim.run().requireCompleted();

        assertThat(result.metrics().thread("t0").endPicos()).isEqualTo(1 * MS);
        assertThat(result.metrics().thread("t1").endPicos()).isEqualTo(1 * MS);
        // t2 takes cpu0 when t0 ends, after a context switch.
        assertThat(result.metrics().thread("t2").endPicos()).isEqualTo(2 * MS + 3 * US);
        assertThat(result.metrics().thread("t2").picos(Activity.RUNNABLE)).isEqualTo(1 * MS + 3 * US);
    }

    @Test
    void shouldWakeAfterWakeLatencyWhenUnparked() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        Object gate = new Object();
        AtomicLong wokeAt = new AtomicLong();
        AtomicLong unparkerAfter = new AtomicLong();
        Thread sleeper = sim.startThread("parker", () -> {
            platform.park(gate);
            wokeAt.set(platform.nowPicos());
        });
        sim.startThread("unparker", () -> {
            platform.pause(1_000); // 100 µs
            platform.unpark(sleeper);
            unparkerAfter.set(platform.nowPicos());
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(wokeAt.get()).isEqualTo(100 * US + 5 * US);
        assertThat(unparkerAfter.get()).as("the waker pays the atomic and the wake-up's system call")
                .isEqualTo(100 * US + 10 * NS + 1 * US);
        ThreadMetrics parker = result.metrics().thread("parker");
        assertThat(parker.picos(Activity.PARKED)).isEqualTo(105 * US);
        assertThat(parker.wakeUps()).isEqualTo(1);
        assertThat(result.metrics().blockers()).singleElement().satisfies(b -> {
            assertThat(b.name()).isEqualTo("Object#0");
            assertThat(b.waits()).isEqualTo(1);
            assertThat(b.maxWaiters()).isEqualTo(1);
            assertThat(b.totalWaitPicos()).isEqualTo(105 * US);
        });
    }

    @Test
    void shouldReturnAtOnceWhenParkFindsPermit() {
        Simulation sim = sim(round(1));
        SimulatedPlatform platform = sim.platform();
        AtomicLong elapsed = new AtomicLong();
        sim.startThread("self", () -> {
            platform.unpark(Thread.currentThread());
            long t0 = platform.nowPicos();
            platform.park(this);
            elapsed.set(platform.nowPicos() - t0);
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(elapsed.get()).isEqualTo(10 * NS);
        assertThat(result.metrics().blockers()).isEmpty();
    }

    @Test
    void shouldCostIdleYieldWhenNoThreadIsReady() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        AtomicLong elapsed = new AtomicLong();
        sim.startThread("yielder", () -> {
            long t0 = platform.nowPicos();
            platform.yieldThread();
            platform.sleep(0);
            elapsed.set(platform.nowPicos() - t0);
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(elapsed.get()).isEqualTo(2 * 300 * NS);
        assertThat(result.metrics().thread("yielder").picos(Activity.YIELDING)).isEqualTo(600 * NS);
        assertThat(result.metrics().thread("yielder").contextSwitches()).isZero();
    }

    @Test
    void shouldSwitchToReadyThreadWhenYielding() {
        Simulation sim = sim(round(1));
        SimulatedPlatform platform = sim.platform();
        AtomicLong yieldReturned = new AtomicLong();
        AtomicLong otherStarted = new AtomicLong();
        sim.startThread("yielder", () -> {
            platform.yieldThread();
            yieldReturned.set(platform.nowPicos());
        });
        sim.startThread("other", () -> {
            otherStarted.set(platform.nowPicos());
            platform.pause(10); // 1 µs
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(otherStarted.get()).isEqualTo(3 * US);
        // other ends at 4 µs; the yielder gets the processor back after a context switch.
        assertThat(yieldReturned.get()).isEqualTo(7 * US);
        ThreadMetrics yielder = result.metrics().thread("yielder");
        assertThat(yielder.picos(Activity.YIELDING)).isEqualTo(3 * US);
        assertThat(yielder.picos(Activity.RUNNABLE)).isEqualTo(4 * US);
        assertThat(yielder.contextSwitches()).isEqualTo(1);
    }

    @Test
    void shouldRoundSleepsUpToTimerGranularity() {
        Simulation sim = sim(round(1));
        SimulatedPlatform platform = sim.platform();
        AtomicLong oneMs = new AtomicLong();
        AtomicLong oneAndHalfMs = new AtomicLong();
        sim.startThread("sleeper", () -> {
            long t0 = platform.nowPicos();
            platform.sleep(1_000_000);
            long t1 = platform.nowPicos();
            platform.sleep(1_500_000);
            long t2 = platform.nowPicos();
            oneMs.set(t1 - t0);
            oneAndHalfMs.set(t2 - t1);
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(oneMs.get()).isEqualTo(1 * MS + 60 * US);
        assertThat(oneAndHalfMs.get()).isEqualTo(2 * MS + 120 * US);
        assertThat(result.metrics().thread("sleeper").picos(Activity.SLEEPING)).isEqualTo(3 * MS + 180 * US);
    }

    @Test
    void shouldSleepWholeTimerTicksWhenMachineRunsWindows() {
        Simulation sim = sim(MachinePresets.byName("windows-skylake-i7-6700"));
        SimulatedPlatform platform = sim.platform();
        AtomicLong elapsed = new AtomicLong();
        sim.startThread("sleeper", () -> {
            long t0 = platform.nowPicos();
            platform.sleep(1_000_000);
            elapsed.set(platform.nowPicos() - t0);
        });

        sim.run().requireCompleted();

        assertThat(elapsed.get()).isEqualTo(15_625 * US);
    }

    @Test
    void shouldTimeOutTimedParkAfterTimeoutPlusWakeLatency() {
        Simulation sim = sim(round(1));
        SimulatedPlatform platform = sim.platform();
        AtomicLong elapsed = new AtomicLong();
        sim.startThread("timed", () -> {
            long t0 = platform.nowPicos();
            platform.parkNanos(this, 10_000);
            elapsed.set(platform.nowPicos() - t0);
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(elapsed.get()).isEqualTo(10 * US + 5 * US);
        assertThat(result.metrics().thread("timed").wakeUps()).isEqualTo(1);
    }

    @Test
    void shouldIgnoreTimeoutWhenTimedParkIsUnparkedFirst() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        AtomicLong firstWake = new AtomicLong();
        AtomicLong secondWake = new AtomicLong();
        Thread parker = sim.startThread("timed", () -> {
            platform.parkNanos(this, 10_000);
            firstWake.set(platform.nowPicos());
            platform.park(this); // must not be woken by the stale 10 µs timeout
            secondWake.set(platform.nowPicos());
        });
        sim.startThread("unparker", () -> {
            platform.pause(20); // 2 µs
            platform.unpark(parker);
            platform.pause(1_000); // from 3.01 µs (the atomic and the wake call) to 103.01 µs
            platform.unpark(parker);
        });

        sim.run().requireCompleted();

        assertThat(firstWake.get()).isEqualTo(7 * US);
        assertThat(secondWake.get()).isEqualTo(103 * US + 10 * NS + 5 * US);
    }

    /**
     * The waker pays {@code wakeCallNs} (1 µs) only for an unpark that wakes a parked thread: a
     * second unpark before the woken thread runs, and an unpark of a running thread (which only
     * sets its permit), cost the atomic (10 ns).
     */
    @Test
    void shouldChargeTheWakeCallOnlyForAnUnparkThatWakesAParkedThread() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        AtomicLong woke = new AtomicLong();
        long[] after = new long[3];
        Thread parker = sim.startThread("parker", () -> {
            platform.park(this);
            woke.set(platform.nowPicos());
            platform.pause(1_000); // 100 µs, running
        });
        sim.startThread("unparker", () -> {
            platform.pause(100); // 10 µs: the parker is asleep
            platform.unpark(parker);
            after[0] = platform.nowPicos();
            platform.unpark(parker);
            after[1] = platform.nowPicos();
            platform.pause(100); // 10 µs: the parker runs by now
            platform.unpark(parker);
            after[2] = platform.nowPicos();
        });

        sim.run().requireCompleted();

        assertThat(woke.get()).isEqualTo(10 * US + 5 * US);
        assertThat(after[0]).as("wakes the parked thread").isEqualTo(10 * US + 10 * NS + 1 * US);
        assertThat(after[1]).as("already being woken").isEqualTo(after[0] + 10 * NS);
        assertThat(after[2]).as("running: only its permit").isEqualTo(after[1] + 10 * US + 10 * NS);
    }

    /**
     * A thread is asleep half a context switch (1.5 µs) after it parks. An unpark 1 µs after the
     * park reaches it on its way into the kernel: the waker pays the atomic and a bare system call
     * (yieldIdleNs, 300 ns) instead of the wake-up's 1 µs, and the parker runs again one context
     * switch after its park (switched out and back in), at 3 µs, without the 5 µs wake latency.
     * An unpark at 1.5 µs finds it asleep.
     */
    @Test
    void shouldWakeAThreadThatIsNotAsleepYetWithoutTheWakeLatency() {
        for (OperatingSystem os : OperatingSystem.values()) {
            Simulation sim = sim(round(2).toBuilder().os(os).build());
            SimulatedPlatform platform = sim.platform();
            AtomicLong woke = new AtomicLong();
            long[] after = new long[1];
            Thread parker = sim.startThread("parker", () -> {
                platform.park(this);
                woke.set(platform.nowPicos());
            });
            sim.startThread("unparker", () -> {
                platform.pause(10); // 1 µs after the park
                platform.unpark(parker);
                after[0] = platform.nowPicos();
            });

            SimulationResult result = sim.run().requireCompleted();

            assertThat(woke.get()).as(os + ": switched out and back in").isEqualTo(3 * US);
            assertThat(after[0]).as(os + ": the atomic and a bare system call").isEqualTo(1 * US + 10 * NS + 300 * NS);
            assertThat(result.metrics().thread("parker").picos(Activity.PARKED)).isEqualTo(3 * US);
        }

        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        AtomicLong woke = new AtomicLong();
        Thread parker = sim.startThread("parker", () -> {
            platform.park(this);
            woke.set(platform.nowPicos());
        });
        sim.startThread("unparker", () -> {
            platform.pause(15); // 1.5 µs: asleep
            platform.unpark(parker);
        });
        sim.run().requireCompleted();
        assertThat(woke.get()).as("asleep: the wake latency").isEqualTo(1_500 * NS + 5 * US);
    }

    /**
     * Two threads hand a turn back and forth by park and unpark, each unparking the other as soon as it
     * runs. With the parker's way back in always exactly one context switch after its park, such a
     * pair fell into a state in which every unpark came 5 ns inside the asleep threshold (half a
     * switch after the other's park) and a hand-over took 1.5 µs instead of a wake latency, and
     * stayed there: 2.0–3.7 µs per hand-over on average over these runs (Skylake preset, seeds 1–3).
     * The way back in is a context switch jittered like the other costs, so a pair cannot hold that
     * state and a hand-over takes the wake latency, 5 µs ± 50 % (4.9–5.0 µs on average here), as a
     * ping-pong through two events measured on Windows does (about 4 µs per signal, the figure in
     * MachineProfile).
     */
    @Test
    void shouldHandATurnBackAndForthByParkAndUnparkAtAboutTheWakeLatencyWithNoise() {
        for (OperatingSystem os : OperatingSystem.values()) {
            for (long seed = 1; seed <= 3; seed++) {
                MachineProfile skylake = MachinePresets.byName("skylake-i7-6700").toBuilder().os(os).build();
                Simulation sim = Simulation.builder(skylake).seed(seed).noise(true).build();
                SimulatedPlatform platform = sim.platform();
                int handovers = 2_000;
                int[] turn = {0};
                long[] span = new long[2];
                Thread[] players = new Thread[2];
                for (int i = 0; i < 2; i++) {
                    int me = i;
                    players[i] = sim.startThread("player-" + i, () -> {
                        if (me == 0) {
                            span[0] = platform.nanoTime(); // a clock read: the other parks first
                        }
                        for (int k = 0; k < handovers / 2; k++) {
                            while (turn[0] != me) {
                                platform.park(this);
                            }
                            turn[0] = 1 - me;
                            platform.unpark(players[1 - me]);
                        }
                        span[1] = Math.max(span[1], platform.nanoTime());
                    });
                }

                sim.run().requireCompleted();

                double perHandover = (span[1] - span[0]) * NS / (double) handovers;
                assertThat(perHandover).as(os + ", seed " + seed + ": ps per hand-over")
                        .isBetween(4.5 * US, 5.5 * US);
            }
        }
    }

    /**
     * With the largest cost jitter a profile allows (100 %), the switch that brings back a thread
     * unparked before it was asleep can be drawn shorter than the time since its park: the thread
     * then runs again at the unpark, never before it.
     */
    @Test
    void shouldNotBringBackAThreadUnparkedBeforeSleepEarlierThanTheUnparkWithTheLargestJitter() {
        for (long seed = 1; seed <= 20; seed++) {
            Simulation sim = Simulation.builder(round(2).toBuilder().costJitterPercent(100).build()).seed(seed)
                    .noise(true).build();
            SimulatedPlatform platform = sim.platform();
            long[] unparkedAt = new long[1];
            long[] ranAt = new long[1];
            Thread parker = sim.startThread("parker", () -> {
                platform.park(this);
                ranAt[0] = platform.nowPicos();
            });
            sim.startThread("unparker", () -> {
                platform.pause(14); // 1.4 µs after the park: not asleep yet
                unparkedAt[0] = platform.nowPicos();
                platform.unpark(parker);
            });

            sim.run().requireCompleted();

            assertThat(ranAt[0]).as("seed " + seed).isGreaterThanOrEqualTo(unparkedAt[0]);
        }
    }

    /**
     * On Windows a thread whose wait a signal satisfies is boosted even when the signal came before
     * it was asleep: woken 1 µs after its park, it preempts the unboosted thread that took its
     * processor (a PAUSE batch cut short) at 3 µs and runs one switch later, instead of waiting
     * 100 µs for the waker's processor.
     */
    @Test
    void shouldBoostAThreadWokenBeforeItWasAsleepOnWindows() {
        Simulation sim = sim(round(2).toBuilder().os(OperatingSystem.WINDOWS).build());
        SimulatedPlatform platform = sim.platform();
        AtomicLong woke = new AtomicLong();
        boolean[] stop = new boolean[1];
        Thread parker = sim.startThread("parker", () -> {
            platform.park(this);
            woke.set(platform.nowPicos());
            stop[0] = true;
        });
        sim.startThread("waker", () -> {
            platform.pause(10); // 1 µs after the park: not asleep yet
            platform.unpark(parker);
            platform.pause(1_000); // 100 µs on its own processor
        });
        sim.startThread("hog", () -> {
            while (!stop[0]) {
                platform.pause(100);
            }
        });

        sim.run().requireCompleted();

        assertThat(woke.get()).as("boosted: preempts the hog").isEqualTo(3 * US + 3 * US);
    }

    @Test
    void shouldChargeClockReadWhenReadingNanoTime() {
        Simulation sim = sim(round(1));
        SimulatedPlatform platform = sim.platform();
        AtomicLong first = new AtomicLong();
        AtomicLong second = new AtomicLong();
        sim.startThread("reader", () -> {
            platform.pause(1); // 100 ns
            first.set(platform.nanoTime());
            second.set(platform.nanoTime());
        });

        sim.run().requireCompleted();

        assertThat(first.get()).isEqualTo(100);
        assertThat(second.get()).isEqualTo(120);
        assertThat(platform.processorCount()).isEqualTo(1);
    }

    @Test
    void shouldStartChildOnIdleProcessorWhenThreadStartsThread() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        AtomicLong childStarted = new AtomicLong();
        AtomicLong parentAfter = new AtomicLong();
        AtomicReference<String> childName = new AtomicReference<>();
        sim.startThread("parent", () -> {
            platform.pause(10); // 1 µs
            platform.startThread("child", () -> {
                childStarted.set(platform.nowPicos());
                childName.set(Thread.currentThread().getName());
            });
            parentAfter.set(platform.nowPicos());
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(childStarted.get()).isEqualTo(1 * US);
        assertThat(parentAfter.get()).isEqualTo(1 * US + 3 * US);
        assertThat(childName.get()).isEqualTo("child");
        assertThat(result.metrics().threads()).hasSize(2);
    }

    @Test
    void shouldCountMaxSimultaneousWaitersPerBlocker() {
        Simulation sim = sim(round(4));
        SimulatedPlatform platform = sim.platform();
        Object gate = new Object();
        Thread[] waiters = new Thread[3];
        for (int i = 0; i < 3; i++) {
            waiters[i] = sim.startThread("waiter-" + i, () -> platform.park(gate));
        }
        sim.startThread("releaser", () -> {
            platform.pause(10);
            for (Thread w : waiters) {
                platform.unpark(w);
            }
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(result.metrics().blocker("Object#0").maxWaiters()).isEqualTo(3);
        assertThat(result.metrics().blocker("Object#0").waits()).isEqualTo(3);
        for (ThreadMetrics t : result.metrics().threads()) {
            assertThat(t.accountedPicos()).as(t.name()).isEqualTo(t.endPicos() - t.startPicos());
        }
    }

    @Test
    void shouldCountSpinWaitersAndTheirTimeWhenThreadsWaitWithoutParking() {
        Simulation sim = sim(round(4));
        SimulatedPlatform platform = sim.platform();
        Object lock = new Object();
        for (int i = 0; i < 3; i++) {
            int pauses = 1_000 * (i + 1); // 100, 200, 300 µs of waiting, all from t = 0
            sim.startThread("spinner-" + i, () -> {
                platform.beginSpinWait(lock);
                platform.pause(pauses);
                platform.endSpinWait(lock);
                platform.pause(1_000);
            });
        }

        SimulationResult result = sim.run().requireCompleted();

        var blocker = result.metrics().blocker("Object#0");
        assertThat(blocker.spinWaits()).isEqualTo(3);
        assertThat(blocker.maxSpinWaiters()).isEqualTo(3);
        assertThat(blocker.totalSpinWaitPicos()).isEqualTo(600 * US);
        assertThat(blocker.waits()).as("parks").isZero();
        // 600 µs of waiting over a 400 µs run: 1.5 waiters on average.
        assertThat(result.endPicos()).isEqualTo(400 * US);
        assertThat(result.metrics().meanSpinWaiters("Object#0")).isEqualTo(1.5);
        assertThat(result.metrics().table()).contains("spin waits 3", "max spinners 3");
    }

    @Test
    void shouldNotChangeTheScheduleWhenThreadsReportSpinWaits() {
        Object lock = new Object();
        String[] digests = new String[2];
        for (int run = 0; run < 2; run++) {
            boolean report = run == 1;
            Simulation sim = sim(round(1));
            SimulatedPlatform platform = sim.platform();
            for (int i = 0; i < 2; i++) {
                sim.startThread("t" + i, () -> {
                    if (report) {
                        platform.beginSpinWait(lock);
                    }
                    platform.yieldThread();
                    platform.pause(10);
                    if (report) {
                        platform.endSpinWait(lock);
                    }
                });
            }
            digests[run] = sim.run().requireCompleted().digest();
        }
        assertThat(digests[1]).isEqualTo(digests[0]);
    }

    @Test
    void shouldFailTheThreadWhenSpinWaitsNestOrEndUnbegun() {
        Simulation sim = sim(round(2));
        SimulatedPlatform platform = sim.platform();
        sim.startThread("nests", () -> {
            platform.beginSpinWait("a");
            platform.beginSpinWait("b");
        });
        SimulationResult nested = sim.run();
        assertThat(nested.completed()).isFalse();
        assertThat(nested.failure()).get().asString().contains("spin waits do not nest");
        assertThat(nested.report()).contains("spin-waiting on String#0");

        Simulation other = sim(round(2));
        other.startThread("unbegun", () -> other.platform().endSpinWait("a"));
        assertThat(other.run().failure()).get().asString().contains("had not begun");
    }

    @Test
    void shouldRejectPlatformCallsFromOutsideTheSimulation() {
        Simulation sim = sim(round(1));

        assertThatThrownBy(() -> sim.platform().nanoTime())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not the running thread of this simulation");
    }

    @Test
    void shouldPreemptALongPauseBatchAtTheEndOfTheTimeSlice() {
        Simulation sim = sim(round(1));
        SimulatedPlatform platform = sim.platform();
        AtomicLong workerStart = new AtomicLong();
        AtomicLong pauseEnd = new AtomicLong();
        sim.startThread("spinner", () -> {
            platform.pause(100_000); // 10 ms of PAUSE, two and a half slices
            pauseEnd.set(platform.nowPicos());
        });
        sim.startThread("worker", () -> workerStart.set(platform.nowPicos()));

        SimulationResult result = sim.run().requireCompleted();

        // The batch stops at the slice end (4 ms), the worker runs after one switch, the spinner
        // comes back after another and PAUSEs its remaining 6 ms, uninterrupted with nobody ready.
        assertThat(workerStart.get()).isEqualTo(4 * MS + 3 * US);
        assertThat(pauseEnd.get()).isEqualTo(10 * MS + 6 * US);
        assertThat(result.metrics().thread("spinner").picos(Activity.SPINNING)).isEqualTo(10 * MS);
        assertThat(result.metrics().thread("spinner").preemptions()).isEqualTo(1);
    }
}
