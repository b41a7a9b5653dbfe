package io.spinlab.junit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Budgets;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.memory.GuestClassLoader;

import java.util.ArrayList;
import java.util.List;

/**
 * One invocation's configuration: machine, tuning, seed and what the guest loader instruments;
 * builds its {@link Sim}. A case that keeps scheduling points for its failure report also
 * records a trace; one that keeps none (a measurement) records neither.
 */
record SimCase(MachineProfile machine, Tuning tuning, long seed, List<String> guestPrefixes, int schedulingPoints,
               long maxVirtualMillis) {

    /** Most trace records a failing run's trace file keeps. */
    private static final long TRACE_LIMIT = 200_000;

    SimCase {
        guestPrefixes = List.copyOf(guestPrefixes);
        if (schedulingPoints < 0 || schedulingPoints > 10_000) {
            throw new IllegalArgumentException("schedulingPoints = " + schedulingPoints + "; allowed 0 to 10000");
        }
        if (maxVirtualMillis < 1) {
            throw new IllegalArgumentException("maxVirtualMillis = " + maxVirtualMillis + "; allowed 1 or more");
        }
    }

    /** The guest packages of code in {@code type}'s package plus {@code extra}. */
    static List<String> guestPrefixes(Class<?> type, String... extra) {
        String pkg = type.getPackageName();
        if (pkg.isEmpty()) {
            throw new IllegalArgumentException(type.getName() + " is in the unnamed package; put simulated tests and "
                    + "the code they test in a package, whose classes are then loaded instrumented");
        }
        List<String> prefixes = new ArrayList<>();
        prefixes.add(pkg + ".");
        for (String p : extra) {
            String prefix = p.strip();
            prefixes.add(prefix.endsWith(".") ? prefix : prefix + ".");
        }
        for (String prefix : prefixes) {
            if (SimulationTest.class.getName().startsWith(prefix)) {
                throw new IllegalArgumentException("guest package " + prefix + " would include spinlab's own "
                        + "io.spinlab.junit; move the test to a package of its own");
            }
        }
        return prefixes;
    }

    /** {@code skylake-i7-6700, seed 3}, with the tuning when {@code withTuning}. */
    String displayName(boolean withTuning) {
        return MachineSpec.describe(machine) + (withTuning ? ", " + tuning.describe() : "") + ", seed " + seed;
    }

    Simulation.Builder builder() {
        return Simulation.builder(machine).seed(seed).memoryModel(true).noise(true)
                .guestPackages(guestPrefixes.toArray(String[]::new))
                .recordSchedulingPoints(schedulingPoints)
                .trace(schedulingPoints > 0).traceLimit(TRACE_LIMIT)
                .budgets(Budgets.defaults().withMaxVirtualNanos(maxVirtualMillis * 1_000_000L))
                .context("tuning=" + tuning.describe());
    }

    GuestClassLoader loader() {
        return builder().guestLoader();
    }

    Sim newSim() {
        return new Sim(machine, seed, tuning, builder());
    }
}
