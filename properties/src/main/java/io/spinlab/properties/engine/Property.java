package io.spinlab.properties.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A property: "for all examples from a generator, this holds". The fluent entry point of the
 * engine, usable from any JUnit test:
 *
 * <pre>{@code
 * Property.forAll(Gens.lists(Gens.integers(0, 100), 0, 20))
 *         .named("sum stays small")
 *         .check(list -> list.stream().mapToInt(i -> i).sum() < 1000);
 * }</pre>
 *
 * <p>Each try draws a fresh example from its own seed; the first try's seed is the run's seed, so
 * a failure's seed replays exactly the failing example. A failure is shrunk (see
 * {@link Shrinker}) and reported as a {@link PropertyFailure} naming the seed, the minimal and the
 * original example, the shrink steps, and how to replay. System properties apply where the code
 * sets nothing: {@code spinlab.seed} (run seed), {@code spinlab.replay} (one choice sequence, e.g.
 * {@code c:3,0}), {@code spinlab.property.tries}.
 *
 * <p>The same from an annotation: {@link io.spinlab.properties.junit.PropertyTest} on a method
 * that draws its example from a {@link Draws}.
 *
 * @param <T> the type of examples
 */
public final class Property<T> {

    /** Tries when neither the code nor {@code spinlab.property.tries} says. */
    public static final int DEFAULT_TRIES = 100;
    public static final String SEED_PROPERTY = "spinlab.seed";
    public static final String REPLAY_PROPERTY = "spinlab.replay";
    public static final String TRIES_PROPERTY = "spinlab.property.tries";

    private final Gen<T> gen;
    private String name = "property";
    private Integer tries;
    private Long seed;
    private Choices replay;
    private Duration maxShrinkTime = Duration.ofSeconds(30);
    private int maxShrinkAttempts = 5_000;
    private Function<? super T, String> describer = String::valueOf;

    private Property(Gen<T> gen) {
        this.gen = Objects.requireNonNull(gen, "gen");
    }

    /** A property over the examples of {@code gen}. */
    public static <T> Property<T> forAll(Gen<T> gen) {
        return new Property<>(gen);
    }

    /** The name printed in reports. */
    public Property<T> named(String propertyName) {
        this.name = Objects.requireNonNull(propertyName, "name");
        return this;
    }

