package io.spinlab.properties.interleave;

import io.spinlab.properties.mutation.Mutants;
import io.spinlab.properties.mutation.Mutation;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a scenario of {@link Interleaving} (a public static method of a class under
 * {@code io.spinlab.properties.interleave.scenario}, taking strings) on copies of the real impl
 * classes whose shared-memory accesses are breakpoints ({@link BreakpointInstrumenter}), honest or
 * with one {@link Mutation}.
 */
final class Breakpoints {
    private Breakpoints() {
    }

    /** Runs the scenario on honest instrumented copies; its failure fails the caller. */
    static void run(Class<?> scenarios, Mutation mutation, String scenario, String... args) {
        try {
            invoke(scenarios, mutation, scenario, args);
        } catch (InvocationTargetException e) {
            throw new AssertionError(scenario + " failed on the real classes: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Runs the scenario on copies carrying {@code mutation} and returns the assertion it fails with.
     *
     * @throws AssertionError if the mutant passes, fails otherwise, or is never reached
     */
    static AssertionError failure(Class<?> scenarios, Mutation mutation, String scenario, String... args) {
        try {
            invoke(scenarios, mutation, scenario, args);
        } catch (InvocationTargetException e) {
            assertTrue(Mutants.applied(mutation), () -> "the scenario never reached the mutated class: " + mutation);
            if (e.getCause() instanceof AssertionError failure) {
                return failure;
            }
            throw new AssertionError(mutation + ": expected an assertion to fail, got " + e.getCause(), e.getCause());
        }
        return fail("the mutant passed " + scenario + Arrays.toString(args) + ": " + mutation);
    }

    /**
     * Asserts that the scenario fails on copies carrying {@code mutation} with an assertion whose message
     * contains each of {@code expected}.
     */
    static void assertCaught(Class<?> scenarios, Mutation mutation, List<String> expected, String scenario,
            String... args) {
        AssertionError caught = failure(scenarios, mutation, scenario, args);
        for (String part : expected) {
            assertTrue(String.valueOf(caught.getMessage()).contains(part),
                    () -> mutation + ": expected a failure saying \"" + part + "\", got: " + caught.getMessage());
        }
    }

    private static void invoke(Class<?> scenarios, Mutation mutation, String scenario, String... args)
            throws InvocationTargetException {
        BreakpointInstrumenter instrumenter =
                new BreakpointInstrumenter(scenarios.getClassLoader(), "io/spinlab/impl/");
        Class<?> copy = Mutants.loadInstrumented(scenarios, mutation, "bp", instrumenter::instrument);
        Class<?>[] types = new Class<?>[args.length];
        Arrays.fill(types, String.class);
        try {
            Method method = copy.getMethod(scenario, types);
            method.invoke(null, (Object[]) args);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalArgumentException("no public static " + scenario + " taking " + args.length
                    + " strings in " + scenarios, e);
        }
    }
}
