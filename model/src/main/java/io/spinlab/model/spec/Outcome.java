package io.spinlab.model.spec;

/**
 * How a specification (and the checker operation that mirrors it) reports an operation that
 * returns nothing or that is rejected with an exception, so that a result can be compared like
 * any other value.
 *
 * <p>An exception is reported by its simple class name, e.g. {@code "IllegalStateException"}:
 * the type is the contract, the message is not.
 */
public final class Outcome {

    /** The result of an operation that completed and returns nothing. */
    public static final String OK = "ok";

    private Outcome() {
    }

    /** The result of an operation rejected with an exception of type {@code type}. */
    public static String thrown(Class<? extends Throwable> type) {
        return type.getSimpleName();
    }

    /** The result of an operation that threw {@code thrown}. */
    public static String thrown(Throwable thrown) {
        return thrown(thrown.getClass());
    }
}
