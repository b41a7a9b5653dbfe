package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * How fast the engine schedules: scheduling events (steps) per second of wall time with 10,
 * 1,000 and 10,000 simulated threads, the heap 10,000 threads take, and how wall time grows
 * with the number of events. A program, not a test: speed is asserted nowhere (STYLE.md);
 * the figures go to {@code simulator/SIMULATOR-RESULTS.md}.
 *
 * <p>Shapes: {@code spin} — every thread loops on {@code pause(1)} on a machine with a processor
 * per thread (up to 4,096, with 10 µs time slices so that more threads take turns), so
 * consecutive events belong to different threads and every step is a full hand-off;
 * {@code ring} — a token passes around the threads by unpark/park on the
 * 8-processor Skylake preset, so every hop is an unpark, a wake-up, a dispatch and a park
 * (context switches, run queue, wake latency).
 *
 * <p>Run after {@code install}, with the simulator's test and main classes, model, impl and
 * Jackson on the class path: {@code java --add-opens java.base/java.lang=ALL-UNNAMED -Xmx1g
 * -cp ... io.spinlab.sim.engine.SchedulingBenchmark}
 */
public final class SchedulingBenchmark {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final int MAX_PROCESSORS = 4096;
    /** Short slices in the spin shape, so that 10,000 threads take turns on 4,096 processors. */
    private static final double SPIN_SLICE_NS = 10_000;

    private SchedulingBenchmark() {
    }

    /** The figures of one run. */
    record Figures(String shape, int threads, long steps, long handOffs, double wallSeconds, long heapBytes) {
        double stepsPerSecond() {
            return steps / wallSeconds;
        }

        double handOffsPerSecond() {
            return handOffs / wallSeconds;
        }
    }

    public static void main(String[] args) {
        System.out.println("JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
                + " host processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        // Warm-up: JIT the engine and the hand-off path.
        for (int i = 0; i < 3; i++) {
            spin(10, 300_000);
            spin(1_000, 300_000);
            ring(1_000, 100_000);
        }
        System.out.println();
        System.out.println("| shape | threads | steps | hand-offs | wall s | steps/s | hand-offs/s | ns/step |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (int threads : new int[] {10, 1_000, 10_000}) {
            print(best(() -> spin(threads, 3_000_000)));
        }
        for (int threads : new int[] {10, 1_000, 10_000}) {
            print(best(() -> ring(threads, 1_000_000)));
        }
        System.out.println();
        System.out.println("Heap in use (after a full GC) once every thread has run and parked, ring shape:");
        for (int threads : new int[] {10, 1_000, 10_000}) {
            Figures f = ring(threads, 4L * threads + 1_000, true);
            System.out.printf(Locale.ROOT, "- %,d threads: %.1f MiB%n", threads, f.heapBytes() / 1048576.0);
        }
        System.out.println();
        System.out.println("Linear fit of wall time over events, ring shape, 10,000 threads:");
        System.out.println("| steps | wall s |");
        System.out.println("|---:|---:|");
        long[] sizes = {2_000_000, 4_000_000, 8_000_000, 16_000_000};
        double[] x = new double[sizes.length];
        double[] y = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            long steps = sizes[i];
            Figures f = best(() -> ring(10_000, steps));
            x[i] = f.steps();
            y[i] = f.wallSeconds();
            System.out.printf(Locale.ROOT, "| %,d | %.3f |%n", f.steps(), f.wallSeconds());
        }
        fit(x, y);
    }

    private static Figures best(java.util.function.Supplier<Figures> run) {
        Figures best = null;
        for (int i = 0; i < 3; i++) {
            Figures f = run.get();
            if (best == null || f.wallSeconds() < best.wallSeconds()) {
                best = f;
            }
        }
        return best;
    }

    private static void print(Figures f) {
        System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %.3f | %,.0f | %,.0f | %.0f |%n", f.shape(),
                f.threads(), f.steps(), f.handOffs(), f.wallSeconds(), f.stepsPerSecond(), f.handOffsPerSecond(),
                1e9 / f.stepsPerSecond());
    }

    /** Every thread pauses in a loop, one processor per thread: each step hands off to another thread. */
    static Figures spin(int threads, long steps) {
        int processors = Math.min(threads, MAX_PROCESSORS);
        MachineProfile machine = SKYLAKE.toBuilder().physicalCores(processors).logicalProcessors(processors)
                .timeSliceNs(SPIN_SLICE_NS).build();
        Simulation sim = Simulation.builder(machine)
                .budgets(Budgets.defaults().withMaxSteps(steps).withMaxWallMillis(600_000))
                .build();
        SimulatedPlatform platform = sim.platform();
        for (int i = 0; i < threads; i++) {
            sim.startThread("t" + i, () -> {
                for (;;) {
                    platform.pause(1);
                }
            });
        }
        return measure("spin", threads, sim, new long[] {-1});
    }

    /** A token passes around a ring of threads by unpark and park, on the 8-processor Skylake. */
    static Figures ring(int threads, long steps) {
        return ring(threads, steps, false);
    }

    /** As {@link #ring(int, long)}; with {@code probeHeap}, thread 0 measures the heap (a full GC) after one lap. */
    static Figures ring(int threads, long steps, boolean probeHeap) {
        Simulation sim = Simulation.builder(SKYLAKE)
                .budgets(Budgets.defaults().withMaxSteps(steps).withMaxWallMillis(600_000))
                .build();
        SimulatedPlatform platform = sim.platform();
        Thread[] ring = new Thread[threads];
        int[] token = {0};
        long[] heap = {-1};
        for (int i = 0; i < threads; i++) {
            int me = i;
            ring[i] = sim.startThread("r" + i, () -> {
                for (int lap = 0; ; lap++) {
                    while (token[0] != me) {
                        platform.park(token);
                    }
                    if (probeHeap && me == 0 && lap == 1) {
                        heap[0] = usedHeap(); // every thread has run and parked once
                    }
                    token[0] = (me + 1) % threads;
                    platform.unpark(ring[(me + 1) % threads]);
                }
            });
        }
        return measure("ring", threads, sim, heap);
    }

    private static Figures measure(String shape, int threads, Simulation sim, long[] heap) {
        long start = System.nanoTime();
        SimulationResult result = sim.run();
        double wall = (System.nanoTime() - start) / 1e9;
        if (result.outcome() != Outcome.BUDGET_EXHAUSTED) {
            throw new IllegalStateException("expected to stop at the step budget: " + result.report());
        }
        return new Figures(shape, threads, result.steps(), result.handOffs(), wall, heap[0]);
    }

    private static long usedHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static void fit(double[] x, double[] y) {
        int n = x.length;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i] / n;
            my += y[i] / n;
        }
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        double slope = sxy / sxx;
        double intercept = my - slope * mx;
        double r2 = sxy * sxy / (sxx * syy);
        System.out.printf(Locale.ROOT, "wall s = %.4f + %.1f ns × steps, R² = %.5f%n", intercept, slope * 1e9, r2);
    }
}
