package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.workload.ContendedCounter;
import io.spinlab.sim.workload.CounterArray;
import io.spinlab.sim.workload.QueueMpmcThroughput;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadRunner;

import java.util.List;
import java.util.Locale;

/**
 * How fast the simulator runs with the memory model on, at 100 simulated threads, and how much
 * slower the same workload runs than with Platform calls only. A program, not a test: speed is
 * asserted nowhere (STYLE.md); the figures go to {@code simulator/SIMULATOR-RESULTS.md}.
 *
 * <p>An <em>event</em> is a scheduling step (a Platform call, a memory access with the model on,
 * a wake-up). Shapes, each with 100 worker threads (plus the workload's main thread):
 * {@code queue} — 50 producers and 50 consumers through ConcurrentQueue on {@code manycore-256};
 * {@code padded} — 100 threads incrementing their own padded counters (every
 * access a hit); {@code cas} — 100 threads on one CAS counter (every access contended).
 *
 * <p>Run after {@code install}, with the simulator's test and main classes, model, impl, ASM
 * and Agrona on the class path: {@code java --add-opens java.base/java.lang=ALL-UNNAMED -Xmx1g
 * -cp ... io.spinlab.sim.memory.MemoryModelBenchmark}
 */
public final class MemoryModelBenchmark {

    private static final MachineProfile MANYCORE = MachinePresets.byName("manycore-256");
    private static final int RUNS = 3;

    private MemoryModelBenchmark() {
    }

    /** One shape: a workload recipe on a machine. */
    private record Shape(String name, Class<? extends Workload> type, List<Object> arguments, Tuning tuning,
            MachineProfile machine) {
    }

    /** The best of {@link #RUNS} runs. */
    private record Figures(long steps, double wallSeconds, long virtualPicos) {
        double eventsPerSecond() {
            return steps / wallSeconds;
        }
    }

    public static void main(String[] args) {
        System.out.println("JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
                + " host processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        List<Shape> shapes = List.of(
                new Shape("queue", QueueMpmcThroughput.class, List.of(50, 50, 200),
                        Tuning.current().with("global-queue", "concurrent-queue"), MANYCORE),
                new Shape("padded", CounterArray.class, List.of(100, 2_000, 16), Tuning.current(), MANYCORE),
                new Shape("cas", ContendedCounter.class, List.of(100, 20), Tuning.current(), MANYCORE));
        for (Shape shape : shapes) {
            run(shape, true);
            run(shape, false);
        }
        System.out.println();
        System.out.println("| shape | threads | events on | wall s on | events/s on | events off | wall s off "
                + "| events/s off | slowdown (wall) | ns/event on | ns/event off |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Shape shape : shapes) {
            Figures on = best(shape, true);
            Figures off = best(shape, false);
            System.out.printf(Locale.ROOT,
                    "| %s | 100 | %,d | %.3f | %,.0f | %,d | %.3f | %,.0f | %.1f× | %.0f | %.0f |%n",
                    shape.name(), on.steps(), on.wallSeconds(), on.eventsPerSecond(), off.steps(),
                    off.wallSeconds(), off.eventsPerSecond(), on.wallSeconds() / off.wallSeconds(),
                    on.wallSeconds() * 1e9 / on.steps(), off.wallSeconds() * 1e9 / off.steps());
        }
    }

    private static Figures best(Shape shape, boolean memoryModel) {
        Figures best = null;
        for (int i = 0; i < RUNS; i++) {
            Figures f = run(shape, memoryModel);
            if (best == null || f.wallSeconds() < best.wallSeconds()) {
                best = f;
            }
        }
        return best;
    }

    private static Figures run(Shape shape, boolean memoryModel) {
        long start = System.nanoTime();
        SimulationResult result = WorkloadRunner.simulate(shape.type(), shape.arguments(), shape.tuning(),
                Simulation.builder(shape.machine()).seed(1).memoryModel(memoryModel)).simulation().requireCompleted();
        double wall = (System.nanoTime() - start) / 1e9;
        return new Figures(result.steps(), wall, result.endPicos());
    }
}
