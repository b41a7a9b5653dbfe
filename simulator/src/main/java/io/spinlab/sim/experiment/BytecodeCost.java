package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineField;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.GuestCodeThroughput;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Window;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadRunner;
import io.spinlab.sim.workload.Workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What one bytecode instruction of guest code costs on this host, in core cycles: the figure
 * {@code calibrate} gives the host profile's {@code cyclesPerBytecode} (the simulator's
 * instruction clock).
 *
 * <p><b>The slope.</b> One thread runs {@link GuestCodeThroughput} at two step counts,
 * {@value #FEW_STEPS} and {@value #MANY_STEPS} steps of plain code per operation, on a real thread
 * and in the simulator. Everything else in an operation (its clock read, the window's checks) is
 * the same at both counts, so it cancels: the extra real time, in cycles, divided by the extra
 * bytecodes the simulator counted is the cost of one bytecode. The simulator counts bytecodes
 * exactly: one thread with nothing to wait for takes, per operation, a fixed part plus its
 * bytecodes times the cycles each costs, so the time at one cycle per bytecode minus the time at
 * zero, in cycles, is the count.
 *
 * <p><b>The checks.</b> Five single-threaded, uncontended loops of the primitives (a spin lock,
 * the Monitor, SemaphoreSlim, ConcurrentQueue, ConcurrentStack) are timed the same way and
 * simulated at the measured figure. They are reported beside their real timings, not used for the
 * figure: the simulator adds a loop's clock reads, atomics and code up one after another, while an
 * out-of-order core overlaps them, so a loop's real time can be less than the simulator's charges
 * for its clock reads and atomics alone (measured on the 2-core development host, 2026-12-02), and
 * solving a loop's total time for the bytecode cost gave figures below zero.
 *
 * @param slope  the two step counts' timings, which give the figure
 * @param probes the primitives' loops, in {@link #PROBES} order
 */
public record BytecodeCost(Slope slope, List<Probe> probes) {

    /** The primitives' loops: registry workloads with one thread, as {@code name:parameters}. */
    public static final List<String> PROBES = List.of("spinlock-throughput:threads=1",
            "monitor-throughput:threads=1,hold=0", "semaphore-throughput:threads=1", "queue-throughput:threads=1",
            "stack-throughput:threads=1");

    /** Steps of guest code per operation at the slope's low end: only the operation's own overhead. */
    public static final int FEW_STEPS = 0;

    /** Steps per operation at the slope's high end: about 7,500 bytecodes, some 0.7 µs on a current core. */
    public static final int MANY_STEPS = 256;

    /** Tuning of every probe: the newest generation. */
    static final String TUNING = "net6";

    /** Warm-up (JIT compilation) and window of each hardware run of a probe. */
    public static final Window HARDWARE_WINDOW = new Window(20_000_000, 50_000_000);

    /** Hardware runs per probe; the fastest counts, since a loop with nothing to wait for is only slowed by noise. */
    public static final int HARDWARE_RUNS = 5;

    /** Warm-up and window of each simulated probe: the single thread's loop is steady within microseconds. */
    static final Window SIMULATED_WINDOW = new Window(200_000, 1_000_000);

    public BytecodeCost {
        Objects.requireNonNull(slope, "slope");
        probes = List.copyOf(probes);
    }

    /** A cost that was not measured: no slope, no probes. */
    public static BytecodeCost unmeasured() {
        return new BytecodeCost(new Slope(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN), List.of());
    }

    /** The measured cost of one bytecode, cycles; NaN when the slope could not give one. */
    public double cyclesPerBytecode() {
        return slope.cyclesPerBytecode();
    }

    /**
     * The guest-code slope: {@link GuestCodeThroughput} at {@value #FEW_STEPS} and
     * {@value #MANY_STEPS} steps, ns per operation on a real thread (the fastest of the runs)
     * and bytecodes per operation counted by the simulator.
     *
     * @param fewHardwareNs  real time per operation with few steps
     * @param manyHardwareNs real time per operation with many steps
     * @param fewBytecodes   bytecodes per operation with few steps
     * @param manyBytecodes  bytecodes per operation with many steps
     * @param frequencyGhz   the profile's clock, to turn time into cycles
     */
    public record Slope(double fewHardwareNs, double manyHardwareNs, double fewBytecodes, double manyBytecodes,
                        double frequencyGhz) {

        /** Extra real cycles over extra bytecodes; NaN if a timing is missing or the counts do not grow. */
        public double cyclesPerBytecode() {
            double bytecodes = manyBytecodes - fewBytecodes;
            double nanos = manyHardwareNs - fewHardwareNs;
            if (!(bytecodes > 0) || !Double.isFinite(nanos) || !(frequencyGhz > 0)) {
                return Double.NaN;
            }
            return nanos * frequencyGhz / bytecodes;
        }
    }

    /**
     * One primitive's loop: its real time and its simulated times with instructions free and at
     * one cycle per bytecode, ns per operation.
     *
     * @param workload     the workload's name
     * @param parameters   its parameters (one thread)
     * @param hardwareNs   on a real thread (the fastest of the runs)
     * @param freeNs       simulated with instructions free
     * @param oneCycleNs   simulated at one cycle per bytecode
     * @param frequencyGhz the profile's clock, to count the bytecodes
     */
    public record Probe(String workload, String parameters, double hardwareNs, double freeNs, double oneCycleNs,
                        double frequencyGhz) {

        /** Bytecodes executed per operation: the one-cycle run's extra time, in cycles. */
        public double bytecodesPerOperation() {
            return (oneCycleNs - freeNs) * frequencyGhz;
        }

        /** Simulated ns per operation at {@code cycles} per bytecode (the simulated time is linear in it). */
        public double simulatedNs(double cycles) {
            return freeNs + cycles * (oneCycleNs - freeNs);
        }
    }

    /** Whether the figure can be the profile's {@code cyclesPerBytecode} (measured, above 0 and within the field's range). */
    public boolean usable() {
        double c = cyclesPerBytecode();
        return c > 0 && c >= MachineField.CYCLES_PER_BYTECODE.min() && c <= MachineField.CYCLES_PER_BYTECODE.max();
    }

    /**
     * Times the slope and every probe on this host's real threads ({@value #HARDWARE_RUNS} runs
     * over {@link #HARDWARE_WINDOW}, the fastest counts) and in simulations of {@code host}
     * without noise.
     *
     * @throws InterruptedException if interrupted during a hardware run
     */
    public static BytecodeCost measure(MachineProfile host) throws InterruptedException {
        return measure(host, HARDWARE_WINDOW, HARDWARE_RUNS);
    }

    /**
     * Times the slope and every probe on this host's real threads ({@code runs} runs over
     * {@code hardwareWindow}, the fastest counts) and in simulations of {@code host} without noise.
     *
     * @throws InterruptedException if interrupted during a hardware run
     */
    public static BytecodeCost measure(MachineProfile host, Window hardwareWindow, int runs)
            throws InterruptedException {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(hardwareWindow, "hardwareWindow");
        if (runs < 1) {
            throw new IllegalArgumentException("runs = " + runs + "; allowed 1 or more");
        }
        Tuning tuning = Tuning.parse(TUNING);
        Slope slope = new Slope(
                fastestNs(guestCode(FEW_STEPS, hardwareWindow), tuning, runs),
                fastestNs(guestCode(MANY_STEPS, hardwareWindow), tuning, runs),
                guestCodeBytecodes(host, FEW_STEPS), guestCodeBytecodes(host, MANY_STEPS), host.frequencyGhz());
        List<Probe> probes = new ArrayList<>();
        for (String probe : PROBES) {
            int colon = probe.indexOf(':');
            String name = probe.substring(0, colon);
            String parameters = probe.substring(colon + 1);
            Workload onHardware = Workloads.create(name, parameters + "," + hardwareWindow.parameters());
            probes.add(new Probe(name, parameters, fastestNs(onHardware, tuning, runs),
                    simulatedNs(host, name, parameters, 0), simulatedNs(host, name, parameters, 1),
                    host.frequencyGhz()));
        }
        return new BytecodeCost(slope, probes);
    }

    private static GuestCodeThroughput guestCode(int steps, Window window) {
        return new GuestCodeThroughput(1, steps, window.warmupNanos(), window.measureNanos());
    }

    /** The fastest of {@code runs} real-thread runs of {@code workload}, ns per operation. */
    private static double fastestNs(Workload workload, Tuning tuning, int runs) throws InterruptedException {
        double fastest = Double.NaN;
        for (int i = 0; i < runs; i++) {
            double ns = nsPerOperation(WorkloadRunner.onHardware(workload, tuning).opsPerMs());
            fastest = Double.isNaN(fastest) ? ns : Math.min(fastest, ns);
        }
        return fastest;
    }

    /** Bytecodes per operation of {@link GuestCodeThroughput} at {@code steps}, counted by simulating {@code host}. */
    static double guestCodeBytecodes(MachineProfile host, int steps) {
        double free = guestCodeNs(host, steps, 0);
        double one = guestCodeNs(host, steps, 1);
        return (one - free) * host.frequencyGhz();
    }

    /** {@link GuestCodeThroughput} at {@code steps} simulated on {@code host} at {@code cycles} per bytecode, ns per operation. */
    static double guestCodeNs(MachineProfile host, int steps, double cycles) {
        return nsPerOperation(WorkloadRunner.simulate(GuestCodeThroughput.class,
                List.of(1, steps, SIMULATED_WINDOW.warmupNanos(), SIMULATED_WINDOW.measureNanos()),
                Tuning.parse(TUNING), simulation(host, cycles)));
    }

    /** One probe simulated on {@code host} at {@code cycles} per bytecode, ns per operation (NaN if it failed). */
    static double simulatedNs(MachineProfile host, String name, String parameters, double cycles) {
        return nsPerOperation(WorkloadRunner.simulate(name, parameters + "," + SIMULATED_WINDOW.parameters(),
                Tuning.parse(TUNING), simulation(host, cycles)));
    }

    private static Simulation.Builder simulation(MachineProfile host, double cycles) {
        MachineProfile machine = host.toBuilder().cyclesPerBytecode(cycles).build();
        return Simulation.builder(machine).seed(1).faults(Faults.none()).budgets(Experiment.ROW_BUDGETS)
                .memoryModel(true).noise(false);
    }

    private static double nsPerOperation(SimulatedRun run) {
        if (!run.simulation().completed() || run.workloadResult().isEmpty()) {
            return Double.NaN;
        }
        return nsPerOperation(run.workloadResult().get().opsPerMs());
    }

    private static double nsPerOperation(double opsPerMs) {
        return opsPerMs > 0 ? 1e6 / opsPerMs : Double.NaN;
    }

    /** One line: the figure, the slope it came from, and each probe's real and simulated time at the figure. */
    public String describe() {
        Slope s = slope;
        StringBuilder text = new StringBuilder(usable()
                ? String.format(Locale.ROOT, "one bytecode costs %.3f cycles", cyclesPerBytecode())
                : "one bytecode's cost not measurable; the profile keeps the default");
        text.append(String.format(Locale.ROOT, " (guest code: %d steps %.1f ns and %d bytecodes per operation on "
                        + "this host, %d steps %.1f ns and %.0f bytecodes)", FEW_STEPS, s.fewHardwareNs(),
                Math.round(s.fewBytecodes()), MANY_STEPS, s.manyHardwareNs(), s.manyBytecodes()));
        if (usable()) {
            for (Probe p : probes) {
                text.append(String.format(Locale.ROOT, "; %s: %.1f ns per operation on this host, %.1f ns simulated "
                        + "at that cost (%.0f bytecodes)", p.workload(), p.hardwareNs(),
                        p.simulatedNs(cyclesPerBytecode()), p.bytecodesPerOperation()));
            }
        }
        return text.toString();
    }
}
