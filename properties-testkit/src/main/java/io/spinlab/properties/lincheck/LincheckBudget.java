package io.spinlab.properties.lincheck;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Assumptions;

/**
 * The Lincheck budgets every linearizability test runs with: CI-sized by default (10 iterations
 * × 1,000 invocations), raised by the {@code exhaustive} Maven profile through the system
 * properties {@value #ITERATIONS_PROPERTY} and {@value #INVOCATIONS_PROPERTY}.
 */
final class LincheckBudget {
    static final String ITERATIONS_PROPERTY = "spinlab.lincheck.iterations";
    static final String INVOCATIONS_PROPERTY = "spinlab.lincheck.invocations";
    static final int DEFAULT_ITERATIONS = 10;
    static final int DEFAULT_INVOCATIONS = 1_000;

    private LincheckBudget() {
    }

    /** Scenarios generated per check. */
    static int iterations() {
        return positive(ITERATIONS_PROPERTY, DEFAULT_ITERATIONS);
    }

    /** Runs (interleavings explored, or stress repetitions) per scenario. */
    static int invocations() {
        return positive(INVOCATIONS_PROPERTY, DEFAULT_INVOCATIONS);
    }

    /** Model checking with the budget; callers add the scenario shape and the specification. */
    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions().iterations(iterations()).invocationsPerIteration(invocations());
    }

    /** Stress testing with the budget; callers add the scenario shape and the specification. */
    static StressOptions stress() {
        return new StressOptions().iterations(iterations()).invocationsPerIteration(invocations());
    }

    /**
     * Three threads of two operations, for the races that take three parties (two acquirers and
     * a releaser, the owner and two thieves). Such scenarios cost several times as much per
     * invocation: model checking runs half the scenarios and half the invocations of the budget;
     * stress, whose invocations each start and join three threads, half the scenarios and a fifth
     * of the invocations (the model checker is what explores the three-party interleavings).
     */
    static <O extends Options<O, ?>> O threeThreads(O options) {
        if (options instanceof StressOptions) {
            assumeLongStressRuns("3-thread stress");
        }
        int divisor = options instanceof StressOptions ? 5 : 2;
        return options.threads(3).actorsPerThread(2)
                .iterations(Math.max(1, iterations() / 2))
                .invocationsPerIteration(Math.max(1, invocations() / divisor));
    }

    /** Set by {@code -Pexhaustive}: also run the stress checks that only add time to a CI build. */
    static final String LONG_STRESS_PROPERTY = "spinlab.lincheck.longStress";

    /**
     * Skips the calling test unless {@value #LONG_STRESS_PROPERTY} is set. Two kinds of stress run
     * wait for it: 3-thread stress (the model checker explores the three-party interleavings in
     * every build) and stress against a planted mutant (model checking catches every mutant in
     * every build). A stress run cannot stop a mutant thread that spins forever after a lost
     * wake-up: it keeps a core busy for the rest of the JVM, and in one Surefire JVM every later
     * suite slows down; with them, the default build took over an hour on 2 cores.
     */
    static void assumeLongStressRuns(String what) {
        Assumptions.assumeTrue(Boolean.getBoolean(LONG_STRESS_PROPERTY),
                () -> what + " runs with -Pexhaustive (-D" + LONG_STRESS_PROPERTY + "=true)");
    }

    private static int positive(String property, int defaultValue) {
        int value = Integer.getInteger(property, defaultValue);
        if (value < 1) {
            throw new IllegalArgumentException(property + " = " + value + " is out of range; allowed 1 or more");
        }
        return value;
    }
}
