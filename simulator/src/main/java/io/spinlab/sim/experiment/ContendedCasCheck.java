package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.ContendedCasLoop;
import io.spinlab.sim.workload.ContendedRingLoop;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code calibrate}'s checks of the memory model's rule for a contended line: {@value #THREADS}
 * threads in one of two {@link Loop loops} on this host's real threads and in the simulator of its
 * profile, side by side. In a read-then-CAS loop on one word ({@link ContendedCasLoop}) the core that
 * holds the line completes a burst of CASes before the other core's request takes it; how long the
 * burst is, what a success costs and how many CASes lose say whether the simulator passes a contended
 * line between cores as this machine does (the queued-request rule of {@code MemoryModel}). In a
 * queue's ring ({@link ContendedRingLoop}) an offer reads a second line between its read of the tail
 * and its CAS, and a loser backs off: how often the offers change hands says whether a loser gets back
 * in as on this machine. Reported, not used for the profile: the profile takes the line transfer
 * measured on its own.
 *
 * <p>A real-thread run counts only if its threads ran side by side: on a shared two-processor host the
 * second thread is sometimes held off (by the hypervisor, a compiler thread) until the first has made
 * most of its successes alone, and such a run measures an uncontended CAS, not a contended line. A run
 * whose threads changed hands fewer than {@value #MIN_OWNER_CHANGES} times is left out and counted, and
 * another is made, up to {@value #MAX_HARDWARE_ATTEMPTS} in all.
 *
 * @param loop            which loop ran
 * @param hardware        the contended real-thread runs' figures (the run with the median time per
 *                        success), or all NaN when none contended
 * @param simulated       the simulated seeds' figures (the seed with the median time per success)
 * @param hardwareRuns    the contended real-thread runs the hardware figures come from
 * @param uncontendedRuns the real-thread runs left out because their threads did not run side by side
 */
public record ContendedCasCheck(Loop loop, Figures hardware, Figures simulated, int hardwareRuns,
                                int uncontendedRuns) {

    /** Threads in the loop: one per core of the smallest host that has a second core. */
    public static final int THREADS = 2;
    /** Successful CASes (or offers) per thread on real threads: some 10 to 100 ms, long past the threads' start. */
    public static final int HARDWARE_SUCCESSES = 500_000;
    /** Real-thread runs; the one with the median time per success is reported. */
    public static final int HARDWARE_RUNS = 5;
    /** Successful CASes (or offers) per thread in the simulator: hundreds of changes of owner. */
    public static final int SIMULATED_SUCCESSES = 20_000;
    /** Simulated seeds (with the host's noise); the one with the median time per success is reported. */
    public static final int SEEDS = 3;
    /**
     * Fewest changes of writer for a run to count as contended: a million successes side by side change
     * hands tens of thousands of times on this kind of host; a run held to a few changes ran one thread
     * after the other.
     */
    public static final int MIN_OWNER_CHANGES = 100;
    /**
     * Real time the loop first runs unmeasured on real threads, so that its runs measure compiled code (as
     * {@code calibrate}'s points do): the ring's first runs in a fresh JVM ran 46 ns per offer in bursts of 34,
     * its compiled runs 173–195 ns in bursts of 3 to 4.
     */
    public static final long HARDWARE_WARMUP_NANOS = 500_000_000L;
    /** Most real-thread runs made to get {@value #HARDWARE_RUNS} contended ones. */
    public static final int MAX_HARDWARE_ATTEMPTS = 3 * HARDWARE_RUNS;

    /** The two loops, each {@value #THREADS} threads: a success is a successful CAS, or an offer. */
    public enum Loop {
        /** {@link ContendedCasLoop}: read-then-CAS on one word. */
        WORD("%d threads in a read-then-CAS loop on one word", "success", "successes", "change of writer",
                "failed CASes"),
        /** {@link ContendedRingLoop}: offers and takes on a queue's ring, backing off after a loss. */
        RING("%d threads offering and taking one item at a time on a queue's ring, backing off after a lost race",
                "offer", "offers", "change of offerer", "lost attempts");

        private final String description;
        private final String unit;
        private final String units;
        private final String change;
        private final String losses;

        Loop(String description, String unit, String units, String change, String losses) {
            this.description = description;
            this.unit = unit;
            this.units = units;
            this.change = change;
            this.losses = losses;
        }

        Workload onHardware() {
            return this == WORD ? new ContendedCasLoop(THREADS, HARDWARE_SUCCESSES)
                    : new ContendedRingLoop(THREADS, HARDWARE_SUCCESSES);
        }

        Class<? extends Workload> simulated() {
            return this == WORD ? ContendedCasLoop.class : ContendedRingLoop.class;
        }
    }

    public ContendedCasCheck {
        Objects.requireNonNull(loop, "loop");
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(simulated, "simulated");
        if (hardwareRuns < 0 || uncontendedRuns < 0) {
            throw new IllegalArgumentException("hardwareRuns = " + hardwareRuns + ", uncontendedRuns = "
                    + uncontendedRuns + "; allowed 0 or more");
        }
    }

    /** Both sides' figures, the hardware's from {@value #HARDWARE_RUNS} contended runs and none left out. */
    public ContendedCasCheck(Loop loop, Figures hardware, Figures simulated) {
        this(loop, hardware, simulated, HARDWARE_RUNS, 0);
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
    public static ContendedCasCheck unmeasured(Loop loop) {
        return new ContendedCasCheck(loop, Figures.NONE, Figures.NONE, 0, 0);
    }

    /** Whether a run of the loop had its threads side by side: at least {@value #MIN_OWNER_CHANGES} changes of writer. */
    static boolean contended(WorkloadResult run) {
        return run.metric(ContendedCasLoop.OWNER_CHANGES) >= MIN_OWNER_CHANGES;
    }

    /**
     * The check from its runs: the contended real-thread runs' median (the others counted as left out)
     * beside the simulated seeds' median.
     */
    static ContendedCasCheck of(Loop loop, List<WorkloadResult> hardwareRuns, List<WorkloadResult> simulatedRuns) {
        List<Figures> real = new ArrayList<>();
        int uncontended = 0;
        for (WorkloadResult run : hardwareRuns) {
            if (contended(run)) {
                real.add(Figures.of(run));
            } else {
                uncontended++;
            }
        }
        List<Figures> simulated = simulatedRuns.stream().map(Figures::of).toList();
        return new ContendedCasCheck(loop, real.isEmpty() ? Figures.NONE : Figures.median(real),
                simulated.isEmpty() ? Figures.NONE : Figures.median(simulated), real.size(), uncontended);
    }

    /** Whether both sides were measured. */
    public boolean measured() {
        return !Double.isNaN(hardware.nsPerSuccess()) && !Double.isNaN(simulated.nsPerSuccess());
    }

    /** Whether the check ran (the host and its profile have two cores), whether or not a real-thread run contended. */
    public boolean ran() {
        return !Double.isNaN(simulated.nsPerSuccess());
    }

    /**
     * Runs {@code loop} on this host's real threads (after {@value #HARDWARE_WARMUP_NANOS} ns of unmeasured runs)
     * and in simulations of {@code host} (memory model on,
     * the host's noise, seeds 1 to {@value #SEEDS}); unmeasured where the host or the profile has
     * fewer than {@value #THREADS} cores.
     *
     * @throws InterruptedException if interrupted during a real-thread run
     */
    public static ContendedCasCheck measure(MachineProfile host, Loop loop) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(loop, "loop");
        if (Runtime.getRuntime().availableProcessors() < THREADS || host.physicalCores() < THREADS) {
            return unmeasured(loop);
        }
        WorkloadRunner.warmUpOnHardware(loop.onHardware(), Tuning.current(), HARDWARE_WARMUP_NANOS);
        List<WorkloadResult> real = new ArrayList<>();
        int contended = 0;
        for (int attempt = 0; attempt < MAX_HARDWARE_ATTEMPTS && contended < HARDWARE_RUNS; attempt++) {
            WorkloadResult run = WorkloadRunner.onHardware(loop.onHardware(), Tuning.current());
            real.add(run);
            contended += contended(run) ? 1 : 0;
        }
        List<WorkloadResult> simulated = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            simulated.add(WorkloadRunner.simulate(loop.simulated(), List.of(THREADS, SIMULATED_SUCCESSES),
                    Tuning.current(), Simulation.builder(host).seed(seed).memoryModel(true).noise(true)).result());
        }
        return of(loop, real, simulated);
    }

    /** One line: both sides' figures, or why the check did not run. */
    public String describe() {
        if (!ran()) {
            return "not measured (it needs " + THREADS + " cores)";
        }
        String leftOut = uncontendedRuns == 0 ? "" : String.format(Locale.ROOT, "; %d more left out, their threads "
                + "changed hands fewer than %d times", uncontendedRuns, MIN_OWNER_CHANGES);
        String host = measured()
                ? String.format(Locale.ROOT, "this host %.1f ns per %s, %.1f %s per %s, %.3f %s per %s, at most "
                        + "%.0f lost in a row (median of %d runs%s)", hardware.nsPerSuccess(), loop.unit,
                        hardware.successesPerOwnerChange(), loop.units, loop.change, hardware.failuresPerSuccess(),
                        loop.losses, loop.unit, hardware.longestLosingRun(), hardwareRuns, leftOut)
                : String.format(Locale.ROOT, "this host not measured (in none of %d runs did the threads change hands "
                        + "%d times: they did not run side by side)", uncontendedRuns, MIN_OWNER_CHANGES);
        return String.format(Locale.ROOT, loop.description + ": %s; simulated %.1f ns, %.1f, %.3f, %.0f (median of "
                + "%d seeds)", THREADS, host, simulated.nsPerSuccess(), simulated.successesPerOwnerChange(),
                simulated.failuresPerSuccess(), simulated.longestLosingRun(), SEEDS);
    }
}
