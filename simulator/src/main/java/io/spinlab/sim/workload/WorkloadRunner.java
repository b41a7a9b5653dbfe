package io.spinlab.sim.workload;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;

import java.util.Objects;
import java.util.Optional;

/** Runs a {@link Workload} on real hardware or in the simulator. */
public final class WorkloadRunner {

    private WorkloadRunner() {
    }

    /** Runs {@code workload} on {@link HardwarePlatform} with real threads and real time, on the calling thread. */
    public static WorkloadResult onHardware(Workload workload, Tuning tuning) throws InterruptedException {
        return workload.run(SpinContext.of(HardwarePlatform.INSTANCE, tuning));
    }

    /** Runs {@code workload} in a simulation of {@code machine} with {@code seed} and no faults. */
    public static SimulatedRun simulate(Workload workload, Tuning tuning, MachineProfile machine, long seed) {
        return simulate(workload, tuning, Simulation.builder(machine).seed(seed).faults(Faults.none()));
    }

    /**
     * Runs {@code workload} in a simulation configured by {@code simulation} (machine, seed,
     * faults, budgets, trace); the workload and tuning are added to its reproduction line. The
     * workload runs on a simulated thread named {@code main}.
     */
    public static SimulatedRun simulate(Workload workload, Tuning tuning, Simulation.Builder simulation) {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(tuning, "tuning");
        Simulation sim = simulation.context("workload=" + workload.describe() + " tuning=" + tuning.describe())
                .initialize(workload.getClass())
                .build();
        SpinContext context = SpinContext.of(sim.platform(), tuning);
        WorkloadResult[] out = new WorkloadResult[1];
        sim.startThread("main", () -> {
            try {
                out[0] = workload.run(context);
            } catch (InterruptedException e) {
                throw new IllegalStateException("the workload was interrupted", e);
            }
        });
        SimulationResult result = sim.run();
        return new SimulatedRun(result.completed() ? Optional.ofNullable(out[0]) : Optional.empty(), result);
    }
}
