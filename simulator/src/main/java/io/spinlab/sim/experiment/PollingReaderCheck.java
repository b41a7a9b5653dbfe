package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.PollingReader;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * {@code calibrate}'s check of who pays for a read of another core's line ({@link PollingReader}): one
 * thread offering and taking alone on a queue's ring, then beside a second thread that polls the ring's
 * tail and slot with a PAUSE between rounds, on this host's real threads and in the simulator of its
 * profile. The model charges the reader a whole transfer for each read of a line the writer changed and
 * the writer one for taking it back; how much each side slows on the host says whether that split is the
 * machine's. Reported, not used for the profile.
 *
 * @param hardware  the real threads' figures (medians of runs), all NaN when not measured
 * @param simulated the simulator's figures (medians of seeds)
 */
public record PollingReaderCheck(Figures hardware, Figures simulated) {

    /** Offers and takes per real-thread run: some 10 to 100 ms. */
    public static final int HARDWARE_OPERATIONS = 1_000_000;
    /** Real-thread runs per shape; the medians are reported. */
    public static final int HARDWARE_RUNS = 5;
    /** Real time each shape first runs unmeasured, so that its runs measure compiled code. */
    public static final long HARDWARE_WARMUP_NANOS = 300_000_000L;
    /** Offers and takes per simulated seed. */
    public static final int SIMULATED_OPERATIONS = 5_000;
    /** Simulated seeds (with the host's noise); the medians are reported. */
    public static final int SEEDS = 3;

    public PollingReaderCheck {
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(simulated, "simulated");
    }

    /**
     * One side's medians.
     *
     * @param aloneNs  the writer alone, ns per offer and take
     * @param besideNs the writer beside the poller, ns per offer and take
     * @param pollNs   the poller, ns per round
     */
    public record Figures(double aloneNs, double besideNs, double pollNs) {

        static final Figures NONE = new Figures(Double.NaN, Double.NaN, Double.NaN);

        /** The medians of runs without a poller and runs with one. */
        static Figures of(List<WorkloadResult> alone, List<WorkloadResult> beside) {
            return new Figures(median(alone, r -> r.elapsedNanos() / (double) r.operations()),
                    median(beside, r -> r.elapsedNanos() / (double) r.operations()),
                    median(beside, r -> r.metric(PollingReader.POLL_NANOS) / Math.max(1, r.metric(PollingReader.POLLS))));
        }

        private static double median(List<WorkloadResult> runs, ToDoubleFunction<WorkloadResult> figure) {
            if (runs.isEmpty()) {
                throw new IllegalArgumentException("no runs");
            }
            double[] values = runs.stream().mapToDouble(figure).toArray();
            Arrays.sort(values);
            return values[values.length / 2];
        }
    }

    /** A check that was not run (a host with one processor has no second core to poll from). */
    public static PollingReaderCheck unmeasured() {
        return new PollingReaderCheck(Figures.NONE, Figures.NONE);
    }

    /** Whether the check ran. */
    public boolean ran() {
        return !Double.isNaN(simulated.aloneNs());
    }

    /**
     * Runs both shapes on this host's real threads and in simulations of {@code host} (memory model on,
     * the host's noise, seeds 1 to {@value #SEEDS}); unmeasured where the host or the profile has one core.
     *
     * @throws InterruptedException if interrupted during a real-thread run
     */
    public static PollingReaderCheck measure(MachineProfile host) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        if (Runtime.getRuntime().availableProcessors() < 2 || host.physicalCores() < 2) {
            return unmeasured();
        }
        List<List<WorkloadResult>> real = new ArrayList<>();
        List<List<WorkloadResult>> simulated = new ArrayList<>();
        for (boolean poller : new boolean[] {false, true}) {
            WorkloadRunner.warmUpOnHardware(new PollingReader(HARDWARE_OPERATIONS, poller), Tuning.current(),
                    HARDWARE_WARMUP_NANOS);
            List<WorkloadResult> runs = new ArrayList<>();
            for (int run = 0; run < HARDWARE_RUNS; run++) {
                runs.add(WorkloadRunner.onHardware(new PollingReader(HARDWARE_OPERATIONS, poller), Tuning.current()));
            }
            real.add(runs);
            List<WorkloadResult> seeds = new ArrayList<>();
            for (long seed = 1; seed <= SEEDS; seed++) {
                seeds.add(WorkloadRunner.simulate(PollingReader.class, List.of(SIMULATED_OPERATIONS, poller),
                        Tuning.current(), Simulation.builder(host).seed(seed).memoryModel(true).noise(true)).result());
            }
            simulated.add(seeds);
        }
        return new PollingReaderCheck(Figures.of(real.get(0), real.get(1)), Figures.of(simulated.get(0),
                simulated.get(1)));
    }

    /** One line: both sides' figures, or why the check did not run. */
    public String describe() {
        if (!ran()) {
            return "not measured (it needs 2 cores)";
        }
        return String.format(Locale.ROOT, "a thread offering and taking alone on a queue's ring, then beside a thread "
                + "polling the ring's tail and slot with a PAUSE between rounds: this host %.1f ns per offer and take "
                + "alone, %.1f beside the poller, the poller %.1f ns a round; simulated %.1f, %.1f, %.1f (median of %d "
                + "runs, of %d seeds)", hardware.aloneNs(), hardware.besideNs(), hardware.pollNs(), simulated.aloneNs(),
                simulated.besideNs(), simulated.pollNs(), HARDWARE_RUNS, SEEDS);
    }
}
