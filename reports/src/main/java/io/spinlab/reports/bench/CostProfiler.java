package io.spinlab.reports.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A JMH profiler for what throughput does not show: the CPU an operation burns, and how evenly
 * the threads of a lock benchmark shared it. A primitive that wins by spinning a second core
 * shows it in {@value #CPU_CORES}.
 *
 * <p>CPU time is the fork's process CPU time ({@code com.sun.management.OperatingSystemMXBean},
 * {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)} on Linux: no extra installs), read before and
 * after each iteration: every thread counts, the benchmark's and the JVM's own (JIT, GC: after
 * warm-up little but the GC an allocating peer causes, which is a real cost of that peer). The
 * window is a little wider than JMH's measurement window (thread start and the synchronised
 * iteration edges), a few milliseconds in a 1-s iteration, so the figures hold to a few percent.
 *
 * <p>Results: {@value #CPU_NANOS_PER_OP} (CPU ns per measured op), {@value #CPU_CORES} (CPU time
 * over wall time) and, where the benchmark counts acquisitions in {@link AcquisitionLedger},
 * {@value #FAIRNESS} (fewest / most per-thread acquisitions).
 */
public final class CostProfiler implements InternalProfiler {

    /** Secondary-result label: process CPU ns per operation. */
    public static final String CPU_NANOS_PER_OP = "cpu.ns/op";
    /** Secondary-result label: process CPU time over wall time (cores busy). */
    public static final String CPU_CORES = "cpu.cores";
    /** Secondary-result label: fewest over most per-thread acquisitions. */
    public static final String FAIRNESS = "fairness.min/max";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long cpuStart;
    private long wallStart;

    @Override
    public String getDescription() {
        return "Process CPU time per operation and cores busy; per-thread acquisition fairness";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        AcquisitionLedger.drain();
        wallStart = System.nanoTime();
        cpuStart = os.getProcessCpuTime();
    }

    @Override
    @SuppressWarnings("rawtypes") // InternalProfiler declares the raw type; the elements are ScalarResults
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        long cpu = os.getProcessCpuTime() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        List<ScalarResult> results = new ArrayList<>();
        long ops = result.getMetadata() == null ? 0 : result.getMetadata().getMeasuredOps();
        if (cpuStart >= 0 && ops > 0) {
            results.add(new ScalarResult(CPU_NANOS_PER_OP, (double) cpu / ops, "ns/op", AggregationPolicy.AVG));
        }
        if (cpuStart >= 0 && wall > 0) {
            results.add(new ScalarResult(CPU_CORES, (double) cpu / wall, "cores", AggregationPolicy.AVG));
        }
        double fairness = AcquisitionLedger.fairness(AcquisitionLedger.drain());
        if (!Double.isNaN(fairness)) {
            results.add(new ScalarResult(FAIRNESS, fairness, "min/max", AggregationPolicy.AVG));
        }
        return results;
    }
}