    /** How many examples to try (1 or more). */
    public Property<T> tries(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("tries = " + count + " is out of range; allowed 1 or more");
        }
        this.tries = count;
        return this;
    }

    /** The run's seed (its first try's seed). Without it a seed is drawn and printed. */
    public Property<T> seed(long runSeed) {
        this.seed = runSeed;
        return this;
    }

    /** Runs exactly one example, rebuilt from a printed choice sequence ({@code c:3,0,17}). */
    public Property<T> replay(String choices) {
        this.replay = Choices.parse(choices);
        return this;
    }

    /** Bound on the time spent shrinking one failure. */
    public Property<T> maxShrinkTime(Duration limit) {
        if (limit.isNegative()) {
            throw new IllegalArgumentException("maxShrinkTime " + limit + " is negative");
        }
        this.maxShrinkTime = limit;
        return this;
    }

    /** Bound on the candidate examples tried while shrinking one failure. */
    public Property<T> maxShrinkAttempts(int attempts) {
        if (attempts < 0) {
            throw new IllegalArgumentException("maxShrinkAttempts = " + attempts + " is negative");
        }
        this.maxShrinkAttempts = attempts;
        return this;
    }

    /** How examples are printed in failure reports. */
    public Property<T> describedBy(Function<? super T, String> describe) {
        this.describer = Objects.requireNonNull(describe, "describe");
        return this;
    }

    /** Checks that {@code predicate} holds for every example; a false result is a failure. */
    public Result check(Predicate<? super T> predicate) {
        return run(example -> {
            if (!predicate.test(example)) {
                throw new AssertionError("the property returned false");
            }
        });
    }

    /** Runs {@code body} on every example; any exception or AssertionError is a failure. */
    public Result run(Body<? super T> body) {
        Objects.requireNonNull(body, "body");
        Choices replayChoices = replay != null ? replay : systemReplay();
        if (replayChoices != null) {
            return runReplay(body, replayChoices);
        }
        long runSeed = seed != null ? seed : systemSeed();
        int tryCount = tries != null ? tries : systemTries();
        SplittableRandom seeds = new SplittableRandom(runSeed);
        long trySeed = runSeed;
        for (int i = 0; i < tryCount; i++) {
            Source source = Source.fresh(trySeed);
            T example = gen.generate(source);
            Throwable failure = attempt(body, example);
            if (failure != null) {
                throw shrinkAndReport(body, trySeed, i + 1, source.recorded(), example, failure);
            }
            trySeed = seeds.nextLong();
        }
        Result result = new Result(name, tryCount, runSeed);
        System.out.println(result);
        return result;
    }

    private Result runReplay(Body<? super T> body, Choices choices) {
        Source source = Source.replaying(choices);
        T example = gen.generate(source);
        // A replay the generator already read differently is bad input, whatever the body would do
        // with the example it happens to draw: rejected before the body runs.
        if (!isPrefix(source.recorded(), choices)) {
            throw notDrawn(choices, source, example);
        }
        Throwable failure = attempt(body, example);
        if (failure != null) {
            String message = "Property '" + name + "' failed on the replayed example " + choices + ":\n  example: "
                    + describer.apply(example) + "\n  failure: " + failure;
            throw new PropertyFailure(message, failure, 0, example, example, choices, 0);
        }
        // Checked again after the body: an annotated property draws the rest of its example while it runs.
        if (!source.recorded().equals(choices)) {
            throw notDrawn(choices, source, example);
        }
        Result result = new Result(name, 1, 0);
        System.out.println("property " + name + ": replayed " + choices + " (" + describer.apply(example) + "), passed");
        return result;
    }

    private IllegalArgumentException notDrawn(Choices choices, Source source, T example) {
        return new IllegalArgumentException("replay " + choices + " is not a sequence this property's generator "
                + "draws (out of range, too short or too long): replaying it draws " + source.recorded()
                + ", the example " + describer.apply(example));
    }

    /** Whether {@code drawn} is {@code given} or its beginning (the body may still draw the rest). */
    private static boolean isPrefix(Choices drawn, Choices given) {
        if (drawn.size() > given.size()) {
            return false;
        }
        for (int i = 0; i < drawn.size(); i++) {
            if (drawn.get(i) != given.get(i)) {
                return false;
            }
        }
        return true;
    }

    private PropertyFailure shrinkAndReport(Body<? super T> body, long trySeed, int triesRun, Choices original,
                                            T originalExample, Throwable originalFailure) {
        Class<?> kind = originalFailure.getClass();
        Shrinker shrinker = new Shrinker(original, candidate -> {
            Throwable f = attemptChoices(body, candidate);
            return f != null && f.getClass() == kind;
        }, maxShrinkAttempts, maxShrinkTime.toNanos());
        Shrinker.Outcome outcome = shrinker.shrink();
        Source minimalSource = Source.replaying(outcome.choices());
        T minimal = gen.generate(minimalSource);
        Throwable minimalFailure = attempt(body, minimal);
        if (minimalFailure == null) {
            // A flaky property: the shrunk example passed on its last run. Report the original.
            minimal = originalExample;
            minimalFailure = originalFailure;
        }
        Choices minimalChoices = minimalSource.recorded();
        String message = "Property '" + name + "' failed after " + triesRun + " tr" + (triesRun == 1 ? "y" : "ies")
                + " (seed " + trySeed + "), shrunk in " + outcome.steps() + " steps (" + outcome.attempts()
                + " attempts" + (outcome.exhausted() ? ", shrink budget exhausted" : "") + "):\n"
                + "  minimal:  " + describer.apply(minimal) + "\n"
                + "  original: " + describer.apply(originalExample) + "\n"
                + "  failure:  " + minimalFailure + "\n"
                + "Replay the minimal example:  -D" + REPLAY_PROPERTY + "=" + minimalChoices
                + "  (or .replay(\"" + minimalChoices + "\"))\n"
                + "Replay the original example: -D" + SEED_PROPERTY + "=" + trySeed + "  (or .seed(" + trySeed + "L))";
        return new PropertyFailure(message, minimalFailure, trySeed, minimal, originalExample, minimalChoices,
                outcome.steps());
    }

    private Throwable attemptChoices(Body<? super T> body, Choices choices) {
        T example;
        try {
            example = gen.generate(Source.replaying(choices));
        } catch (Gen.FilterExhaustedException e) {
            return null; // not a valid example: the candidate does not count as failing
        }
        return attempt(body, example);
    }

    private static <T> Throwable attempt(Body<? super T> body, T example) {
        try {
            body.accept(example);
            return null;
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError vme && !(t instanceof StackOverflowError)) {
                throw vme;
            }
            return t;
        }
    }

    private static Choices systemReplay() {
        String text = System.getProperty(REPLAY_PROPERTY);
        return text == null || text.isBlank() ? null : Choices.parse(text);
    }

    private static long systemSeed() {
        String text = System.getProperty(SEED_PROPERTY);
        if (text == null || text.isBlank()) {
            return new SplittableRandom().nextLong();
        }
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + SEED_PROPERTY + "=" + text + " is not a long", e);
        }
    }

    private static int systemTries() {
        String text = System.getProperty(TRIES_PROPERTY);
        if (text == null || text.isBlank()) {
            return DEFAULT_TRIES;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value < 1) {
                throw new IllegalArgumentException("-D" + TRIES_PROPERTY + "=" + text + " must be 1 or more");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + TRIES_PROPERTY + "=" + text + " is not an int", e);
        }
    }

    /** The code under test for one example. */
    @FunctionalInterface
    public interface Body<T> {
        void accept(T example) throws Exception;
    }

    /** A passed property: its name, how many examples, and the seed that reproduces the run. */
    public record Result(String name, int tries, long seed) {
        @Override
        public String toString() {
            return "property " + name + ": " + tries + " tries passed (seed " + seed + ")";
        }
    }
}
