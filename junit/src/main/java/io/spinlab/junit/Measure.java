package io.spinlab.junit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Spread;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.ThreadMetrics;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Throughput of one operation on a simulated machine, over several seeds, without writing a
 * workload: N threads repeat the operation for a window of virtual time.
 *
 * <pre>{@code
 * Measurement mine = Measure.on("skylake-i7-6700").threads(8).seeds(5).window(Duration.ofMillis(2))
 *         .run(sim -> { MyLock lock = new MyLock(); return () -> { lock.lock(); lock.unlock(); }; });
 * Measurement theirs = Measure.on("skylake-i7-6700").threads(8).seeds(5).window(Duration.ofMillis(2))
 *         .run(sim -> { MonitorLock lock = new MonitorLock(SpinContext.of(sim.platform(), sim.tuning()));
 *                       return () -> { lock.enter(); lock.exit(); }; });
 * assertThat(mine.clearlyFasterThan(theirs)).as(mine + "\n" + theirs).isTrue();
 * }</pre>
 *
 * <p>The factory is a lambda written in the test class and runs as its instrumented copy (see
 * {@link Sims}); it runs once per seed, before the threads start. A seed whose window counted
 * fewer than {@value #MIN_OPERATIONS} operations fails the measurement rather than report a rate
 * from almost nothing, and so do seeds whose rates lie more than {@value #SEED_SPREAD_LIMIT} times
 * apart (as a {@code reproduce} row's: the window held no rate, only whatever burst fell into it),
 * and a window whose second half's rate was more than {@value
 * io.spinlab.sim.experiment.ExperimentRow#RATE_CHANGE_FACTOR} times its first half's, or less than the
 * inverse, on every seed (the rule that sends a {@code reproduce} row to a later window: the window
 * measured a start-up, not the rate it settles to).
 */
public final class Measure {

    /** Fewest operations a window must count for its rate to be reported. */
    public static final long MIN_OPERATIONS = 100;

    /**
     * The most the seeds' rates may lie apart, the highest over the lowest, for a rate to be reported:
     * {@link io.spinlab.sim.experiment.ExperimentRow#SEED_SPREAD_LIMIT}, the limit of {@code reproduce}'s rows.
     */
    public static final double SEED_SPREAD_LIMIT = io.spinlab.sim.experiment.ExperimentRow.SEED_SPREAD_LIMIT;

    private static final String LOOP = "io.spinlab.junit.guest.OperationLoop";

    private final MachineProfile machine;
    private Tuning tuning = Tuning.current();
    private int threads = 1;
    private int seeds = 5;
    private long warmupNanos = 200_000;
    private long windowNanos = 2_000_000;
    private final List<String> extraPackages = new ArrayList<>();

    private Measure(MachineProfile machine) {
        this.machine = machine;
    }

    /** A measurement on {@code machine}: a preset line or a profile file, as {@link SimulationTest#machines}. */
    public static Measure on(String machine) {
        return new Measure(Machines.parse(Objects.requireNonNull(machine, "machine")));
    }

    public Measure tuning(String name) {
        this.tuning = Tuning.parse(Objects.requireNonNull(name, "tuning"));
        return this;
    }

    /** Measured threads (1 by default). */
    public Measure threads(int count) {
        if (count < 1 || count > 100_000) {
            throw new IllegalArgumentException("threads = " + count + "; allowed 1 to 100000");
        }
        this.threads = count;
        return this;
    }

    /** Seeds 1 to {@code count} (5 by default). */
    public Measure seeds(int count) {
        if (count < 1 || count > 1_000) {
            throw new IllegalArgumentException("seeds = " + count + "; allowed 1 to 1000");
        }
        this.seeds = count;
        return this;
    }

    /** Unmeasured virtual time first (200 µs by default). */
    public Measure warmup(Duration warmup) {
        this.warmupNanos = nanos("warmup", warmup, 0);
        return this;
    }

    /** The measured window of virtual time (2 ms by default). */
    public Measure window(Duration window) {
        this.windowNanos = nanos("window", window, 1);
        return this;
    }

    /** Packages besides the test class's own to load instrumented. */
    public Measure guestPackages(String... prefixes) {
        extraPackages.addAll(List.of(prefixes));
        return this;
    }

    private static long nanos(String what, Duration d, long min) {
        long n = Objects.requireNonNull(d, what).toNanos();
        if (n < min || n > 60_000_000_000L) {
            throw new IllegalArgumentException(what + " = " + d + "; allowed " + (min == 0 ? "0" : "1 ns")
                    + " to 60 s of virtual time");
        }
        return n;
    }

    /**
     * Runs the measurement.
     *
     * @throws IllegalStateException if a seed's window counted fewer than {@link #MIN_OPERATIONS} operations, the
     *                               seeds' rates lie more than {@link #SEED_SPREAD_LIMIT} times apart, or the window's
     *                               halves' rates lie more than 1.5 times apart the same way on every seed
     * @throws SimulationFailure     if a run failed (an operation threw, a deadlock, a budget)
     */
    public Measurement run(OperationFactory factory) {
        Objects.requireNonNull(factory, "factory");
        TestJvm.requireSimulator();
        List<String> prefixes = new ArrayList<>(Sims.guestPrefixesOf(factory));
        prefixes.addAll(extraPackages);
        prefixes.add(LOOP.substring(0, LOOP.lastIndexOf('.') + 1));
        List<Double> rates = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        List<Long> seedList = new ArrayList<>();
        List<Double> halves = new ArrayList<>();
        Map<Activity, Double> split = new EnumMap<>(Activity.class);
        for (long seed = 1; seed <= seeds; seed++) {
            SimCase simCase = new SimCase(machine, tuning, seed, prefixes, 0, 600_000);
            Sim sim = simCase.newSim();
            Object loop = runOnce(sim, factory, seed);
            long inWindow = (long) call(loop, "measuredOperations");
            long all = (long) call(loop, "totalOperations");
            long window = (long) call(loop, "windowNanos");
            if (inWindow < MIN_OPERATIONS) {
                throw new IllegalStateException("seed " + seed + " on " + MachineSpec.describe(machine) + " counted "
                        + inWindow + " operations in its " + window + " ns window; fewer than " + MIN_OPERATIONS
                        + " give no rate: lengthen the window");
            }
            rates.add(inWindow / (window / 1e6));
            halves.add((double) call(loop, "halvesRatio"));
            long cpuPicos = 0;
            long lifePicos = 0;
            long[] byActivity = new long[Activity.values().length];
            for (ThreadMetrics t : sim.runMetrics().threads()) {
                if (!t.name().startsWith("worker-")) {
                    continue;
                }
                cpuPicos += t.picos(Activity.WORKING) + t.picos(Activity.SPINNING) + t.picos(Activity.YIELDING);
                lifePicos += t.accountedPicos();
                for (Activity a : Activity.values()) {
                    byActivity[a.ordinal()] += t.picos(a);
                }
            }
            cpu.add(cpuPicos / 1e3 / all);
            for (Activity a : Activity.values()) {
                split.merge(a, lifePicos == 0 ? 0 : (double) byActivity[a.ordinal()] / lifePicos / seeds, Double::sum);
            }
            counted.add(inWindow);
            seedList.add(seed);
        }
        Spread rate = Spread.of(rates);
        if (rate.max() > rate.min() * SEED_SPREAD_LIMIT) {
            throw new IllegalStateException(String.format(java.util.Locale.ROOT, "the %d seeds on %s scored %.1f to "
                    + "%.1f ops/ms, %.1f times apart; more than %.0f times apart give no rate (the window is shorter "
                    + "than the bursts the count comes in, or than the start-up): lengthen the window or the warm-up",
                    seeds, MachineSpec.describe(machine), rate.min(), rate.max(), rate.max() / rate.min(),
                    SEED_SPREAD_LIMIT));
        }
        Optional<String> startUp = ExperimentRow.rateChanging("measured", halves, "", List.of());
        if (startUp.isPresent()) {
            throw new IllegalStateException("the " + seeds + " seed" + (seeds == 1 ? "" : "s") + " on "
                    + MachineSpec.describe(machine) + ": " + startUp.get() + ": the window measured a start-up, not "
                    + "a rate: lengthen the warm-up");
        }
        return new Measurement(MachineSpec.describe(machine), tuning.describe(), threads, windowNanos, seedList,
                rate, Spread.of(cpu), split, counted, halves);
    }

    private Object runOnce(Sim sim, OperationFactory factory, long seed) {
        OperationFactory guest = GuestCode.rebind(factory, OperationFactory.class, sim.guestLoader(),
                "the factory given to Measure.run");
        try {
            Runnable operation = Objects.requireNonNull(guest.create(sim), "the factory returned no operation");
            Class<?> loopType = Class.forName(LOOP, true, sim.guestLoader());
            Object loop = loopType.getConstructor(int.class).newInstance(threads);
            Method work = loopType.getMethod("work", int.class, Runnable.class);
            Method control = loopType.getMethod("control", long.class, long.class);
            sim.thread("control", () -> invoke(control, loop, warmupNanos, windowNanos));
            sim.threads("worker-", threads, i -> invoke(work, loop, i, operation));
            sim.run();
            return loop;
        } catch (Throwable failure) {
            throw Reports.failure("Measure", MachineSpec.describe(machine) + ", seed " + seed, sim, failure);
        }
    }

    private static Object call(Object loop, String name) {
        try {
            return loop.getClass().getMethod(name).invoke(loop);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + name + " of the measuring loop", e);
        }
    }

    private static void invoke(Method method, Object target, Object... args) {
        try {
            method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
