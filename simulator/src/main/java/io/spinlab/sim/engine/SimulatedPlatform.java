package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.platform.Platform;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The {@link Platform} of a {@link Simulation}: the primitives run on it unchanged, on virtual
 * processors in virtual time.
 *
 * <ul>
 *   <li>{@link #processorCount()} is the machine's logical processors; {@link #nanoTime()} is
 *       the virtual clock (plus jitter, if injected) and costs a clock read.</li>
 *   <li>{@link #pause(int) pause(n)} costs exactly n PAUSEs of the machine profile.</li>
 *   <li>{@link #park} blocks the simulated thread and frees its processor; {@link #unpark}
 *       makes it runnable after the machine's wake-up latency (a permit if it is not parked).
 *       A park may return spuriously when that fault is injected.</li>
 *   <li>{@link #yieldThread()} and {@code sleep(0)} switch only if another thread is ready;
 *       {@code sleep(n)} rounds n up to the machine's timer granularity.</li>
 *   <li>{@link #startThread} creates a simulated thread; {@link #nextRandom} draws from the
 *       run's seeded generator.</li>
 *   <li>{@link #beginSpinWait}/{@link #endSpinWait} count the thread as waiting on a blocker
 *       without parking (spin waits, maxima and time in {@code BlockerMetrics}).</li>
 *   <li>{@link #measuredWindow} makes the run report its threads' processor time inside that
 *       window ({@code RunMetrics.window()}).</li>
 * </ul>
 *
 * <p>Every call except {@link #processorCount()}, {@link #nextRandom}, {@link #nowPicos()},
 * {@link #machine()}, the spin-wait attribution and {@link #measuredWindow} is a scheduling point: it hands control to the
 * engine, which charges the call's cost and lets any thread whose next event is earlier run first. Calls are allowed
 * only from threads of this simulation while it runs ({@link IllegalStateException}
 * otherwise), except {@link #startThread} before the run, which adds an initial thread.
 */
public final class SimulatedPlatform implements Platform {

    private final Simulation simulation;
    private final Engine engine;

    SimulatedPlatform(Simulation simulation, Engine engine) {
        this.simulation = simulation;
        this.engine = engine;
    }

    /** The simulation this platform belongs to. */
    public Simulation simulation() {
        return simulation;
    }

    /** The simulated machine. */
    public MachineProfile machine() {
        return engine.machine;
    }

    /** The current virtual time in picoseconds (no cost, not a scheduling point). */
    public long nowPicos() {
        SimThread me = engine.current;
        if (me != null && me.thread == Thread.currentThread()) {
            engine.catchUp(me);
        }
        return engine.now;
    }

    /**
     * Charges {@code picos} of work to the calling thread: a scheduling point costing at least
     * one cycle. The hook for cost models finer than the Platform calls (the memory model
     * charges volatile and VarHandle accesses through it).
     */
    public void charge(long picos) {
        if (picos < 0) {
            throw new IllegalArgumentException("picos = " + picos + " is negative");
        }
        engine.call(SimThread.REQ_CHARGE, picos, null);
    }

    @Override
    public int processorCount() {
        return engine.machine.logicalProcessors();
    }

    @Override
    public long nanoTime() {
        return engine.call(SimThread.REQ_CLOCK, 0, null);
    }

    @Override
    public void pause(int count) {
        if (count > 0) {
            engine.call(SimThread.REQ_PAUSE, count, null);
        }
    }

    @Override
    public void yieldThread() {
        engine.call(SimThread.REQ_YIELD, SimThread.YIELD_SWITCH_TO_THREAD, null);
    }

    @Override
    public void sleep(long nanos) {
        if (nanos <= 0) {
            engine.call(SimThread.REQ_YIELD, SimThread.YIELD_SLEEP_ZERO, null);
        } else {
            engine.call(SimThread.REQ_SLEEP, nanos, null);
        }
    }

    @Override
    public void park(Object blocker) {
        engine.call(SimThread.REQ_PARK, -1, blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        if (nanos > 0) {
            engine.call(SimThread.REQ_PARK, nanos, blocker);
        }
    }

    /** The harness measures {@code [startNanos, endNanos)}: bookkeeping for metrics; free, not a scheduling point. */
    @Override
    public void measuredWindow(long startNanos, long endNanos) {
        engine.measuredWindow(startNanos, endNanos, null);
    }

    /**
     * As the two-argument call; the engine reads {@code counted} at the window's midpoint and at its end, on
     * its own thread, never a simulated one.
     */
    @Override
    public void measuredWindow(long startNanos, long endNanos, LongSupplier counted) {
        engine.measuredWindow(startNanos, endNanos, counted);
    }

    @Override
    public void beginSpinWait(Object blocker) {
        engine.beginSpinWait(blocker);
    }

    @Override
    public void endSpinWait(Object blocker) {
        engine.endSpinWait(blocker);
    }

    @Override
    public void unpark(Thread thread) {
        if (thread != null) {
            engine.call(SimThread.REQ_UNPARK, 0, thread);
        }
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(task, "task");
        if (engine.onSimulatedThread()) {
            return engine.callStart(name, task);
        }
        return simulation.startThread(name, task);
    }

    @Override
    public int nextRandom(int bound) {
        return engine.nextRandom(bound);
    }

    @Override
    public String toString() {
        return "simulated(" + engine.machine.name() + ", seed " + engine.seed
                + (engine.memory != null ? ", memory model" : "") + ")";
    }
}
