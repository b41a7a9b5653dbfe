package io.spinlab.reports.report;

import io.spinlab.sim.experiment.Mechanisms;
import io.spinlab.sim.experiment.Verdict;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.workload.ThreadCount;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * One row of a report: an experiment's result ({@link ExperimentRow}: both scores, Δ %, the
 * published figure, the verdict, the metrics) together with what the row ran on and with,
 * which the result alone does not carry: the simulated machine's profile and the seed.
 *
 * <p>Immutable.
 *
 * @param result  the experiment row
 * @param machine the machine profile the row ran on; its name is {@code result.machine()}
 * @param seed    the seed of both runs of the row
 */
public record ReportRow(ExperimentRow result, MachineProfile machine, long seed) {

    /** Workload parameters that say how long a row measures, not what it measures. */
    private static final Set<String> WINDOW_KEYS = Set.of("threads", "warmup", "window");

    public ReportRow {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(machine, "machine");
        if (!machine.name().equals(result.machine())) {
            throw new IllegalArgumentException("row of machine '" + result.machine() + "' paired with profile '"
                    + machine.name() + "'");
        }
    }

    /**
     * The mechanism found for this row's disagreement ({@link Mechanisms}), when its verdict is
     * {@code disagrees} and one is recorded.
     */
    public Optional<String> mechanism() {
        if (result.verdict() != Verdict.DISAGREES) {
            return Optional.empty();
        }
        return Mechanisms.standard().explain(result.experiment(), result.machine(), result.workload(),
                result.parameters());
    }

    /** Why the row's window falls short of the measurement protocol, on its machine's time slice, if it does. */
    public Optional<String> windowShortOfProtocol() {
        return result.windowShortOfProtocol(machine.timeSliceNs());
    }

    /** The workload's parameters as key → value, in the workload's order. */
    public Map<String, String> parameters() {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : result.parameters().split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                map.put(pair.substring(0, eq), pair.substring(eq + 1));
            } else if (!pair.isBlank()) {
                map.put(pair, "");
            }
        }
        return Collections.unmodifiableMap(map);
    }

    /** The thread count as a multiple of the processor count, when the row states one. */
    public Optional<Double> threadMultiple() {
        String threads = parameters().get("threads");
        if (threads == null) {
            return Optional.empty();
        }
        try {
            ThreadCount count = ThreadCount.parse(threads);
            return count.isMultiple() ? Optional.of(count.multiple()) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The parameters that make this row differ from its neighbours other than the thread count
     * and the measured window, e.g. {@code delay=1us}; empty when there are none.
     */
    public String variant() {
        StringJoiner joiner = new StringJoiner(",");
        parameters().forEach((key, value) -> {
            if (!WINDOW_KEYS.contains(key)) {
                joiner.add(key + "=" + value);
            }
        });
        return joiner.toString();
    }

    /**
     * A short name for the row in a table, like the published tables' first column: the
     * workload, its thread count and its variant, e.g. {@code mres-wait-drain-rate 1pc delay=1us}
     * (several variant parameters separated by spaces).
     */
    public String label() {
        StringBuilder label = new StringBuilder(result.workload());
        String threads = parameters().get("threads");
        if (threads != null) {
            label.append(' ').append(threads);
        }
        String variant = variant();
        if (!variant.isEmpty()) {
            label.append(' ').append(variant.replace(',', ' '));
        }
        return label.toString();
    }
}
