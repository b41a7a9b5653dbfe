package io.spinlab.junit;

import io.spinlab.model.platform.Platform;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.memory.GuestClassLoader;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.RunMetrics;
import io.spinlab.sim.trace.ThreadMetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One run of a test on one simulated machine with one seed: add threads, {@link #run()} it,
 * then read what happened. A {@link SimulationTest} method gets one as a parameter; {@link Sims#run}
 * hands one to its body.
 *
 * <pre>{@code
 * MyLock lock = new MyLock();
 * sim.threads(8, i -> { for (int k = 0; k < 100; k++) { lock.lock(); shared.value++; lock.unlock(); } });
 * sim.run();
 * assertThat(shared.value).isEqualTo(800);
 * }</pre>
 *
 * <p>The threads run the test's own code, instrumented: every volatile field and {@code VarHandle}
 * access is a scheduling point priced by the machine's caches, the bytecode in between costs the
 * machine's instruction time, and {@code Thread.onSpinWait}, {@code Thread.yield},
 * {@code Thread.sleep}, {@code LockSupport.park/unpark} and {@code System.nanoTime} are the
 * simulated machine's. spinlab's own primitives take {@code SpinContext.of(sim.platform(), sim.tuning())}.
 * Same machine, tuning and seed: the same run, to the picosecond.
 *
 * <p>Threads may count things with {@link #add}; the test reads them with {@link #metric}.
 * Not thread-safe in the real sense and needs not be: only one simulated thread runs at a time.
 */
public final class Sim {
    /*
     * Implementation notes
     *
     * The Simulation is built in the constructor so that the platform exists before the run:
     * the test builds its primitives on it first. Every run records its last scheduling points
     * and a trace; they are what a failure report shows, and they change nothing the run does.
     */

    private final MachineProfile machine;
    private final long seed;
    private final Tuning tuning;
    private final Simulation simulation;
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<String> threadNames = new ArrayList<>();
    private SimulationResult result;

    Sim(MachineProfile machine, long seed, Tuning tuning, Simulation.Builder builder) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.seed = seed;
        this.tuning = Objects.requireNonNull(tuning, "tuning");
        this.simulation = builder.build();
    }

    /** The simulated machine. */
    public MachineProfile machine() {
        return machine;
    }

    /** The machine as one line: {@code skylake-i7-6700 pauseCycles=300}. */
    public String machineLine() {
        return MachineSpec.describe(machine);
    }

    public long seed() {
        return seed;
    }

    /** The tuning (runtime generation) of this invocation, for spinlab's primitives. */
    public Tuning tuning() {
        return tuning;
    }

    /** The simulated platform; valid on the run's threads. */
    public Platform platform() {
        return simulation.platform();
    }

    /** The class loader that loads this run's guest code, instrumented. */
    GuestClassLoader guestLoader() {
        return simulation.guestLoader();
    }

    /** The virtual clock, ns from the start of the run; on the run's threads only. */
    public long nanoTime() {
        return simulation.platform().nanoTime();
    }

    /** Adds a thread named {@code name} that runs {@code body}; before {@link #run()}. */
    public Sim thread(String name, Runnable body) {
        Objects.requireNonNull(body, "body");
        requireNotRun("add a thread");
        if (threadNames.contains(name)) {
            throw new IllegalArgumentException("a thread named '" + name + "' was already added");
        }
        threadNames.add(name);
        simulation.startThread(name, body);
        return this;
    }

    /** Adds {@code count} threads {@code thread-0}, {@code thread-1}, ... each running {@code body} with its index. */
    public Sim threads(int count, ThreadBody body) {
        return threads("thread-", count, body);
    }

    /** Adds {@code count} threads named {@code prefix + index}, each running {@code body} with its index. */
    public Sim threads(String prefix, int count, ThreadBody body) {
        Objects.requireNonNull(body, "body");
        if (count < 1 || count > 100_000) {
            throw new IllegalArgumentException("threads = " + count + "; allowed 1 to 100000");
        }
        for (int i = 0; i < count; i++) {
            int index = i;
            thread(prefix + i, () -> runBody(body, index));
        }
        return this;
    }

    private static void runBody(ThreadBody body, int index) {
        try {
            body.run(index);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs every added thread to its end in virtual time.
     *
     * @throws SimulationFailure if a thread threw, every thread blocked for good (a deadlock), or the
     *                           run hit its virtual-time or wall-clock budget; its message says which
     */
    public void run() {
        requireNotRun("run it again");
        if (threadNames.isEmpty()) {
            throw new IllegalStateException("no threads: add some with sim.thread or sim.threads before sim.run()");
        }
        result = simulation.run();
        if (!result.completed()) {
            throw new SimulationFailure(firstLine(result.report()), result.failure().orElse(null));
        }
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    private void requireNotRun(String what) {
        if (result != null) {
            throw new IllegalStateException("cannot " + what + ": this Sim has run; each test invocation runs once");
        }
    }

    /** Adds {@code delta} to the count {@code name} (from any thread of the run). */
    public void add(String name, long delta) {
        Objects.requireNonNull(name, "name");
        counts.merge(name, delta, Long::sum);
    }

    /** Adds one to the count {@code name}. */
    public void increment(String name) {
        add(name, 1);
    }

    /**
     * The count {@code name} that the threads recorded with {@link #add}.
     *
     * @throws IllegalArgumentException if nothing was ever added under that name (never a silent 0)
     */
    public long metric(String name) {
        Long value = counts.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no metric '" + name + "' was recorded; recorded: "
                    + (counts.isEmpty() ? "none" : String.join(", ", counts.keySet())));
        }
        return value;
    }

    /** Every count recorded with {@link #add}, by name. */
    public Map<String, Long> metrics() {
        return new LinkedHashMap<>(counts);
    }

    /** Whether {@link #run()} has run (to any end). */
    public boolean hasRun() {
        return result != null;
    }

    /** The simulator's result of the run: digest, metrics, trace, scheduling points. */
    public SimulationResult result() {
        if (result == null) {
            throw new IllegalStateException("the Sim has not run yet; call sim.run() first");
        }
        return result;
    }

    /** Virtual time the run took, ns. */
    public long elapsedNanos() {
        return result().endPicos() / 1_000;
    }

    /** Per-thread time split, context switches and processor use of the run. */
    public RunMetrics runMetrics() {
        return result().metrics();
    }

    /**
     * True if any thread waited for another in the run: spun (PAUSE), yielded, parked, waited for a
     * processor, or had a memory access stall behind another core's exclusive access.
     */
    public boolean sawContention() {
        SimulationResult r = result();
        for (ThreadMetrics t : r.metrics().threads()) {
            if (t.picos(Activity.SPINNING) > 0 || t.picos(Activity.YIELDING) > 0 || t.picos(Activity.PARKED) > 0
                    || t.picos(Activity.RUNNABLE) > 0) {
                return true;
            }
        }
        return r.memory().map(m -> m.stallPicos() > 0).orElse(false);
    }

    @Override
    public String toString() {
        return "Sim[" + machineLine() + ", " + tuning.describe() + ", seed " + seed + "]";
    }
}
