package io.spinlab.sim.engine;

import io.spinlab.impl.event.Barrier;
import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.trace.ThreadMetrics;
import io.spinlab.sim.workload.MresWaitDrainRate;
import io.spinlab.sim.workload.ThreadCount;
import io.spinlab.sim.workload.Window;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkerGroup;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The primitives keep their contracts under injected faults (spurious wake-ups, preemption of
 * running threads, late wake-ups, clock jitter) over many seeds: every run completes (no lost
 * wake-up, no deadlock) and the invariant each primitive promises holds. A failure message is
 * the run's report, ending with the line that reproduces it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class PrimitivesUnderFaultsTest {

    private static final int SEEDS = Integer.getInteger("spinlab.sim.fault.seeds", 100);
    /** Four processors, so that threads outnumber them and preemption matters. */
    private static final MachineProfile MACHINE = MachinePresets.byName("skylake-i7-6700").withLogicalProcessors(4);
    /** chaos() with more preemption: lock holders are descheduled often. */
    private static final Faults FAULTS = Faults.chaos().withPreemption(0.05, 30_000);
    private static final Budgets BUDGETS = Budgets.defaults().withMaxVirtualNanos(10_000_000_000L)
            .withMaxWallMillis(30_000);

    /** A scenario: runs on the simulation's main thread, throws AssertionError if a contract breaks. */
    @FunctionalInterface
    interface Scenario {
        void run(SpinContext context) throws Exception;
    }

    static Stream<Arguments> scenarios() {
        List<Arguments> list = new ArrayList<>();
        for (String tuning : List.of("current", "legacy")) {
            list.add(Arguments.of("monitor mutual exclusion", tuning, (Scenario) PrimitivesUnderFaultsTest::monitor));
            list.add(Arguments.of("monitor wait/pulse", tuning, (Scenario) PrimitivesUnderFaultsTest::monitorPulse));
            list.add(Arguments.of("spin lock (tracking)", tuning, (Scenario) c -> spinLock(c, true)));
            list.add(Arguments.of("spin lock (anonymous)", tuning, (Scenario) c -> spinLock(c, false)));
            list.add(Arguments.of("semaphore bound", tuning, (Scenario) PrimitivesUnderFaultsTest::semaphore));
            list.add(Arguments.of("barrier phases", tuning, (Scenario) PrimitivesUnderFaultsTest::barrier));
            list.add(Arguments.of("countdown event", tuning, (Scenario) PrimitivesUnderFaultsTest::countdown));
            list.add(Arguments.of("event set/reset", tuning, (Scenario) PrimitivesUnderFaultsTest::eventTimedWaits));
        }
        return list.stream();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("scenarios")
    void shouldKeepContractWhenFaultsAreInjected(String name, String tuning, Scenario scenario) {
        for (long seed = 0; seed < SEEDS; seed++) {
            Simulation sim = Simulation.builder(MACHINE).seed(seed).faults(FAULTS).budgets(BUDGETS)
                    .context("scenario='" + name + "' tuning=" + tuning).build();
            SpinContext context = SpinContext.of(sim.platform(), Tuning.parse(tuning));
            sim.startThread("main", () -> {
                try {
                    scenario.run(context);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            SimulationResult result = sim.run();

            assertThat(result.outcome()).as(result.report()).isEqualTo(Outcome.COMPLETED);
        }
    }

    @ParameterizedTest(name = "tuning {0}")
    @MethodSource("tunings")
    void shouldDrainEveryRoundWhenFaultsAreInjected(String tuning) {
        int waiters = 6;
        MresWaitDrainRate drain = new MresWaitDrainRate(ThreadCount.ofAbsolute(waiters), 0, new Window(0, 1_000_000));
        long injected = 0;
        long windowWakeUps = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            SimulatedRun run = WorkloadRunner.simulate(drain, Tuning.parse(tuning),
                    Simulation.builder(MACHINE).seed(seed).faults(FAULTS).budgets(BUDGETS));

            String report = run.simulation().report();
            assertThat(run.simulation().outcome()).as(report).isEqualTo(Outcome.COMPLETED);
            WorkloadResult result = run.result();
            double rounds = result.metric("rounds");
            assertThat(rounds).as("rounds the setter completed, seed %d: %s", seed, report).isPositive();
            assertThat(result.metric("fewestWaiterRounds")).as("every waiter passed every round, seed %d: %s", seed,
                    report).isEqualTo(rounds);
            assertThat(result.metric("mostWaiterRounds")).as("no waiter passed a round twice, seed %d: %s", seed,
                    report).isEqualTo(rounds);
            // The window is 1 ms: the 2017 spin's PAUSE batches hold 4 processors for ~600 us while
            // the setter waits on one of their queues (SwitchToThread yields only locally), so a
            // shorter window can end before the first round. A window can still fall inside one
            // slow round, so a seed may count no wake-up in it; what it counts belongs to drained rounds.
            assertThat(result.operations()).as("wake-ups counted in the window, seed %d", seed)
                    .isLessThanOrEqualTo((long) rounds * waiters);
            windowWakeUps += result.operations();
            for (ThreadMetrics t : run.simulation().metrics().threads()) {
                injected += t.spuriousWakeUps() + t.preemptions();
            }
        }
        assertThat(injected).as("faults were injected").isGreaterThan(SEEDS);
        assertThat(windowWakeUps).as("wake-ups counted in the windows of all seeds").isGreaterThan(SEEDS);
    }

    /**
     * The checker can fail: an event with a planted lost wake-up (it tests the flag, opens a
     * window, then parks without re-testing) deadlocks on some seeds, and the report names the
     * parked thread and its blocker.
     */
    @org.junit.jupiter.api.Test
    void shouldReportDeadlockWhenEventHasPlantedLostWakeup() {
        int deadlocks = 0;
        for (long seed = 0; seed < 20; seed++) {
            Simulation sim = Simulation.builder(MACHINE).seed(seed).faults(Faults.none().withPreemption(0.05, 30_000))
                    .build();
            SimulatedPlatform platform = sim.platform();
            LostWakeupEvent event = new LostWakeupEvent();
            sim.startThread("waiter", () -> event.await(platform));
            sim.startThread("setter", () -> {
                platform.pause(platform.nextRandom(8));
                event.set(platform);
            });

            SimulationResult result = sim.run();

            if (result.outcome() == Outcome.DEADLOCK) {
                deadlocks++;
                assertThat(result.report()).contains("'waiter' parked on LostWakeupEvent#0")
                        .contains("seed=" + seed);
            } else {
                assertThat(result.outcome()).as(result.report()).isEqualTo(Outcome.COMPLETED);
            }
        }
        assertThat(deadlocks).isPositive();
    }

    /** Broken on purpose: the flag test and the park are not atomic with respect to set(). */
    private static final class LostWakeupEvent {
        volatile boolean set;
        volatile Thread waiter;

        void await(Platform platform) {
            if (!set) {
                platform.pause(1 + platform.nextRandom(4)); // the window
                waiter = Thread.currentThread();
                platform.park(this);
            }
        }

        void set(Platform platform) {
            set = true;
            Thread w = waiter;
            if (w != null) {
                platform.unpark(w);
            }
        }
    }

    static Stream<String> tunings() {
        return Stream.of("current", "legacy", "current,spin=none", "current,spin=proc-scaled,pause=raw");
    }

    // ------------------------------------------------------------------ scenarios

    /** A plain read-modify-write with a scheduling point inside; only mutual exclusion keeps the count. */
    private static final class Counter {
        int value;
        int inside;
        int maxInside;

        void enter() {
            inside++;
            maxInside = Math.max(maxInside, inside);
        }

        void exit() {
            inside--;
        }
    }

    private static void monitor(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        MonitorLock lock = new MonitorLock(context);
        Counter counter = new Counter();
        int threads = 6;
        int rounds = 15;
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int i = 0; i < threads; i++) {
            group.start("worker-" + i, () -> {
                for (int r = 0; r < rounds; r++) {
                    lock.enter();
                    try {
                        counter.enter();
                        int seen = counter.value;
                        platform.pause(1 + platform.nextRandom(20));
                        counter.value = seen + 1;
                        counter.exit();
                    } finally {
                        lock.exit();
                    }
                    platform.pause(platform.nextRandom(40));
                }
            });
        }
        group.join(1, TimeUnit.HOURS);
        check(counter.value == threads * rounds, "count " + counter.value + " != " + threads * rounds);
        check(counter.maxInside == 1, "max inside " + counter.maxInside);
    }

    private static void monitorPulse(SpinContext context) throws InterruptedException {
        MonitorLock lock = new MonitorLock(context);
        int consumers = 4;
        int items = 20;
        int[] queue = new int[1];
        int[] consumed = new int[1];
        WorkerGroup group = new WorkerGroup(context, consumers);
        for (int i = 0; i < consumers; i++) {
            group.start("consumer-" + i, () -> {
                for (int n = 0; n < items / consumers; n++) {
                    lock.enter();
                    try {
                        while (queue[0] == 0) {
                            lock.await();
                        }
                        queue[0]--;
                        consumed[0]++;
                    } finally {
                        lock.exit();
                    }
                }
            });
        }
        for (int n = 0; n < items; n++) {
            context.platform().pause(context.platform().nextRandom(200));
            lock.enter();
            try {
                queue[0]++;
                lock.pulse();
            } finally {
                lock.exit();
            }
        }
        group.join(1, TimeUnit.HOURS);
        check(consumed[0] == items && queue[0] == 0, "consumed " + consumed[0] + ", left " + queue[0]);
    }

    private static void spinLock(SpinContext context, boolean tracking) throws InterruptedException {
        Platform platform = context.platform();
        SpinLock lock = new SpinLock(context, tracking);
        Counter counter = new Counter();
        int threads = 6;
        int rounds = 10;
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int i = 0; i < threads; i++) {
            group.start("worker-" + i, () -> {
                for (int r = 0; r < rounds; r++) {
                    lock.enter();
                    try {
                        counter.enter();
                        int seen = counter.value;
                        platform.pause(1 + platform.nextRandom(10));
                        counter.value = seen + 1;
                        counter.exit();
                    } finally {
                        lock.exit();
                    }
                    platform.pause(platform.nextRandom(40));
                }
            });
        }
        group.join(1, TimeUnit.HOURS);
        check(counter.value == threads * rounds, "count " + counter.value + " != " + threads * rounds);
        check(counter.maxInside == 1, "max inside " + counter.maxInside);
    }

    private static void semaphore(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int permits = 2;
        SemaphoreSlim semaphore = new SemaphoreSlim(context, permits);
        Counter counter = new Counter();
        int threads = 6;
        int rounds = 10;
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int i = 0; i < threads; i++) {
            group.start("worker-" + i, () -> {
                for (int r = 0; r < rounds; r++) {
                    semaphore.acquire();
                    counter.enter();
                    platform.pause(1 + platform.nextRandom(50));
                    counter.value++;
                    counter.exit();
                    semaphore.release();
                }
            });
        }
        group.join(1, TimeUnit.HOURS);
        check(counter.maxInside <= permits, "max holders " + counter.maxInside);
        check(semaphore.currentCount() == permits, "permits left " + semaphore.currentCount());
        check(counter.value == threads * rounds, "count " + counter.value);
    }

    private static void barrier(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int parties = 5;
        int phases = 8;
        int[] arrivals = new int[phases];
        Barrier barrier = new Barrier(context, parties);
        WorkerGroup group = new WorkerGroup(context, parties);
        for (int i = 0; i < parties; i++) {
            group.start("party-" + i, () -> {
                for (int phase = 0; phase < phases; phase++) {
                    platform.pause(platform.nextRandom(100));
                    arrivals[phase]++;
                    barrier.signalAndWait();
                    check(arrivals[phase] == parties, "released from phase " + phase + " after " + arrivals[phase]
                            + " arrivals");
                }
            });
        }
        group.join(1, TimeUnit.HOURS);
        check(barrier.currentPhase() == phases, "phase " + barrier.currentPhase());
    }

    private static void countdown(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int signalers = 5;
        CountdownEvent countdown = new CountdownEvent(context, signalers);
        WorkerGroup group = new WorkerGroup(context, signalers + 2);
        for (int i = 0; i < signalers; i++) {
            group.start("signaler-" + i, () -> {
                platform.pause(platform.nextRandom(500));
                countdown.signal();
            });
        }
        for (int i = 0; i < 2; i++) {
            group.start("waiter-" + i, () -> {
                countdown.await();
                check(countdown.isSet(), "passed before zero");
            });
        }
        countdown.await();
        group.join(1, TimeUnit.HOURS);
        check(countdown.currentCount() == 0, "count " + countdown.currentCount());
    }

    /** Timed waits on an event that is set late: each either times out or sees the event set. */
    private static void eventTimedWaits(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        ManualResetEvent event = new ManualResetEvent(context);
        int waiters = 5;
        WorkerGroup group = new WorkerGroup(context, waiters);
        for (int i = 0; i < waiters; i++) {
            long timeoutMicros = 5 + 10L * i;
            group.start("waiter-" + i, () -> {
                boolean set = event.await(timeoutMicros, TimeUnit.MICROSECONDS);
                check(!set || event.isSet(), "await returned true on an unset event");
                if (!set) {
                    event.await();
                }
            });
        }
        platform.pause(500); // ~20 µs
        event.set();
        group.join(1, TimeUnit.HOURS);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
