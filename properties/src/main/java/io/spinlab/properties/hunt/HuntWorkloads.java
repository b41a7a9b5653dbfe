package io.spinlab.properties.hunt;

import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadType;
import io.spinlab.sim.workload.Workloads;

import java.util.List;
import java.util.Locale;

/**
 * The workloads a hunt can drive: every registry workload whose thread count is a parameter
 * ({@code threads}), built for a {@link HuntCase} with its multiplier and window.
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

    /** The workload of a case. */
    public static Workload create(HuntCase c) {
        check(c.workload());
        String threads = String.format(Locale.ROOT, "%spc", trim(c.multiplier()));
        return Workloads.create(c.workload(), "threads=" + threads + ",warmup=" + WARMUP + ",window="
                + c.windowMicros() + "us");
    }

    /** Rejects a name a hunt cannot drive, listing those it can. */
    static void check(String name) {
        if (!names().contains(name)) {
            throw new IllegalArgumentException("unknown hunt workload '" + name + "'; valid: "
                    + String.join(", ", names()));
        }
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
