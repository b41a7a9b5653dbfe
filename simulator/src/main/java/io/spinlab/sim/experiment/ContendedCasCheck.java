package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.ContendedCasLoop;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code calibrate}'s check of the memory model's rule for a contended line: {@value #THREADS}
 * threads in a read-then-CAS loop on one word ({@link ContendedCasLoop}) on this host's real threads
 * and in the simulator of its profile, side by side. On hardware the core that holds the line
 * completes a burst of CASes before the other core's request takes it; how long the burst is, what
 * a success costs and how many CASes lose say whether the simulator passes a contended line between
 * cores as this machine does (the queued-request rule of {@code MemoryModel}). Reported, not used
 * for the profile: the profile takes the line transfer measured on its own.
 *
 * @param hardware  the real-thread runs' figures (the run with the median time per success)
 * @param simulated the simulated seeds' figures (the seed with the median time per success)
 */
public record ContendedCasCheck(Figures hardware, Figures simulated) {

    /** Threads in the loop: one per core of the smallest host that has a second core. */
    public static final int THREADS = 2;
    /** Successful CASes per thread on real threads: some 10 ms at 20 ns each, long past the threads' start. */
    public static final int HARDWARE_SUCCESSES = 500_000;
    /** Real-thread runs; the one with the median time per success is reported. */
    public static final int HARDWARE_RUNS = 5;
    /** Successful CASes per thread in the simulator: hundreds of changes of owner. */
    public static final int SIMULATED_SUCCESSES = 20_000;
    /** Simulated seeds (with the host's noise); the one with the median time per success is reported. */
    public static final int SEEDS = 3;

    public ContendedCasCheck {
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(simulated, "simulated");
    }

    /**
     * One run's figures.
     *
     * @param nsPerSuccess            time per successful CAS over all threads, ns
     * @param successesPerOwnerChange successes per read that found the other thread's write
     * @param failuresPerSuccess      failed CASes per successful one
     * @param longestLosingRun        the most CASes one thread lost in a row before it won one
     */
    public record Figures(double nsPerSuccess, double successesPerOwnerChange, double failuresPerSuccess,
                          double longestLosingRun) {

        static final Figures NONE = new Figures(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        /** The figures of one run of {@link ContendedCasLoop}. */
        public static Figures of(WorkloadResult result) {
            double successes = result.operations();
            double changes = result.metric(ContendedCasLoop.OWNER_CHANGES);
            return new Figures(result.elapsedNanos() / successes,
                    changes == 0 ? Double.POSITIVE_INFINITY : successes / changes,
                    result.metric(ContendedCasLoop.FAILURES) / successes,
                    result.metric(ContendedCasLoop.LONGEST_LOSING_RUN));
        }

        /** The figures with the median time per success (the upper median of an even count). */
        static Figures median(List<Figures> runs) {
            List<Figures> sorted = new ArrayList<>(runs);
            sorted.sort(Comparator.comparingDouble(Figures::nsPerSuccess));
            return sorted.get(sorted.size() / 2);
        }
    }

    /** A check that was not run (a host with one processor has no second core to contend). */
    public static ContendedCasCheck unmeasured() {
        return new ContendedCasCheck(Figures.NONE, Figures.NONE);
    }

    /** Whether both sides were measured. */
    public boolean measured() {
        return !Double.isNaN(hardware.nsPerSuccess()) && !Double.isNaN(simulated.nsPerSuccess());
    }

    /**
     * Runs the loop on this host's real threads and in simulations of {@code host} (memory model on,
     * the host's noise, seeds 1 to {@value #SEEDS}); unmeasured where the host or the profile has
     * fewer than {@value #THREADS} cores.
     *
     * @throws InterruptedException if interrupted during a real-thread run
     */
    public static ContendedCasCheck measure(MachineProfile host) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        if (Runtime.getRuntime().availableProcessors() < THREADS || host.physicalCores() < THREADS) {
            return unmeasured();
        }
        List<Figures> real = new ArrayList<>();
        for (int run = 0; run < HARDWARE_RUNS; run++) {
            real.add(Figures.of(WorkloadRunner.onHardware(new ContendedCasLoop(THREADS, HARDWARE_SUCCESSES),
                    Tuning.current())));
        }
        List<Figures> simulated = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            simulated.add(Figures.of(WorkloadRunner.simulate(ContendedCasLoop.class,
                    List.of(THREADS, SIMULATED_SUCCESSES), Tuning.current(),
                    Simulation.builder(host).seed(seed).memoryModel(true).noise(true)).result()));
        }
        return new ContendedCasCheck(Figures.median(real), Figures.median(simulated));
    }

    /** One line: both sides' figures, or why the check did not run. */
    public String describe() {
        if (!measured()) {
            return "not measured (it needs " + THREADS + " cores)";
        }
        return String.format(Locale.ROOT, "%d threads in a read-then-CAS loop on one word: this host %.1f ns per "
                + "success, %.1f successes per change of writer, %.3f failed CASes per success, at most %.0f lost in a "
                + "row (median of %d runs); simulated %.1f ns, %.1f, %.3f, %.0f (median of %d seeds)", THREADS,
                hardware.nsPerSuccess(), hardware.successesPerOwnerChange(), hardware.failuresPerSuccess(),
                hardware.longestLosingRun(), HARDWARE_RUNS, simulated.nsPerSuccess(),
                simulated.successesPerOwnerChange(), simulated.failuresPerSuccess(), simulated.longestLosingRun(), SEEDS);
    }
}
