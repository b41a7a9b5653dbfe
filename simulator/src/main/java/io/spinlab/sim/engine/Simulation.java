package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.memory.GuestClassLoader;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One deterministic run of real Java code on a simulated machine: virtual processors, virtual
 * time in picoseconds, an OS scheduler model, and the machine profile's costs.
 *
 * <pre>{@code
 * Simulation sim = Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(42).build();
 * SpinContext context = SpinContext.of(sim.platform(), Tuning.current());
 * sim.startThread("main", () -> { ... primitives built on context ... });
 * SimulationResult result = sim.run().requireCompleted();
 * }</pre>
 *
 * <p><b>Execution.</b> Each simulated thread is a virtual thread scheduled by the engine; only
 * one runs at a time, and it gives control back at every {@link SimulatedPlatform} call. The
 * engine charges the call's cost to the thread's processor and resumes whichever thread's next
 * event is earliest in (virtual time, sequence number) order. Code between two calls costs no
 * virtual time. More threads than processors queue for a processor; a thread that has run a
 * full time slice while others wait is preempted at its next call.
 *
 * <p><b>Determinism.</b> (machine, workload, tuning, seed, faults) determine the run: its
 * {@linkplain SimulationResult#digest() event-log digest} is the same on every run and host.
 * The engine owns the only clock and the only random generator; nothing depends on wall time
 * or identity hashes. Code under simulation must keep to the {@code Platform} rules: wait only
 * through it (no {@code synchronized} contention, JDK locks, {@code Thread.sleep}), take
 * randomness from {@link SimulatedPlatform#nextRandom}, and never loop forever without a
 * {@code Platform} call. Classes are initialized before the run ({@link Builder#initialize}),
 * because a park inside a class initializer would pin the engine's own thread.
 *
 * <p><b>Endings.</b> {@link #run()} always returns: completed; deadlocked (every live thread
 * parked, no timer pending — the report names each thread and its blocker); out of budget
 * ({@link Budgets}); or failed (a simulated thread threw, or blocked outside the Platform).
 * The report ends with the line that reproduces the run. Unfinished threads are unwound.
 *
 * <p><b>Memory model and instruction clock (the full cost model).</b> Off by default in this
 * builder, on in every command of the {@code spinlab} tool and in {@code Experiment}: without
 * it, code between two {@code Platform} calls costs no time and runs atomically ("fast mode").
 * Built with {@link Builder#memoryModel(boolean) memoryModel(true)}, each executed bytecode
 * instruction of guest code costs the machine's {@code cyclesPerBytecode}, and
 * every volatile field access and every {@code VarHandle} access of <em>guest</em> code — the
 * classes of {@code io.spinlab.impl}, {@code io.spinlab.sim.workload} and any
 * {@linkplain Builder#guestPackages added package}, loaded instrumented by
 * {@link #guestLoader()} — is a scheduling point costed by the machine's cache model
 * ({@link io.spinlab.sim.memory.MemoryModel}), and their JDK spin, yield, sleep, park and
 * clock calls go to this simulation. Guest code must be built from classes of that loader
 * ({@code WorkloadRunner} does it for workloads); code loaded by the application class loader
 * runs as with the model off. Results say which mode produced them.
 *
 * <p>Requirements: JDK 25 and {@code --add-opens java.base/java.lang=ALL-UNNAMED}. A
 * simulation runs once, from a platform thread; it is not thread-safe.
 */
public final class Simulation {
    /*
     * Implementation notes
     *
     * This class is the user-facing shell: configuration, initial threads, class
     * initialization. The engine (Engine) owns all mutable run state; see its notes for the
     * execution model, who pays which cost, and the memory-model hook.
     *
     * Class initialization: the primitives' classes (and any the caller names) are
     * initialized on the caller's thread before the run. A virtual thread that parks inside a
     * class initializer is pinned to its carrier, and the carrier here is the engine's thread:
     * the run would hang. The production primitives never call Platform from <clinit>, so the
     * list below is belt and braces, and it also keeps class-loading out of the measured runs.
     */

    /** Classes of the primitives, initialized before every run. */
    private static final List<String> PRIMITIVE_CLASSES = List.of(
            "io.spinlab.impl.spin.PauseNormalizer",
            "io.spinlab.impl.spin.Calibration",
            "io.spinlab.impl.spin.CalibratedPauseNormalizer",
            "io.spinlab.impl.spin.SampledPauseNormalizer",
            "io.spinlab.impl.spin.OneShotPauseNormalizer",
            "io.spinlab.impl.spin.SpinContext",
            "io.spinlab.impl.spin.SpinWait",
            "io.spinlab.impl.spin.SpinBeforeBlock",
            "io.spinlab.impl.spin.SpinBeforeBlock$ScaledSpin",
            "io.spinlab.impl.spin.SpinBeforeBlock$SpinOnceSpin",
            "io.spinlab.impl.spin.SpinBeforeBlock$NoSpin",
            "io.spinlab.impl.lock.WaitQueue",
            "io.spinlab.impl.lock.WaitQueue$Waiter",
            "io.spinlab.impl.lock.WaitQueue$Wake",
            "io.spinlab.impl.lock.EntryProtocol",
            "io.spinlab.impl.lock.CompetingEntryProtocol",
            "io.spinlab.impl.lock.BargingAwareLock",
            "io.spinlab.impl.lock.ConvoyAwareLock",
            "io.spinlab.impl.lock.CoreRtLock",
            "io.spinlab.impl.lock.MonitorLock",
            "io.spinlab.impl.lock.SpinLockSlowPath",
            "io.spinlab.impl.lock.SpinLockSlowPath$SpinWaitLoop",
            "io.spinlab.impl.lock.SpinLockSlowPath$SpinningFactor",
            "io.spinlab.impl.lock.SpinLock",
            "io.spinlab.impl.lock.NativeSpinLock",
            "io.spinlab.impl.event.ManualResetEvent",
            "io.spinlab.impl.event.CountdownEvent",
            "io.spinlab.impl.event.Barrier",
            "io.spinlab.impl.semaphore.SemaphoreSlim",
            "io.spinlab.impl.semaphore.SemaphoreProtocol",
            "io.spinlab.impl.semaphore.MonitorProtocol",
            "io.spinlab.impl.semaphore.MonitorProtocol$UntilYield",
            "io.spinlab.impl.semaphore.MonitorProtocol$SpinOnce",
            "io.spinlab.impl.semaphore.LockFreeProtocol",
            "io.spinlab.sim.engine.SimulationAbort");

    private final Engine engine;
    private final SimulatedPlatform platform;
    private final List<Class<?>> toInitialize;
    private final GuestClassLoader guestLoader;

    private Simulation(Builder builder) {
        this.engine = new Engine(builder.machine, builder.seed, builder.faults, builder.budgets, builder.trace,
                builder.traceLimit, builder.context, builder.memoryModel, builder.schedulingPoints,
                builder.schedulingPoints > 0 && builder.memoryModel ? builder.guestLoader().layouts() : null,
                builder.noise, builder.runAhead);
        this.platform = new SimulatedPlatform(this, engine);
        this.engine.platform = platform;
        this.toInitialize = List.copyOf(builder.initialize);
        this.guestLoader = builder.memoryModel ? builder.guestLoader() : null;
    }

    /** A builder for a run on {@code machine}: seed 0, no faults, default budgets, no trace. */
    public static Builder builder(MachineProfile machine) {
        return new Builder(machine);
    }

    /** The platform to build primitives on; valid inside the run. */
    public SimulatedPlatform platform() {
        return platform;
    }

    public MachineProfile machine() {
        return engine.machine;
    }

    public long seed() {
        return engine.seed;
    }

    public Faults faults() {
        return engine.faults;
    }

    /** True if this simulation costs guest code's memory accesses (see the class documentation). */
    public boolean memoryModel() {
        return guestLoader != null;
    }

    /**
     * The instrumenting class loader whose classes this simulation sees accessing memory.
     *
     * @throws IllegalStateException if the simulation was built without the memory model
     */
    public GuestClassLoader guestLoader() {
        if (guestLoader == null) {
            throw new IllegalStateException("this simulation was built without the memory model");
        }
        return guestLoader;
    }

    /** {@code machine=... <context> seed=... faults=...}: what reproduces this run. */
    public String reproduction() {
        return engine.reproduction();
    }

    /**
     * Adds a thread that starts at virtual time 0, before {@link #run()}. Threads so added take
     * the processors in the order they were added. Inside the run, use
     * {@link SimulatedPlatform#startThread}.
     *
     * @return the simulated thread (a virtual thread; do not start, join or interrupt it from outside)
     */
    public Thread startThread(String name, Runnable task) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(task, "task");
        return engine.startBeforeRun(name, task);
    }

    /**
     * Fails with one line saying what this JVM lacks (JDK 25, or {@code --add-opens
     * java.base/java.lang=ALL-UNNAMED}) when it cannot run simulations; does nothing when it can.
     *
     * @throws IllegalStateException naming the missing option or JDK
     */
    public static void requireAvailable() {
        VirtualThreads.checkAvailable();
    }

    /** Runs until every thread has finished, a deadlock, a budget, or a failure; see the class documentation. */
    public SimulationResult run() {
        VirtualThreads.checkAvailable();
        initializeClasses();
        return engine.run();
    }

    private void initializeClasses() {
        ClassLoader loader = guestLoader != null ? guestLoader : Simulation.class.getClassLoader();
        for (String name : PRIMITIVE_CLASSES) {
            initialize(name, loader);
        }
        for (Class<?> type : toInitialize) {
            boolean guest = guestLoader != null && guestLoader.isGuest(type.getName());
            initialize(type.getName(), guest ? guestLoader : type.getClassLoader());
        }
    }

    private static void initialize(String name, ClassLoader loader) {
        try {
            Class.forName(name, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot initialize " + name + " before the run", e);
        }
    }

    @Override
    public String toString() {
        return "Simulation[" + reproduction() + "]";
    }

    /** Configures a {@link Simulation}. Not thread-safe; {@link #build()} may be called repeatedly. */
    public static final class Builder {
        private final MachineProfile machine;
        private long seed;
        private Faults faults = Faults.none();
        private Budgets budgets = Budgets.defaults();
        private boolean trace;
        private long traceLimit = 2_000_000;
        private int schedulingPoints;
        private String context = "";
        private final List<Class<?>> initialize = new ArrayList<>();
        private boolean memoryModel;
        private boolean noise;
        private boolean runAhead = true;
        private final List<String> guestPrefixes = new ArrayList<>(GuestClassLoader.DEFAULT_GUEST_PREFIXES);
        private GuestClassLoader.Transform guestTransform;
        private GuestClassLoader transformedLoader;
        private ClassLoader guestParent = Simulation.class.getClassLoader();

        private Builder(MachineProfile machine) {
            this.machine = Objects.requireNonNull(machine, "machine");
        }

        /** The seed of every random choice in the run (faults and {@code nextRandom}). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Faults to inject; {@link Faults#none()} by default. */
        public Builder faults(Faults faults) {
            this.faults = Objects.requireNonNull(faults, "faults");
            return this;
        }

        /** Limits on virtual time, steps and wall time; {@link Budgets#defaults()} by default. */
        public Builder budgets(Budgets budgets) {
            this.budgets = Objects.requireNonNull(budgets, "budgets");
            return this;
        }

        /** Record a timeline for {@link io.spinlab.sim.trace.TraceRecorder#writeChromeJson}. */
        public Builder trace(boolean on) {
            this.trace = on;
            return this;
        }

        /** Most slices and instants a trace keeps (2 million by default). */
        public Builder traceLimit(long records) {
            if (records < 1) {
                throw new IllegalArgumentException("traceLimit = " + records + "; allowed 1 or more");
            }
            this.traceLimit = records;
            return this;
        }

        /**
         * Keep the run's last {@code points} scheduling points, with the field and value of each
         * memory access, for {@link SimulationResult#schedulingPoints()} (0, the default: none).
         * Slow (every point is described as it happens); for failure reports, never for measurements.
         * It changes nothing the run does: the digest is the same with and without it.
         */
        public Builder recordSchedulingPoints(int points) {
            if (points < 0 || points > 1_000_000) {
                throw new IllegalArgumentException("recordSchedulingPoints = " + points + "; allowed 0 to 1000000");
            }
            this.schedulingPoints = points;
            return this;
        }

        /**
         * What else reproduces the run, for its report: typically
         * {@code workload=mres-wait-drain-rate(threads=1pc,...) tuning=current}.
         */
        public Builder context(String text) {
            this.context = Objects.requireNonNull(text, "context").strip();
            return this;
        }

        /** Classes of the code under simulation to initialize before the run. */
        public Builder initialize(Class<?>... types) {
            for (Class<?> type : types) {
                initialize.add(Objects.requireNonNull(type, "type"));
            }
            return this;
        }

        /**
         * Turns the memory model on or off (off by default): with it, every volatile and
         * {@code VarHandle} access of guest code is a scheduling point costed by the machine's
         * caches; without it, runs are exactly as before, and faster.
         */
        public Builder memoryModel(boolean on) {
            this.memoryModel = on;
            return this;
        }

        /**
         * Turns run-to-run noise on or off (default off): with it on, each wake-up's latency and
         * each PAUSE batch's and clock read's cost (and the switch that brings back a thread
         * unparked before it was asleep) vary by the machine's
         * {@code wakeJitterPercent} and {@code costJitterPercent} (uniform, symmetric, so the
         * means stay the machine's), and each processor's first time slice ends at a random
         * point within one slice (its timer's phase), all drawn from the seed: the same seed
         * gives the same run, and different seeds sample the spread a real machine shows from
         * run to run. Off, every cost is its mean, for tests that pin exact times.
         */
        public Builder noise(boolean on) {
            this.noise = on;
            return this;
        }

        /**
         * Whether threads may run ahead of a request whose answer is known when it is made (on by
         * default; see the engine's notes): off only in the test that shows it changes nothing
         * but the number of hand-offs.
         */
        Builder runAhead(boolean on) {
            this.runAhead = on;
            return this;
        }

        /** Whether {@link #noise(boolean)} is on. */
        public boolean noiseOn() {
            return noise;
        }

        /** Whether {@link #memoryModel(boolean)} is on. */
        public boolean memoryModelOn() {
            return memoryModel;
        }

        /**
         * Adds packages (class-name prefixes such as {@code org.agrona.}) to the guests of the
         * memory model: their classes are loaded instrumented, so third-party spin code runs on
         * the simulated platform. {@code io.spinlab.impl.} and {@code io.spinlab.sim.workload.}
         * are always guests.
         */
        public Builder guestPackages(String... prefixes) {
            for (String prefix : prefixes) {
                guestPrefixes.add(Objects.requireNonNull(prefix, "prefix"));
            }
            return this;
        }

        /**
         * The instrumenting class loader a simulation built now would use (one per set of guest
         * packages, shared by all runs); available whether or not the memory model is on.
         */
        public GuestClassLoader guestLoader() {
            if (guestTransform != null) {
                if (transformedLoader == null) {
                    transformedLoader = new GuestClassLoader(guestParent, guestPrefixes, guestTransform);
                }
                return transformedLoader;
            }
            return GuestClassLoader.shared(guestParent, guestPrefixes);
        }

        /**
         * Where the guest loader finds class files and every shared class: by default the loader
         * of the simulator itself; a loader over a user's class path (whose parent is that one) for
         * a user's workload given by name on the command line.
         */
        public Builder guestParent(ClassLoader parent) {
            this.guestParent = Objects.requireNonNull(parent, "parent");
            this.transformedLoader = null;
            return this;
        }

        /**
         * Rewrites each guest class file before it is instrumented: {@code transform} gets the
         * binary class name and the original bytes and returns the bytes to load (the same array
         * for a class it leaves alone). For planting a bug in the real code of a primitive — one
         * mutated instruction — to show that a property catches it. Such a simulation gets a
         * class loader of its own, never shared with unmodified runs.
         */
        public Builder guestTransform(GuestClassLoader.Transform transform) {
            this.guestTransform = Objects.requireNonNull(transform, "transform");
            this.transformedLoader = null;
            return this;
        }

        public Simulation build() {
            return new Simulation(this);
        }
    }
}
