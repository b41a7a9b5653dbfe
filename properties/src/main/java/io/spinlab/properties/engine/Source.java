package io.spinlab.properties.engine;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Where generators get their randomness: each {@link #draw(long)} returns a choice in
 * {@code [0, max]} and records it. A fresh source draws from a seeded PRNG (biased toward small
 * and extreme values, where bugs live); a replaying source returns recorded choices, clamped to
 * the bound asked for, and zeros once the record runs out — so any edited record still yields a
 * valid example. Not thread-safe: one source per example.
 */
public final class Source {

    /** Generating a fresh example, one in this many draws is an edge value (0, 1, max, max - 1). */
    static final int EDGE_ONE_IN = 8;
    /** Longest record one example may use; generators that need more are runaway. */
    static final int MAX_CHOICES = 100_000;

    private final SplittableRandom random;
    private final long[] replay;
    private long[] record = new long[16];
    private int size;

    private Source(SplittableRandom random, long[] replay) {
        this.random = random;
        this.replay = replay;
    }

    static Source fresh(long seed) {
        return new Source(new SplittableRandom(seed), null);
    }

    static Source replaying(Choices choices) {
        return new Source(null, choices.toArray());
    }

    /**
     * One choice in {@code [0, max]}, recorded. Zero is the simplest value: generators map it to
     * their simplest output.
     */
    public long draw(long max) {
        if (max < 0) {
            throw new IllegalArgumentException("draw bound " + max + " is negative");
        }
        if (replay != null) {
            return record(size < replay.length ? Math.min(replay[size], max) : 0);
        }
        return record(drawFresh(max));
    }

    private long record(long value) {
        if (size == MAX_CHOICES) {
            throw new IllegalStateException("an example used more than " + MAX_CHOICES
                    + " choices: a generator does not terminate (e.g. a list without a size bound)");
        }
        if (size == record.length) {
            record = Arrays.copyOf(record, size * 2);
        }
        record[size++] = value;
        return value;
    }

    private long drawFresh(long max) {
        if (max == 0) {
            return 0;
        }
        if (random.nextInt(EDGE_ONE_IN) == 0) {
            return switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> Math.min(1, max);
                case 2 -> max;
                default -> max - 1;
            };
        }
        if (max == Long.MAX_VALUE) {
            return random.nextLong() & Long.MAX_VALUE;
        }
        return random.nextLong(max + 1);
    }

    /** A uniform choice without edge bias, for decisions where edges mean nothing (weights). */
    long drawUniform(long max) {
        if (replay != null || max == 0) {
            return draw(max);
        }
        return record(max == Long.MAX_VALUE ? random.nextLong() & Long.MAX_VALUE : random.nextLong(max + 1));
    }

    /** The choices drawn so far. */
    Choices recorded() {
        return Choices.wrap(Arrays.copyOf(record, size));
    }
}
