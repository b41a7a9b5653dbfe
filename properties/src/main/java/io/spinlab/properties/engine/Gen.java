package io.spinlab.properties.engine;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator: builds an example from the choices of a {@link Source}. Because every random
 * decision is a recorded choice, every generator shrinks for free — the engine shrinks the
 * choices and rebuilds. Generators must be deterministic functions of their choices.
 *
 * @param <T> the type of examples
 */
@FunctionalInterface
public interface Gen<T> {

    /** Rejections a {@link #filter} tolerates per example before it gives up with an error. */
    int MAX_FILTER_MISSES = 100;

    T generate(Source source);

    /** A generator of {@code f(x)}. */
    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        Objects.requireNonNull(f, "f");
        return source -> f.apply(generate(source));
    }

    /** A generator whose second stage depends on the first example (e.g. a size, then a list). */
    default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<? extends R>> f) {
        Objects.requireNonNull(f, "f");
        return source -> f.apply(generate(source)).generate(source);
    }

    /**
     * Only examples satisfying {@code predicate}; after {@value #MAX_FILTER_MISSES} rejections in a
     * row the run fails with an error that says the filter rejects too much (prefer a generator
     * that builds valid examples directly).
     */
    default Gen<T> filter(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return source -> {
            for (int i = 0; i < MAX_FILTER_MISSES; i++) {
                T candidate = generate(source);
                if (predicate.test(candidate)) {
                    return candidate;
                }
            }
            throw new FilterExhaustedException("a filter rejected " + MAX_FILTER_MISSES
                    + " examples in a row; generate valid examples directly instead of filtering");
        };
    }

    /** Thrown when a filter rejects too many examples in a row. */
    final class FilterExhaustedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FilterExhaustedException(String message) {
            super(message);
        }
    }
}
