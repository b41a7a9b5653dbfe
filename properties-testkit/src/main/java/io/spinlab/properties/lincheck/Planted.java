package io.spinlab.properties.lincheck;

import io.spinlab.properties.mutation.Mutants;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;

import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a linearizability test's operations against a mutant of the real class (see
 * {@link Mutants}), under the options the honest test runs with, and asserts that Lincheck
 * reports it. A suite whose mutant passes proves nothing about the real class.
 */
final class Planted {
    private Planted() {
    }

    /**
     * Asserts that {@code options}, the honest test's, reject {@code testClass} run against
     * {@code mutation}: a linearizability violation, or a hang where the mutant loses a wake-up.
     * Only the failed scenario's minimization is turned off (it runs after the failure is found).
     */
    static void assertCaught(Options<?, ?> options, Class<?> testClass, Mutation mutation) {
        if (options instanceof StressOptions) {
            LincheckBudget.assumeLongStressRuns("planted stress of " + mutation);
        }
        assertCaught(loaded -> options, testClass, mutation);
    }

    /**
     * As {@link #assertCaught(Options, Class, Mutation)}, with options made for the class that runs: a
     * custom scenario names the operations of that class, which for the mutant is a renamed copy.
     */
    static void assertCaught(Function<Class<?>, ? extends Options<?, ?>> optionsFor, Class<?> testClass,
            Mutation mutation) {
        Class<?> mutant = Mutants.load(testClass, mutation);
        Options<?, ?> options = optionsFor.apply(mutant);
        if (options instanceof StressOptions) {
            LincheckBudget.assumeLongStressRuns("planted stress of " + mutation);
        }
        options.minimizeFailedScenario(false);
        AssertionError failure = assertThrows(AssertionError.class, () -> options.check(mutant),
                () -> "the mutant passed: " + mutation);
        assertTrue(Mutants.applied(mutation), () -> "the test never reached the mutated class: " + mutation);
        String message = String.valueOf(failure.getMessage());
        assertTrue(message.contains("Invalid execution results") || message.contains("hung"),
                () -> mutation + ": expected a linearizability violation or a hang, got: " + message);
    }
}
