package io.spinlab.sim.workload;

import java.util.List;
import java.util.Objects;

/**
 * The named workloads: the published suites under the fixed names the command line and the
 * reports use, each built from {@code key=value} parameter text.
 *
 * <pre>{@code
 * Workload w = Workloads.create("mres-wait-drain-rate", "threads=2pc,delay=1us,window=5ms");
 * WorkloadResult r = WorkloadRunner.simulate(w, Tuning.current(), MachinePresets.byName("skylake-i7-6700"), 1)
 *         .result();
 * }</pre>
 *
 * <p>SpinPerf: {@code mres-wait-latency}, {@code mres-wait-drain-rate}, {@code semaphore-latency},
 * {@code semaphore-throughput}, {@code semaphore-wait-drain-rate}, {@code spinlock-latency},
 * {@code spinlock-throughput}, {@code barrier-sync-rate}, {@code queue-throughput},
 * {@code stack-throughput}, {@code countdown-addcount-signal-throughput}; EventPipe's
 * {@code eventpipe-stress}; the thread pool's {@code quwi} and {@code pool-batch}; a contended Monitor,
 * {@code monitor-throughput}.
 */
public final class Workloads {

    private static final List<WorkloadType> ALL = List.of(
            MresWaitLatency.TYPE,
            MresWaitDrainRate.TYPE,
            SemaphoreLatency.TYPE,
            SemaphoreThroughput.TYPE,
            SemaphoreWaitDrainRate.TYPE,
            SpinLockLatency.TYPE,
            SpinLockThroughput.TYPE,
            BarrierSyncRate.TYPE,
            QueueThroughput.TYPE,
            StackThroughput.TYPE,
            CountdownAddCountSignalThroughput.TYPE,
            EventPipeStress.TYPE,
            Quwi.TYPE,
            QuwiSuite.TYPE,
            PoolBatch.TYPE,
            MonitorThroughput.TYPE);

    /** The SpinPerf suite, in the order of the published tables. */
    private static final List<String> SPINPERF = List.of(
            MresWaitLatency.NAME,
            MresWaitDrainRate.NAME,
            SemaphoreLatency.NAME,
            SemaphoreThroughput.NAME,
            SemaphoreWaitDrainRate.NAME,
            SpinLockLatency.NAME,
            SpinLockThroughput.NAME,
            BarrierSyncRate.NAME,
            QueueThroughput.NAME,
            StackThroughput.NAME,
            CountdownAddCountSignalThroughput.NAME);

    private static final List<String> NAMES = ALL.stream().map(WorkloadType::name).toList();

    private Workloads() {
    }

    /** Every workload type, in registry order. */
    public static List<WorkloadType> all() {
        return ALL;
    }

    /** Every workload name, in registry order. */
    public static List<String> names() {
        return NAMES;
    }

    /** The names of the SpinPerf suite (the {@code normalized-spin} experiment runs all of them). */
    public static List<String> spinPerfNames() {
        return SPINPERF;
    }

    /**
     * The workload type called {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid names
     */
    public static WorkloadType byName(String name) {
        Objects.requireNonNull(name, "name");
        for (WorkloadType type : ALL) {
            if (type.name().equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; valid workloads: "
                + String.join(", ", NAMES));
    }

    /**
     * The workload {@code name} with {@code parameters} ({@code key=value,...}; blank for the
     * defaults).
     *
     * @throws IllegalArgumentException for an unknown name or parameter, or an invalid value, saying what is valid
     */
    public static Workload create(String name, String parameters) {
        return byName(name).create(parameters);
    }

    /**
     * Parses {@code name} or {@code name(parameters)}, as {@link Workload#describe()} writes it.
     *
     * @throws IllegalArgumentException as {@link #create}, or for unbalanced parentheses
     */
    public static Workload parse(String text) {
        Objects.requireNonNull(text, "workload");
        String t = text.strip();
        int open = t.indexOf('(');
        if (open < 0) {
            return create(t, "");
        }
        if (!t.endsWith(")")) {
            throw new IllegalArgumentException("workload '" + text + "' must be name or name(key=value,...)");
        }
        return create(t.substring(0, open).strip(), t.substring(open + 1, t.length() - 1));
    }
}
