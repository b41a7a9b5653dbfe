package io.spinlab.sim.engine;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.pool.LifoSemaphore;
import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timing half of the primitives' timed waits, which real-thread tests cannot assert on a
 * loaded machine: a timed wait that nothing satisfies returns false, never before its timeout
 * has passed on the platform's clock, and, the run being deterministic, after exactly the
 * virtual time pinned below: the 1 ms timeout plus what the primitive does around it (the
 * wake-up from its last timed park, its clock reads; a spin lock's last SpinWait round). The
 * legacy ManualResetEvent returns 306 us late: its processor-scaled spin phase (about 300 us
 * on an 8-processor Skylake, coreclr #13556) does not look at the deadline, as .NET's did not.
 * The legacy MonitorLock.tryEnter returns 1.25 ms late: the 2017 AwareLock looks at the deadline
 * only between its raw back-off delays, and the delay running at 1 ms is 36,450 PAUSEs (~1.3 ms).
 * A change to a pinned figure is a change of timing behaviour: explain it in the commit. (The
 * legacy SpinLock's 168 us and LifoSemaphore's 287 ns more since netcore2.0's SpinWait spins an
 * eleventh time, 4,096 PAUSEs, before it yields: {@code NextSpinWillYield} is {@code count > 10}.)
 * SemaphoreSlim returns as soon as its timed Monitor wait reports the timeout, as .NET's
 * {@code WaitUntilCountOrTimeout} does, without reading the clock once more (20 ns less than the
 * lock-free protocol it had before the {@code semaphore} knob); netcore2.0's longer spin changes
 * nothing here, as the deadline is counted from before the spin.
 */
class TimedWaitsInVirtualTimeTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** One timed wait that nothing satisfies; returns what it returned. */
    @FunctionalInterface
    interface TimedWait {
        boolean await(SpinContext context, SimulatedPlatform platform) throws InterruptedException;
    }

    /** Virtual ns from the call to its false, per tuning: current, legacy, current with spin=none. */
    private static final Map<String, long[]> EXPECTED_NANOS = Map.of(
            "ManualResetEvent.await", new long[] {1_005_100, 1_306_133, 1_005_100},
            "SemaphoreSlim.tryAcquire", new long[] {1_005_080, 1_005_080, 1_005_080},
            "LifoSemaphore.await (spinning)", new long[] {1_007_118, 1_007_385, 1_007_118},
            "MonitorLock.await", new long[] {1_005_060, 1_005_060, 1_005_060},
            "MonitorLock.tryEnter (held)", new long[] {1_008_060, 2_253_468, 1_008_060},
            "SpinLock.tryEnter (held)", new long[] {1_068_053, 1_405_989, 1_068_053});

    private static final List<String> TUNINGS = List.of("current", "legacy", "current,spin=none");

    static Stream<Arguments> waits() {
        List<Arguments> list = new ArrayList<>();
        for (String tuning : TUNINGS) {
            list.add(Arguments.of("ManualResetEvent.await", tuning, (TimedWait) (c, p) ->
                    new ManualResetEvent(c).await(TIMEOUT_NANOS, TimeUnit.NANOSECONDS)));
            list.add(Arguments.of("SemaphoreSlim.tryAcquire", tuning, (TimedWait) (c, p) ->
                    new SemaphoreSlim(c, 0).tryAcquire(TIMEOUT_NANOS, TimeUnit.NANOSECONDS)));
            list.add(Arguments.of("LifoSemaphore.await (spinning)", tuning, (TimedWait) (c, p) ->
                    new LifoSemaphore(c, 0, 10, 10).await(TIMEOUT_NANOS, true)));
            list.add(Arguments.of("MonitorLock.await", tuning, (TimedWait) (c, p) -> {
                MonitorLock lock = new MonitorLock(c);
                lock.enter();
                try {
                    return lock.await(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
                } finally {
                    lock.exit();
                }
            }));
            list.add(Arguments.of("MonitorLock.tryEnter (held)", tuning, (TimedWait) (c, p) -> {
                MonitorLock lock = new MonitorLock(c);
                return heldElsewhere(p, lock::enter, lock::exit,
                        () -> lock.tryEnter(TIMEOUT_NANOS, TimeUnit.NANOSECONDS));
            }));
            list.add(Arguments.of("SpinLock.tryEnter (held)", tuning, (TimedWait) (c, p) -> {
                SpinLock lock = new SpinLock(c, true);
                return heldElsewhere(p, lock::enter, lock::exit,
                        () -> lock.tryEnter(TIMEOUT_NANOS, TimeUnit.NANOSECONDS));
            }));
        }
        return list.stream();
    }

    private interface Attempt {
        boolean run() throws InterruptedException;
    }

    /**
     * Runs {@code attempt} while another simulated thread holds a lock (from before the attempt
     * until 10 timeouts later); the holder's entering and leaving are {@code enter} and {@code exit}.
     */
    private static boolean heldElsewhere(SimulatedPlatform platform, Runnable enter, Runnable exit, Attempt attempt)
            throws InterruptedException {
        boolean[] held = new boolean[1];
        platform.startThread("holder", () -> {
            enter.run();
            held[0] = true;
            platform.sleep(10 * TIMEOUT_NANOS);
            exit.run();
        });
        while (!held[0]) {
            platform.sleep(1_000);
        }
        return attempt.run();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("waits")
    void shouldReturnFalseNoSoonerThanItsTimeoutWhenNothingSatisfiesIt(String name, String tuning, TimedWait wait) {
        Simulation sim = Simulation.builder(SKYLAKE).seed(1).context(name + " tuning=" + tuning).build();
        SimulatedPlatform platform = sim.platform();
        SpinContext context = SpinContext.of(platform, Tuning.parse(tuning));
        long[] elapsedNanos = {-1};
        boolean[] result = {true};
        sim.startThread("waiter", () -> {
            try {
                // The PAUSE measurement runs once, before the clock starts.
                context.normalizer().refreshIfDue();
                long start = platform.nanoTime();
                result[0] = wait.await(context, platform);
                elapsedNanos[0] = platform.nanoTime() - start;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        SimulationResult run = sim.run();

        assertThat(run.outcome()).as(run.report()).isEqualTo(Outcome.COMPLETED);
        assertThat(result[0]).as("%s returned", name).isFalse();
        assertThat(elapsedNanos[0]).as("%s with %s: virtual ns from the call to its false", name, tuning)
                .isGreaterThanOrEqualTo(TIMEOUT_NANOS)
                .isEqualTo(EXPECTED_NANOS.get(name)[TUNINGS.indexOf(tuning)]);
    }
}
