package io.spinlab.sim.workload;

import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Objects;

/**
 * Where the workload of a run comes from: one of the registry's workloads by name, or a user's
 * own class implementing {@link Workload}. Either way a run gets its parameters as
 * {@code key=value,...} text and builds the workload inside the simulation's instrumenting
 * class loader, so the same sweeps, experiments and hunts drive both.
 */
public sealed interface WorkloadSource permits WorkloadSource.Registered, WorkloadSource.OfClass {

    /** The registry name, or the class's name. */
    String name();

    /** Whether a run can set its parameters (thread count, window); a user class needs a String constructor. */
    boolean takesParameters();

    /**
     * A host-side instance with {@code parameters}: for its name and parameters, and for a run
     * on real threads or in fast mode.
     *
     * @throws IllegalArgumentException for a bad parameter, saying what is valid
     */
    Workload create(String parameters);

    /** Runs it with {@code parameters} in the simulation {@code simulation} describes. */
    SimulatedRun simulate(String parameters, Tuning tuning, Simulation.Builder simulation);

    /** The command-line options that name it, for a replay line: {@code --workload NAME}, or the class and path. */
    String options();

    /**
     * The registry workload {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    static WorkloadSource named(String name) {
        return new Registered(Workloads.byName(name).name());
    }

    /**
     * A user's workload class, built with its public constructor taking one {@code String} (the
     * parameters) or, lacking one, taking nothing. Its package is loaded instrumented, from the
     * class's own class loader (so a class from a user's class path sees that path).
     *
     * @param options how a command line named it, for replay lines
     * @throws IllegalArgumentException one line saying what the class lacks
     */
    static WorkloadSource ofClass(Class<?> type, String options) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(options, "options");
        String name = type.getName();
        if (!Workload.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(name + " does not implement " + Workload.class.getName()
                    + "; a workload implements it and has a public constructor taking no argument or one String "
                    + "(the key=value,... parameters)");
        }
        if (type.getPackageName().isEmpty() || Modifier.isAbstract(type.getModifiers())
                || !Modifier.isPublic(type.getModifiers())) {
            throw new IllegalArgumentException(name + " must be a public concrete class in a package (its package is "
                    + "loaded instrumented)");
        }
        @SuppressWarnings("unchecked")
        Class<? extends Workload> workload = (Class<? extends Workload>) type;
        boolean takesString = hasPublicConstructor(type, String.class);
        if (!takesString && !hasPublicConstructor(type)) {
            throw new IllegalArgumentException(name + " has no public constructor taking no argument or one String "
                    + "(the key=value,... parameters)");
        }
        return new OfClass(workload, takesString, options);
    }

    private static boolean hasPublicConstructor(Class<?> type, Class<?>... parameters) {
        try {
            return Modifier.isPublic(type.getConstructor(parameters).getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** A registry workload. */
    record Registered(String name) implements WorkloadSource {

        @Override
        public boolean takesParameters() {
            return true;
        }

        /** Whether {@code key} is one of its parameters. */
        public boolean takesParameter(String key) {
            return Workloads.byName(name).parameterKeys().contains(key);
        }

        @Override
        public Workload create(String parameters) {
            return Workloads.create(name, parameters);
        }

        @Override
        public SimulatedRun simulate(String parameters, Tuning tuning, Simulation.Builder simulation) {
            return WorkloadRunner.simulate(name, parameters, tuning, simulation);
        }

        @Override
        public String options() {
            return "--workload " + name;
        }
    }

    /** A user's class; see {@link WorkloadSource#ofClass}. */
    record OfClass(Class<? extends Workload> type, boolean takesParameters, String options) implements WorkloadSource {

        @Override
        public String name() {
            return type.getName();
        }

        @Override
        public Workload create(String parameters) {
            List<Object> arguments = arguments(parameters);
            try {
                Constructor<? extends Workload> constructor = arguments.isEmpty() ? type.getConstructor()
                        : type.getConstructor(String.class);
                return constructor.newInstance(arguments.toArray());
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IllegalArgumentException bad) {
                    throw new IllegalArgumentException(name() + ": " + bad.getMessage(), bad);
                }
                throw new IllegalStateException("the constructor of " + name() + " threw " + cause, cause);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot construct " + name() + ": " + e, e);
            }
        }

        @Override
        public SimulatedRun simulate(String parameters, Tuning tuning, Simulation.Builder simulation) {
            create(parameters);
            Simulation.Builder guest = simulation.guestParent(type.getClassLoader())
                    .guestPackages(type.getPackageName() + ".");
            return WorkloadRunner.simulate(type, arguments(parameters), tuning, guest);
        }

        private List<Object> arguments(String parameters) {
            if (takesParameters) {
                return List.of(parameters);
            }
            if (!parameters.isEmpty()) {
                throw new IllegalArgumentException(name() + " takes no parameters (it has no public constructor taking "
                        + "a String), but got: " + parameters);
            }
            return List.of();
        }
    }
}
