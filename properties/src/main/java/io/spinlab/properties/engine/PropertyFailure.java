package io.spinlab.properties.engine;

/**
 * A property failed: carries the seed, the shrunk and the original example, and how to replay.
 * An {@link AssertionError}, so JUnit reports it as a test failure; its cause is the failure of
 * the shrunk example.
 */
public final class PropertyFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final transient Object minimalExample;
    private final transient Object originalExample;
    private final long seed;
    private final String minimalChoices;
    private final int shrinkSteps;

    PropertyFailure(String message, Throwable cause, long seed, Object minimalExample, Object originalExample,
                    Choices minimalChoices, int shrinkSteps) {
        super(message, cause);
        this.seed = seed;
        this.minimalExample = minimalExample;
        this.originalExample = originalExample;
        this.minimalChoices = minimalChoices.toString();
        this.shrinkSteps = shrinkSteps;
    }

    /** The seed of the failing try: replaying it rebuilds the original example. */
    public long seed() {
        return seed;
    }

    public Object minimalExample() {
        return minimalExample;
    }

    public Object originalExample() {
        return originalExample;
    }

    /** The shrunk example's choices, replayable with {@code -Dspinlab.replay=...}. */
    public Choices minimalChoices() {
        return Choices.parse(minimalChoices);
    }

    public int shrinkSteps() {
        return shrinkSteps;
    }
}
