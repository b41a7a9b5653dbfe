package io.spinlab.properties.hunt;

import io.spinlab.sim.workload.MresPingPong;
import io.spinlab.sim.workload.MresWaitDrainRate;
import io.spinlab.sim.workload.Workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The workloads a hunt can drive, by name: each builds a {@link Workload} for a {@link HuntCase}. */
public final class HuntWorkloads {

    private static final int WARMUP_ROUNDS = 5;
    private static final Map<String, Function<HuntCase, Workload>> BY_NAME = new LinkedHashMap<>();

    static {
        BY_NAME.put("mres-wait-drain-rate", c -> MresWaitDrainRate.atMultiple(c.multiplier(),
                c.machine().logicalProcessors(), c.rounds(), WARMUP_ROUNDS));
        BY_NAME.put("mres-ping-pong", c -> new MresPingPong(c.rounds()));
    }

    private HuntWorkloads() {
    }

    /** The names a hunt accepts. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** The workload of a case; unknown names are rejected with the valid ones. */
    public static Workload create(HuntCase huntCase) {
        return factory(huntCase.workload()).apply(huntCase);
    }

    static Function<HuntCase, Workload> factory(String name) {
        Function<HuntCase, Workload> factory = BY_NAME.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("unknown hunt workload '" + name + "'; valid: " + String.join(", ",
                    names()));
        }
        return factory;
    }
}
