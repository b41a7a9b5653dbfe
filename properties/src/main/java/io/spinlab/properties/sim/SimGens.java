package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.sim.engine.Faults;

import java.util.List;

/**
 * Generators of simulated worlds: machines, fault schedules, seeds. Each shrinks toward the
 * simplest world that still shows a failure — fewer processors, the first (cheapest) PAUSE
 * cost, no faults, seed 0 — because the engine shrinks their choices like any other.
 */
public final class SimGens {

    /** PAUSE costs in cycles, simplest first: what the spin heuristics were tuned for, then beyond. */
    public static final List<Integer> PAUSE_CYCLES = List.of(10, 1, 40, 140, 300, 1000);
    /** Logical processor counts, smallest first. */
    public static final List<Integer> PROCESSORS = List.of(2, 1, 4, 8, 16, 64);

    private SimGens() {
    }

    /**
     * Machines: a preset, then its PAUSE cost and processor count varied over the ranges above
     * (other costs kept). Shrinks toward the first preset with a 10-cycle PAUSE on 2 processors.
     */
    public static Gen<MachineProfile> machines() {
        Gen<MachineProfile> preset = Gens.choose(MachinePresets.all());
        return Gens.zip(preset, Gens.choose(PAUSE_CYCLES), Gens.choose(PROCESSORS), SimGens::vary);
    }

    /** Machines with exactly these ranges of PAUSE cycles and processors, from one base profile. */
    public static Gen<MachineProfile> machines(MachineProfile base, List<Integer> pauseCycles, List<Integer> processors) {
        return Gens.zip(Gens.choose(pauseCycles), Gens.choose(processors), (pause, procs) -> vary(base, pause, procs));
    }

    /** The machine with another PAUSE cost and processor count, named for what changed. */
    public static MachineProfile vary(MachineProfile base, int pauseCycles, int processors) {
        MachineProfile varied = base.withPauseCycles(pauseCycles).withProcessors(processors, processors);
        return varied.withName(base.name() + "@pause=" + pauseCycles + ",procs=" + processors);
    }

    /**
     * Fault schedules: each fault kind off or on at a generated rate; shrinks toward no faults.
     * Rates stay modest so that runs finish: the point is the interleavings they force.
     */
    public static Gen<Faults> faults() {
        Gen<Double> rate = Gens.choose(0.0, 0.01, 0.05, 0.2);
        Gen<Long> nanos = Gens.choose(1_000L, 20_000L, 200_000L);
        return source -> {
            Faults faults = Faults.none();
            double spurious = rate.generate(source);
            if (spurious > 0) {
                faults = faults.withSpuriousWakeups(spurious, nanos.generate(source));
            }
            double preemption = rate.generate(source);
            if (preemption > 0) {
                faults = faults.withPreemption(preemption, nanos.generate(source));
            }
            double delayed = rate.generate(source);
            if (delayed > 0) {
                faults = faults.withDelayedWakeups(delayed, nanos.generate(source));
            }
            long jitter = Gens.choose(0L, 100L, 5_000L).generate(source);
            if (jitter > 0) {
                faults = faults.withClockJitter(jitter);
            }
            return faults;
        };
    }

    /** Seeds for the simulation's own PRNG; shrink toward 0. */
    public static Gen<Long> seeds() {
        return Gens.longs(0, Long.MAX_VALUE);
    }
}
