package io.spinlab.properties.engine;

/**
 * One step of a stateful test: applied to the system under test and to its sequential model,
 * it checks that they agree (throwing an AssertionError when not).
 *
 * @param <S> the system under test
 * @param <M> the model
 */
public interface Command<S, M> {

    /** Whether the command makes sense in the model's current state; skipped when false. */
    default boolean precondition(M model) {
        return true;
    }

    /** Applies the command to both and checks that they agree. */
    void run(S system, M model) throws Exception;
}
