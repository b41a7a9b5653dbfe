package io.spinlab.sim.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A workload's parameters as text, {@code key=value,key=value}, checked against the keys its
 * {@link WorkloadType} declares and completed with their defaults; typed getters parse one value
 * each and name the workload, the key and the valid values when it is wrong.
 */
public final class WorkloadParameters {

    private final String workload;
    private final Map<String, String> values;

    private WorkloadParameters(String workload, Map<String, String> values) {
        this.workload = workload;
        this.values = values;
    }

    /**
     * Parses {@code text} for {@code type}: every key must be one of its parameters, given once;
     * missing ones take their defaults. Blank text means all defaults.
     *
     * @throws IllegalArgumentException for a malformed pair, an unknown or repeated key, listing the valid keys
     */
    static WorkloadParameters parse(WorkloadType type, String text) {
        Objects.requireNonNull(text, "parameters");
        Map<String, String> given = new LinkedHashMap<>();
        String trimmed = text.strip();
        if (!trimmed.isEmpty()) {
            for (String part : trimmed.split(",")) {
                String pair = part.strip();
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(type.name() + ": '" + pair + "' is not key=value; valid keys: "
                            + String.join(", ", type.parameterKeys()));
                }
                String key = pair.substring(0, eq).strip();
                if (!type.parameterKeys().contains(key)) {
                    throw new IllegalArgumentException(type.name() + ": unknown parameter '" + key
                            + "'; valid parameters: " + String.join(", ", type.parameterKeys()));
                }
                if (given.put(key, pair.substring(eq + 1).strip()) != null) {
                    throw new IllegalArgumentException(type.name() + ": parameter '" + key + "' given twice in '"
                            + text + "'");
                }
            }
        }
        Map<String, String> all = new LinkedHashMap<>();
        for (WorkloadType.Parameter p : type.parameters()) {
            all.put(p.key(), given.getOrDefault(p.key(), p.defaultValue()));
        }
        return new WorkloadParameters(type.name(), Collections.unmodifiableMap(all));
    }

    /** The raw text of {@code key} (given or default). */
    public String text(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException(workload + " has no parameter '" + key + "'; it has: "
                    + String.join(", ", values.keySet()));
        }
        return value;
    }

    /** {@code key} as a {@link ThreadCount}. */
    public ThreadCount threads(String key) {
        return wrap(key, () -> ThreadCount.parse(text(key)));
    }

    /** {@code key} as a duration in nanoseconds. */
    public long nanos(String key) {
        return Durations.parseNanos(workload + ": " + key, text(key));
    }

    /** {@code key} as a whole number in {@code [min, max]}. */
    public int whole(String key, int min, int max) {
        String t = text(key);
        try {
            long v = Long.parseLong(t);
            if (v >= min && v <= max) {
                return (int) v;
            }
        } catch (NumberFormatException e) {
            // falls through
        }
        throw new IllegalArgumentException(workload + ": " + key + " = '" + t + "' is not valid; valid: a whole "
                + "number " + min + ".." + max);
    }

    /** {@code key} as one of {@code choices}. */
    public String choice(String key, List<String> choices) {
        String t = text(key);
        if (!choices.contains(t)) {
            throw new IllegalArgumentException(workload + ": " + key + " = '" + t + "' is not valid; valid: "
                    + String.join(", ", choices));
        }
        return t;
    }

    /** The {@code warmup} and {@code window} parameters. */
    public Window window() {
        return wrap("window", () -> new Window(nanos("warmup"), nanos("window")));
    }

    /** Every key with its value, in declaration order. */
    public Map<String, String> asMap() {
        return values;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        values.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(",", parts);
    }

    private <T> T wrap(String key, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(workload)) {
                throw e;
            }
            throw new IllegalArgumentException(workload + ": " + key + ": " + e.getMessage(), e);
        }
    }
}
