package io.spinlab.properties.junit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A JUnit 5 test method that is a property: the engine calls it once per try with a fresh
 * {@link io.spinlab.properties.engine.Draws} parameter, from which it draws its example, and a
 * failure (any exception or assertion error) is shrunk and reported as an
 * {@link org.opentest4j.AssertionFailedError} naming the seed, the minimal and the original example,
 * and how to replay — with {@code -Dspinlab.seed}/{@code -Dspinlab.replay} or with this
 * annotation's {@link #seed} or {@link #replay}. A passing run prints one line with its seed.
 *
 * <pre>{@code
 * @PropertyTest(tries = 200)
 * void sortingShouldKeepTheSize(Draws draws) {
 *     List<Integer> list = draws.draw("list", Gens.lists(Gens.integers(-5, 5), 0, 20));
 *     assertThat(sorted(list)).hasSize(list.size());
 * }
 * }</pre>
 *
 * <p>The method may take other parameters JUnit resolves (e.g. {@code TestInfo}); they are the
 * same in every try. Lifecycle methods ({@code @BeforeEach}, {@code @AfterEach}) run once around
 * the whole property, not around each try: keep per-try state inside the method. The fluent
 * {@link io.spinlab.properties.engine.Property} API does the same from a plain {@code @Test}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(PropertyExtension.class)
public @interface PropertyTest {

    /** How many examples to try; 0 (the default): the build's {@code spinlab.property.tries}, else 100. */
    int tries() default 0;

    /** The run's seed (a long); empty (the default): {@code -Dspinlab.seed}, else a fresh one, printed. */
    String seed() default "";

    /**
     * Runs exactly one example, rebuilt from a printed choice sequence such as {@code c:1,0,1,0,0};
     * empty (the default): {@code -Dspinlab.replay}, else none.
     */
    String replay() default "";

    /** Bound on the time spent shrinking a failure, ms. */
    long maxShrinkMillis() default 30_000;

    /** Bound on the candidate examples tried while shrinking a failure. */
    int maxShrinkAttempts() default 5_000;

    /** The name in reports; empty (the default): {@code TestClass.method}. */
    String name() default "";
}
