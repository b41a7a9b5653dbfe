package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.LineHandover;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code calibrate}'s check of what the memory model charges for handing a cache line from core to
 * core: two threads hand a counter back and forth ({@link LineHandover}), waiting either by reading
 * it with a PAUSE between reads (as most primitives wait on a flag) or by retrying a CAS (as the
 * core-to-core-latency tool that the presets' transfers come from, and as the profile's line transfer
 * is measured), on this host's real threads and in the simulator of its profile. The model charges a
 * reading hand-over the writer's upgrade ({@code invalidationNs}) and one transfer, a CAS hand-over one
 * transfer, so the simulated figures show at once how far the model's rules are from this host's
 * hand-overs. Reported, not used for the profile.
 *
 * @param transferNs      the profile's line transfer, ns (NaN if not measured)
 * @param hardwareReadNs  real threads, waiting by reads: ns per hand-over (median of runs), NaN if not measured
 * @param hardwareCasNs   real threads, waiting by CAS retries
 * @param simulatedReadNs the simulator of the host's profile, waiting by reads (median of seeds)
 * @param simulatedCasNs  the simulator, waiting by CAS retries
 */
public record HandoverCheck(double transferNs, double hardwareReadNs, double hardwareCasNs,
                            double simulatedReadNs, double simulatedCasNs) {

    /** Hand-overs per real-thread run: some 50 ms at 250 ns each. */
    public static final int HARDWARE_HANDOVERS = 200_000;
    /** Real-thread runs per way of waiting; the median is reported. */
    public static final int HARDWARE_RUNS = 5;
    /** Real time each way of waiting first runs unmeasured, so that its runs measure compiled code. */
    public static final long HARDWARE_WARMUP_NANOS = 300_000_000L;
    /** Hand-overs per simulated seed. */
    public static final int SIMULATED_HANDOVERS = 4_000;
    /** Simulated seeds (with the host's noise); the median is reported. */
    public static final int SEEDS = 3;

    /** A check that was not run (a host with one processor has no second core to hand a line to). */
    public static HandoverCheck unmeasured() {
        return new HandoverCheck(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** Whether the check ran. */
    public boolean ran() {
        return !Double.isNaN(simulatedReadNs);
    }

    /** The median ns per hand-over of runs of the loop (the upper median of an even count). */
    static double nsPerHandover(List<WorkloadResult> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs");
        }
        double[] ns = runs.stream().mapToDouble(r -> r.elapsedNanos() / (double) r.operations()).toArray();
        Arrays.sort(ns);
        return ns[ns.length / 2];
    }

    /**
     * Runs both ways of waiting on this host's real threads and in simulations of {@code host} (memory
     * model on, the host's noise, seeds 1 to {@value #SEEDS}); unmeasured where the host or the profile
     * has one core.
     *
     * @throws InterruptedException if interrupted during a real-thread run
     */
    public static HandoverCheck measure(MachineProfile host) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        if (Runtime.getRuntime().availableProcessors() < 2 || host.physicalCores() < 2) {
            return unmeasured();
        }
        double[] figures = new double[4];
        for (int way = 0; way < 2; way++) {
            boolean cas = way == 1;
            WorkloadRunner.warmUpOnHardware(new LineHandover(HARDWARE_HANDOVERS, cas), Tuning.current(),
                    HARDWARE_WARMUP_NANOS);
            List<WorkloadResult> real = new ArrayList<>();
            for (int run = 0; run < HARDWARE_RUNS; run++) {
                real.add(WorkloadRunner.onHardware(new LineHandover(HARDWARE_HANDOVERS, cas), Tuning.current()));
            }
            List<WorkloadResult> simulated = new ArrayList<>();
            for (long seed = 1; seed <= SEEDS; seed++) {
                simulated.add(WorkloadRunner.simulate(LineHandover.class, List.of(SIMULATED_HANDOVERS, cas),
                        Tuning.current(), Simulation.builder(host).seed(seed).memoryModel(true).noise(true)).result());
            }
            figures[way] = nsPerHandover(real);
            figures[2 + way] = nsPerHandover(simulated);
        }
        return new HandoverCheck(host.cacheLineTransferNs(), figures[0], figures[1], figures[2], figures[3]);
    }

    /** One line: both ways of waiting on both sides, or why the check did not run. */
    public String describe() {
        if (!ran()) {
            return "not measured (it needs 2 cores)";
        }
        return String.format(Locale.ROOT, "2 threads handing a counter back and forth, ns per hand-over: waiting by "
                + "reads with a PAUSE between them, this host %.1f, simulated %.1f (%.2f× the profile's line transfer "
                + "of %.1f); waiting by CAS retries, this host %.1f, simulated %.1f (median of %d runs, of %d seeds)",
                hardwareReadNs, simulatedReadNs, simulatedReadNs / transferNs, transferNs, hardwareCasNs, simulatedCasNs,
                HARDWARE_RUNS, SEEDS);
    }
}
