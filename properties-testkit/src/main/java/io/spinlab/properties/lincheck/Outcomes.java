package io.spinlab.properties.lincheck;

import io.spinlab.model.spec.Outcome;

/**
 * Runs a primitive's operation and turns a rejection into a comparable result, the way the
 * specifications in {@code io.spinlab.model.spec} report it ({@link Outcome}). An interrupt is
 * reported the same way (and the interrupt status kept): no check interrupts its threads, so no
 * spec expects one and it fails the check.
 */
final class Outcomes {
    private Outcomes() {
    }

    /** An operation with a result. */
    @FunctionalInterface
    interface Call {
        Object call() throws InterruptedException;
    }

    /** An operation without a result. */
    @FunctionalInterface
    interface VoidCall {
        void run() throws InterruptedException;
    }

    /** The operation's result, or the simple name of the exception it threw. */
    static Object of(Call operation) {
        try {
            return operation.call();
        } catch (RuntimeException e) {
            return Outcome.thrown(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.thrown(e);
        }
    }

    /** {@link Outcome#OK}, or the simple name of the exception the operation threw. */
    static Object ofVoid(VoidCall operation) {
        return of(() -> {
            operation.run();
            return Outcome.OK;
        });
    }
}
