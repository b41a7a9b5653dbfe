package io.spinlab.sim.workload;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * How many threads a workload starts: a multiple of the processor count, written
 * {@code 0.5pc}, {@code 1pc}, {@code 2pc}, {@code 4pc}, {@code 16pc}, {@code 64pc} as in the
 * published tables ("1PcT" = one thread per processor), or an absolute count such as
 * {@code 12}. A multiple resolves to {@code round(multiple × processors)}, at least 1, on the
 * platform the workload runs on; an absolute count is the same everywhere.
 *
 * <p>Immutable. {@link #toString()} gives back the text {@link #parse} reads.
 *
 * @param multiple   the multiple of the processor count, or 0 for an absolute count
 * @param absolute   the absolute count, or 0 for a multiple
 */
public record ThreadCount(double multiple, int absolute) {

    /** The multiples of the published SpinPerf tables. */
    public static final List<ThreadCount> PUBLISHED_MULTIPLES = List.of(ofMultiple(0.5), ofMultiple(1),
            ofMultiple(2), ofMultiple(4), ofMultiple(16), ofMultiple(64));

    /** Most threads one workload may ask for (absolute, or after resolving a multiple). */
    public static final int MAX_THREADS = 100_000;

    private static final String VALID = "valid: a positive multiple of the processor count ending in 'pc' "
            + "(0.5pc, 1pc, 2pc, 4pc, 16pc, 64pc) or an absolute count 1.." + MAX_THREADS;

    public ThreadCount {
        boolean isMultiple = multiple > 0 && absolute == 0 && Double.isFinite(multiple) && multiple <= MAX_THREADS;
        boolean isAbsolute = multiple == 0 && absolute >= 1 && absolute <= MAX_THREADS;
        if (!isMultiple && !isAbsolute) {
            throw new IllegalArgumentException("thread count multiple = " + multiple + ", absolute = " + absolute
                    + "; " + VALID);
        }
    }

    /** {@code multiple} × the processor count. */
    public static ThreadCount ofMultiple(double multiple) {
        return new ThreadCount(multiple, 0);
    }

    /** Exactly {@code count} threads. */
    public static ThreadCount ofAbsolute(int count) {
        return new ThreadCount(0, count);
    }

    /**
     * Parses {@code 0.5pc}, {@code 1pc}, ... or an absolute count.
     *
     * @throws IllegalArgumentException naming the text and listing what is valid
     */
    public static ThreadCount parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.strip();
        try {
            if (t.endsWith("pc")) {
                double m = Double.parseDouble(t.substring(0, t.length() - 2));
                if (m > 0 && m <= MAX_THREADS) {
                    return ofMultiple(m);
                }
            } else if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
                long n = Long.parseLong(t);
                if (n >= 1 && n <= MAX_THREADS) {
                    return ofAbsolute((int) n);
                }
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("thread count '" + text + "' is not valid; " + VALID);
    }

    /** True for a multiple of the processor count. */
    public boolean isMultiple() {
        return multiple > 0;
    }

    /** The number of threads on a platform with {@code processors} logical processors. */
    public int resolve(int processors) {
        if (processors < 1) {
            throw new IllegalArgumentException("processors = " + processors + "; allowed 1 or more");
        }
        if (!isMultiple()) {
            return absolute;
        }
        long n = Math.max(1, Math.round(multiple * processors));
        if (n > MAX_THREADS) {
            throw new IllegalArgumentException(this + " on " + processors + " processors is " + n
                    + " threads; at most " + MAX_THREADS);
        }
        return (int) n;
    }

    @Override
    public String toString() {
        if (!isMultiple()) {
            return Integer.toString(absolute);
        }
        return BigDecimal.valueOf(multiple).stripTrailingZeros().toPlainString() + "pc";
    }
}
