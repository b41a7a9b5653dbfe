package io.spinlab.sim.workload;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One kind of workload in the {@link Workloads} registry: its fixed name, what it measures, the
 * parameters it takes with their defaults, and how to build it from parameter text.
 *
 * @param name       the fixed name the command line and reports use, e.g. {@code mres-wait-latency}
 * @param summary    one line: what it does and what its score counts
 * @param parameters the parameters it accepts, in the order its text lists them
 * @param factory    builds the workload from checked parameters
 */
public record WorkloadType(String name, String summary, List<Parameter> parameters,
                           Function<WorkloadParameters, Workload> factory) {

    /**
     * One parameter.
     *
     * @param key          its name in {@code key=value} text
     * @param defaultValue the value when the text does not give one
     * @param description  what it means and what is valid
     */
    public record Parameter(String key, String defaultValue, String description) {
        public Parameter {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(defaultValue, "defaultValue");
            Objects.requireNonNull(description, "description");
        }
    }

    public WorkloadType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(summary, "summary");
        parameters = List.copyOf(parameters);
        Objects.requireNonNull(factory, "factory");
    }

    /** The parameter names, in order. */
    public List<String> parameterKeys() {
        return parameters.stream().map(Parameter::key).toList();
    }

    /**
     * Builds the workload from {@code key=value,...} text; missing keys take their defaults.
     *
     * @throws IllegalArgumentException for an unknown key or an invalid value, naming it and what is valid
     */
    public Workload create(String parameterText) {
        return factory.apply(WorkloadParameters.parse(this, parameterText));
    }

    /** The workload with every parameter at its default. */
    public Workload createDefault() {
        return create("");
    }
}
