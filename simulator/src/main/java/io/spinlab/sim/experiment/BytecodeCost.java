package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineField;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
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
 * What one bytecode instruction of the primitives' own code costs on this host, in core cycles:
 * the figure {@code calibrate} gives the host profile's {@code cyclesPerBytecode} (the
 * simulator's instruction clock).
 *
 * <p>Each probe is a single-threaded, uncontended loop of one primitive (a spin lock, the
 * Monitor, SemaphoreSlim, ConcurrentQueue, ConcurrentStack), timed on a real thread and simulated
 * twice on the host profile: with instructions free ({@code cyclesPerBytecode} 0: the clock reads,
 * atomics and cache accesses alone) and at one cycle each. One thread on its own loop has nothing
 * to wait for, so the simulated time per operation is that fixed part plus the bytecodes times
 * the cycles each costs, exactly linear; the real time then gives the cycles per bytecode,
 * (real − free) / (one cycle − free). The figure is the median over the probes whose estimate is
 * positive.
 *
 * @param cyclesPerBytecode the median estimate, cycles; NaN when no probe gave a positive one
 * @param probes            every probe, in {@link #PROBES} order
 */
public record BytecodeCost(double cyclesPerBytecode, List<Probe> probes) {

    /** The probes: registry workloads with one thread, as {@code name:parameters}. */
    public static final List<String> PROBES = List.of("spinlock-throughput:threads=1",
            "monitor-throughput:threads=1,hold=0", "semaphore-throughput:threads=1", "queue-throughput:threads=1",
            "stack-throughput:threads=1");

    /** Tuning of every probe: the newest generation. */
    static final String TUNING = "net6";

    /** Warm-up (JIT compilation) and window of each hardware run of a probe. */
    public static final Window HARDWARE_WINDOW = new Window(20_000_000, 50_000_000);

    /** Hardware runs per probe; the fastest counts, since a loop with nothing to wait for is only slowed by noise. */
    public static final int HARDWARE_RUNS = 5;

    /** Warm-up and window of each simulated probe: the single thread's loop is steady within microseconds. */
    static final Window SIMULATED_WINDOW = new Window(200_000, 1_000_000);

    public BytecodeCost {
        probes = List.copyOf(probes);
    }

    /**
     * One probe's three timings, ns per operation.
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

        /** (real − free) / (one cycle − free); NaN if the bytecodes cost nothing or a timing is missing. */
        public double cyclesPerBytecode() {
            double perCycle = oneCycleNs - freeNs;
            if (!(perCycle > 0) || !Double.isFinite(hardwareNs) || !Double.isFinite(freeNs)) {
                return Double.NaN;
            }
            return (hardwareNs - freeNs) / perCycle;
        }
    }

    /** The median of the probes' positive estimates; NaN when there is none. */
    static BytecodeCost of(List<Probe> probes) {
        double[] estimates = probes.stream().mapToDouble(Probe::cyclesPerBytecode).filter(c -> c > 0).sorted()
                .toArray();
        if (estimates.length == 0) {
            return new BytecodeCost(Double.NaN, probes);
        }
        int n = estimates.length;
        double median = n % 2 == 1 ? estimates[n / 2] : (estimates[n / 2 - 1] + estimates[n / 2]) / 2;
        return new BytecodeCost(median, probes);
    }

    /** Whether the figure can be the profile's {@code cyclesPerBytecode} (measured and within the field's range). */
    public boolean usable() {
        return cyclesPerBytecode >= MachineField.CYCLES_PER_BYTECODE.min()
                && cyclesPerBytecode <= MachineField.CYCLES_PER_BYTECODE.max() && cyclesPerBytecode > 0;
    }

    /**
     * Times every probe on this host's real threads ({@value #HARDWARE_RUNS} runs over
     * {@link #HARDWARE_WINDOW}, the fastest counts) and in simulations of {@code host} without noise.
     *
     * @throws InterruptedException if interrupted during a hardware run
     */
    public static BytecodeCost measure(MachineProfile host) throws InterruptedException {
        return measure(host, HARDWARE_WINDOW, HARDWARE_RUNS);
    }

    /**
     * Times every probe on this host's real threads ({@code runs} runs over {@code hardwareWindow},
     * the fastest counts) and in simulations of {@code host} without noise.
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
        List<Probe> probes = new ArrayList<>();
        for (String probe : PROBES) {
            int colon = probe.indexOf(':');
            String name = probe.substring(0, colon);
            String parameters = probe.substring(colon + 1);
            Workload onHardware = Workloads.create(name, parameters + "," + hardwareWindow.parameters());
            double fastest = Double.NaN;
            for (int i = 0; i < runs; i++) {
                double ns = nsPerOperation(WorkloadRunner.onHardware(onHardware, tuning).opsPerMs());
                fastest = Double.isNaN(fastest) ? ns : Math.min(fastest, ns);
            }
            probes.add(new Probe(name, parameters, fastest, simulatedNs(host, name, parameters, 0),
                    simulatedNs(host, name, parameters, 1), host.frequencyGhz()));
        }
        return of(probes);
    }

    /** One probe simulated on {@code host} at {@code cycles} per bytecode, ns per operation (NaN if it failed). */
    static double simulatedNs(MachineProfile host, String name, String parameters, double cycles) {
        MachineProfile machine = host.toBuilder().cyclesPerBytecode(cycles).build();
        SimulatedRun run = WorkloadRunner.simulate(name, parameters + "," + SIMULATED_WINDOW.parameters(),
                Tuning.parse(TUNING), Simulation.builder(machine).seed(1).faults(Faults.none())
                        .budgets(Experiment.ROW_BUDGETS).memoryModel(true).noise(false));
        if (!run.simulation().completed() || run.workloadResult().isEmpty()) {
            return Double.NaN;
        }
        return nsPerOperation(run.workloadResult().get().opsPerMs());
    }

    private static double nsPerOperation(double opsPerMs) {
        return opsPerMs > 0 ? 1e6 / opsPerMs : Double.NaN;
    }

    /** One line: the figure and each probe's estimate. */
    public String describe() {
        StringBuilder text = new StringBuilder(usable()
                ? String.format(Locale.ROOT, "one bytecode costs %.2f cycles (median of the probes)", cyclesPerBytecode)
                : "one bytecode's cost not measurable (no probe gave a positive figure); the profile keeps the "
                        + "default");
        for (Probe p : probes) {
            text.append(String.format(Locale.ROOT, "; %s: %.1f ns per operation on this host, %.1f ns simulated "
                    + "with instructions free, %.0f bytecodes, %.2f cycles each", p.workload(), p.hardwareNs(),
                    p.freeNs(), p.bytecodesPerOperation(), p.cyclesPerBytecode()));
        }
        return text.toString();
    }
}
