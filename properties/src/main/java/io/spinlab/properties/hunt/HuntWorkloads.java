package io.spinlab.properties.hunt;

import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadSource;
import io.spinlab.sim.workload.WorkloadType;
import io.spinlab.sim.workload.Workloads;

import java.util.List;
import java.util.Locale;

/**
 * The workloads a hunt can drive: every registry workload whose thread count is a parameter
 * ({@code threads}), and a user's workload class that takes parameters; built for a
 * {@link HuntCase} with its multiplier and window.
 */
public final class HuntWorkloads {

    /** What a hunt covers when not told: the ManualResetEvent workloads of the published suite. */
    public static final List<String> DEFAULT = List.of("mres-wait-latency", "mres-wait-drain-rate");
    /** Unmeasured time before each window. */
    static final String WARMUP = "200us";

    private HuntWorkloads() {
    }

    /** The names a hunt accepts. */
    public static List<String> names() {
        return Workloads.all().stream().filter(type -> type.parameterKeys().contains("threads"))
                .map(WorkloadType::name).toList();
    }

    /** The registry workloads {@code names}, each checked to be one a hunt can drive. */
    public static List<WorkloadSource> named(List<String> names) {
        List<WorkloadSource> sources = names.stream().map(HuntWorkloads::named).toList();
        sources.forEach(HuntWorkloads::check);
        return sources;
    }

    private static WorkloadSource named(String name) {
        if (!names().contains(name)) {
            throw new IllegalArgumentException("unknown hunt workload '" + name + "'; valid: "
                    + String.join(", ", names()));
        }
        return WorkloadSource.named(name);
    }

    /** The parameters of a case: its thread multiplier, the warm-up and its window. */
    public static String parameters(HuntCase c) {
        String threads = String.format(Locale.ROOT, "%spc", trim(c.multiplier()));
        return "threads=" + threads + ",warmup=" + WARMUP + ",window=" + c.windowMicros() + "us";
    }

    /** The workload of a case. */
    public static Workload create(HuntCase c) {
        return c.workload().create(parameters(c));
    }

    /** Rejects a workload a hunt cannot drive, saying which it can. */
    static void check(WorkloadSource source) {
        boolean drivable = switch (source) {
            case WorkloadSource.Registered registered -> registered.takesParameter("threads");
            case WorkloadSource.OfClass user -> user.takesParameters();
        };
        if (!drivable) {
            throw new IllegalArgumentException(source instanceof WorkloadSource.OfClass
                    ? "a hunt sets threads, warmup and window: " + source.name() + " needs a public constructor "
                            + "taking one String (threads=...,warmup=...,window=...)"
                    : "unknown hunt workload '" + source.name() + "'; valid: " + String.join(", ", names()));
        }
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
