package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.engine.SimulatedPlatform;
import io.spinlab.sim.engine.Simulation;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code calibrate}'s check of the simulator's yield rule where it matters most: every processor
 * busy with a thread that never yields, and one more thread yielding in a loop. How long is the
 * yielder away per yield? The operating system decides, and the rules differ: Linux's CFS lets a
 * yielder that has used little processor time run on at once (the thread it would yield to is
 * more than a wake-up granularity ahead of it), EEVDF pushes the yielder's deadline a slice later
 * per yield, and the simulator's Linux rule (a yielder waits behind the ready thread, which keeps
 * the processor to the end of its slice) always gives the processor away. The host and the
 * simulator of its profile run the same shape, and both are printed; nothing here goes into the
 * profile.
 *
 * @param hardware  the real threads' figures (the repetition with the median mean time per yield)
 * @param simulated the simulated seeds' figures (the seed with the median mean time per yield)
 */
public record YieldCheck(Figures hardware, Figures simulated) {

    /** Yields measured per real-thread repetition. */
    public static final int HARDWARE_YIELDS = 2_000;
    /** Real-thread repetitions. */
    public static final int HARDWARE_REPETITIONS = 3;
    /** Yields measured per simulated seed: fewer, since each can cost a whole slice of virtual time. */
    public static final int SIMULATED_YIELDS = 500;
    /** Simulated seeds (with the host's noise). */
    public static final int SEEDS = 3;
    /** A yield away longer than this counts as one that gave the processor away for a while. */
    public static final long LONG_YIELD_NS = 100_000;
    /** PAUSEs per call of a simulated busy thread: a few microseconds, so a slice takes few events. */
    static final int SPINNER_PAUSES = 256;
    /** How long the busy threads run before the yields are measured (real and simulated). */
    static final long SETTLE_NS = 20_000_000;

    public YieldCheck {
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(simulated, "simulated");
    }

    /**
     * One run's figures.
     *
     * @param meanNs        mean time per yield, from the call to its return, ns
     * @param medianNs      median time per yield, ns
     * @param longShare     share of yields that took longer than {@value #LONG_YIELD_NS} ns
     * @param longestNs     the longest yield, ns
     */
    public record Figures(double meanNs, double medianNs, double longShare, double longestNs) {

        static final Figures NONE = new Figures(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        /** The figures of one run's yield times, ns. */
        public static Figures of(long[] yieldNanos) {
            if (yieldNanos.length == 0) {
                throw new IllegalArgumentException("no yields measured");
            }
            long[] sorted = yieldNanos.clone();
            Arrays.sort(sorted);
            long longOnes = Arrays.stream(sorted).filter(ns -> ns > LONG_YIELD_NS).count();
            return new Figures(Arrays.stream(sorted).average().orElseThrow(), sorted[sorted.length / 2],
                    longOnes / (double) sorted.length, sorted[sorted.length - 1]);
        }

        /** The run with the median mean time per yield (the upper median of an even count). */
        static Figures median(Figures... runs) {
            Figures[] sorted = runs.clone();
            Arrays.sort(sorted, java.util.Comparator.comparingDouble(Figures::meanNs));
            return sorted[sorted.length / 2];
        }
    }

    /** A check that was not run. */
    public static YieldCheck unmeasured() {
        return new YieldCheck(Figures.NONE, Figures.NONE);
    }

    /** Whether both sides were measured. */
    public boolean measured() {
        return !Double.isNaN(hardware.meanNs()) && !Double.isNaN(simulated.meanNs());
    }

    /**
     * Runs the shape on this host's real threads ({@value #HARDWARE_REPETITIONS} times) and in
     * simulations of {@code host} (seeds 1 to {@value #SEEDS}, the host's noise on): as many busy
     * threads as processors, and one thread that yields in a loop.
     *
     * @throws InterruptedException if interrupted while the real threads run
     */
    public static YieldCheck measure(MachineProfile host) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        Figures[] real = new Figures[HARDWARE_REPETITIONS];
        for (int r = 0; r < real.length; r++) {
            real[r] = Figures.of(onHardware(Runtime.getRuntime().availableProcessors(), HARDWARE_YIELDS));
        }
        Figures[] simulated = new Figures[SEEDS];
        for (int seed = 1; seed <= SEEDS; seed++) {
            simulated[seed - 1] = Figures.of(simulate(host, seed, SIMULATED_YIELDS));
        }
        return new YieldCheck(Figures.median(real), Figures.median(simulated));
    }

    /** {@code busy} real threads in a loop that never yields, and the calling thread's {@code yields} timed yields. */
    static long[] onHardware(int busy, int yields) throws InterruptedException {
        Flag stop = new Flag();
        Thread[] spinners = new Thread[busy];
        for (int i = 0; i < busy; i++) {
            spinners[i] = Thread.ofPlatform().name("spinlab-calibrate-busy-" + i).start(() -> {
                long n = 0;
                while (!stop.raised) {
                    n++;
                }
                stop.count = n;
            });
        }
        long[] away = new long[yields];
        try {
            Thread.sleep(SETTLE_NS / 1_000_000);
            for (int i = 0; i < yields; i++) {
                long start = System.nanoTime();
                Thread.yield();
                away[i] = System.nanoTime() - start;
            }
        } finally {
            stop.raised = true;
            for (Thread spinner : spinners) {
                spinner.join();
            }
        }
        return away;
    }

    /** The same shape in a simulation of {@code host}: a busy thread per processor, one yielder. */
    static long[] simulate(MachineProfile host, long seed, int yields) {
        Simulation simulation = Simulation.builder(host).seed(seed).memoryModel(false).noise(true).build();
        SimulatedPlatform platform = simulation.platform();
        Flag stop = new Flag();
        for (int i = 0; i < host.logicalProcessors(); i++) {
            simulation.startThread("busy-" + i, () -> {
                while (!stop.raised) {
                    platform.pause(SPINNER_PAUSES);
                }
            });
        }
        long[] away = new long[yields];
        simulation.startThread("yielder", () -> {
            platform.sleep(SETTLE_NS);
            for (int i = 0; i < yields; i++) {
                long start = platform.nanoTime();
                platform.yieldThread();
                away[i] = platform.nanoTime() - start;
            }
            stop.raised = true;
        });
        simulation.run().requireCompleted();
        return away;
    }

    /** One line: both sides' figures. */
    public String describe() {
        if (!measured()) {
            return "not measured";
        }
        return String.format(Locale.ROOT, "a busy thread on every processor and one more yielding: this host %s "
                + "(median of %d runs of %d yields); simulated %s (median of %d seeds of %d)", text(hardware),
                HARDWARE_REPETITIONS, HARDWARE_YIELDS, text(simulated), SEEDS, SIMULATED_YIELDS);
    }

    private static String text(Figures f) {
        return String.format(Locale.ROOT, "%.1f µs per yield on average, %.1f µs median, %.1f %% away over %d µs, "
                + "longest %.1f µs", f.meanNs() / 1e3, f.medianNs() / 1e3, 100 * f.longShare(), LONG_YIELD_NS / 1000,
                f.longestNs() / 1e3);
    }

    /** A stop flag for the busy threads; plain in the simulation (one thread runs at a time there). */
    private static final class Flag {
        volatile boolean raised;
        volatile long count;
    }
}
