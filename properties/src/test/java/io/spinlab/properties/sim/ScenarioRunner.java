package io.spinlab.properties.sim;

import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;

import java.lang.reflect.InvocationTargetException;
import java.util.Optional;

/**
 * Runs a {@link SimScenario} in a simulation: with the memory model on, the guest copy of its
 * class, so that every volatile and VarHandle access of the primitives (and of the scenario) is a
 * costed scheduling point; with it off, the class as loaded.
 */
final class ScenarioRunner {

    /** The scenarios' package, a guest package of every run made here. */
    static final String GUEST_PACKAGE = "io.spinlab.properties.sim.guest.";

    private ScenarioRunner() {
    }

    /**
     * The run's facts, what the scenario observed if the run completed, and what it had observed
     * by the end of the run whether or not it completed (a pool that never terminates may still have
     * recorded an item run twice).
     */
    record Run<R>(Optional<R> observed, SimulationResult simulation, Optional<R> observedSoFar) {

        /**
         * The observation.
         *
         * @throws AssertionError with the simulation's report if the run did not complete
         */
        R require() {
            if (!simulation.completed() || observed.isEmpty()) {
                throw new AssertionError("the simulated run did not complete:\n" + simulation.report(),
                        simulation.failure().orElse(null));
            }
            return observed.get();
        }
    }

    /**
     * Runs {@code new type(config)} with {@code tuning} in a simulation configured by
     * {@code simulation} (machine, seed, memory model, ...), {@code context} added to its
     * reproduction line.
     */
    static <R, C> Run<R> simulate(Class<? extends SimScenario<R>> type, C config, Tuning tuning,
            Simulation.Builder simulation, String context) {
        if (!type.getName().startsWith(GUEST_PACKAGE)) {
            throw new IllegalArgumentException(type.getName() + " is not in " + GUEST_PACKAGE);
        }
        simulation.guestPackages(GUEST_PACKAGE).context(context + " tuning=" + tuning.describe());
        Class<?> loaded = simulation.memoryModelOn() ? load(simulation, type.getName()) : type;
        @SuppressWarnings("unchecked") // the guest copy implements the same (shared) interface
        SimScenario<R> scenario = (SimScenario<R>) construct(loaded, config);
        Simulation sim = simulation.initialize(type).build();
        scenario.start(sim.platform(), tuning);
        SimulationResult result = sim.run();
        Optional<R> soFar = Optional.ofNullable(scenario.observed());
        return new Run<>(result.completed() ? soFar : Optional.empty(), result, soFar);
    }

    /**
     * Runs {@code new type(config)} as {@link #simulate(Class, Object, Tuning, Simulation.Builder, String)}
     * does, with {@code mutant} (null: none) planted in the guest copy of its class; the reproduction
     * line names the scenario and the mutant.
     */
    static <R, C> Run<R> simulate(Class<? extends SimScenario<R>> type, C config, Tuning tuning,
            Simulation.Builder simulation, Mutation mutant) {
        String context = "scenario=" + type.getSimpleName();
        if (mutant != null) {
            plant(simulation, mutant);
            context += " mutant=" + mutant;
        }
        return simulate(type, config, tuning, simulation, context);
    }

    /** Makes {@code simulation}'s guest class loader define {@code mutant}'s class with the mutation applied. */
    static Simulation.Builder plant(Simulation.Builder simulation, Mutation mutant) {
        String target = mutant.target().getName();
        return simulation.guestTransform((name, bytes) -> name.equals(target) ? mutant.applyTo(bytes) : bytes);
    }

    private static Class<?> load(Simulation.Builder simulation, String name) {
        try {
            return Class.forName(name, true, simulation.guestLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the guest class loader cannot load " + name, e);
        }
    }

    private static Object construct(Class<?> type, Object config) {
        try {
            return type.getConstructor(config.getClass()).newInstance(config);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("constructing " + type.getName() + " failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(type.getName() + " needs a public constructor taking "
                    + config.getClass().getName(), e);
        }
    }
}
