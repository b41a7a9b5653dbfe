package io.spinlab.properties.engine;

import java.util.Arrays;

/**
 * A recorded sequence of choices: every random decision a generator made, as a non-negative
 * number. Replaying the same choices through the same generator rebuilds the same example;
 * shrinking edits the choices, never the example. Immutable.
 *
 * <p>Text form (what failures print and replay accepts): {@code c:3,0,17,1}.
 */
public final class Choices implements Comparable<Choices> {

    static final String PREFIX = "c:";
    private static final Choices EMPTY = new Choices(new long[0]);

    private final long[] values;

    private Choices(long[] values) {
        this.values = values;
    }

    public static Choices of(long... values) {
        for (long v : values) {
            if (v < 0) {
                throw new IllegalArgumentException("choice " + v + " is negative; choices are 0 or more");
            }
        }
        return values.length == 0 ? EMPTY : new Choices(values.clone());
    }

    static Choices wrap(long[] values) {
        return new Choices(values);
    }

    /**
     * Parses the text form {@code c:3,0,17} (the prefix is optional).
     *
     * @throws IllegalArgumentException naming the bad element
     */
    public static Choices parse(String text) {
        String body = text.strip();
        if (body.startsWith(PREFIX)) {
            body = body.substring(PREFIX.length());
        }
        if (body.isEmpty()) {
            return EMPTY;
        }
        String[] parts = body.split(",");
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                values[i] = Long.parseLong(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("choice sequence '" + text + "': element " + i + " ('" + parts[i]
                        + "') is not a number; expected c:N,N,... with N >= 0", e);
            }
            if (values[i] < 0) {
                throw new IllegalArgumentException("choice sequence '" + text + "': element " + i + " is negative");
            }
        }
        return new Choices(values);
    }

    public int size() {
        return values.length;
    }

    public long get(int index) {
        return values[index];
    }

    long[] toArray() {
        return values.clone();
    }

    /**
     * Shortlex order: shorter is simpler; at equal length, lexicographically smaller is simpler.
     * Shrinking only ever moves down this order, so it terminates.
     */
    @Override
    public int compareTo(Choices other) {
        if (values.length != other.values.length) {
            return Integer.compare(values.length, other.values.length);
        }
        return Arrays.compare(values, other.values);
    }

    public boolean simplerThan(Choices other) {
        return compareTo(other) < 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Choices c && Arrays.equals(values, c.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(PREFIX);
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(values[i]);
        }
        return text.toString();
    }
}
