package io.spinlab.sim.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Objects;

/**
 * Durations as workload parameters write them: a non-negative number with a unit, {@code ns},
 * {@code us}, {@code ms} or {@code s} ({@code 500ns}, {@code 1us}, {@code 2.5ms}, {@code 1s});
 * a bare {@code 0} is zero. Values are held as whole nanoseconds.
 */
public final class Durations {

    /** Longest duration a parameter may give: one hour. */
    public static final long MAX_NANOS = 3_600_000_000_000L;

    private static final String VALID = "valid: a non-negative number with a unit ns, us, ms or s "
            + "(e.g. 0, 500ns, 1us, 2ms, 1s), at most 1h";

    private Durations() {
    }

    /**
     * Parses {@code text} as a duration in nanoseconds.
     *
     * @param what the parameter's name, for the message
     * @throws IllegalArgumentException naming the parameter and the text, listing what is valid
     */
    public static long parseNanos(String what, String text) {
        Objects.requireNonNull(text, what);
        String t = text.strip().toLowerCase(Locale.ROOT);
        long scale;
        String number;
        if (t.endsWith("ns")) {
            scale = 1;
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us")) {
            scale = 1_000;
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("ms")) {
            scale = 1_000_000;
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            scale = 1_000_000_000;
            number = t.substring(0, t.length() - 1);
        } else if (t.equals("0")) {
            return 0;
        } else {
            throw invalid(what, text);
        }
        try {
            BigDecimal value = new BigDecimal(number.strip()).multiply(BigDecimal.valueOf(scale));
            if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(MAX_NANOS)) > 0) {
                throw invalid(what, text);
            }
            return value.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(what, text);
        }
    }

    /** The shortest exact text for {@code nanos}: {@code 0}, {@code 750ns}, {@code 1us}, {@code 2.5ms}, {@code 1s}. */
    public static String format(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("nanos = " + nanos + " is negative");
        }
        if (nanos == 0) {
            return "0";
        }
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos >= 1_000_000 && nanos % 1_000 == 0) {
            return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
        }
        if (nanos >= 1_000 && nanos % 1_000 == 0) {
            return nanos / 1_000 + "us";
        }
        return nanos + "ns";
    }

    /** Checks that {@code nanos} is a valid duration for parameter {@code what}. */
    static long check(String what, long nanos) {
        if (nanos < 0 || nanos > MAX_NANOS) {
            throw new IllegalArgumentException(what + " = " + nanos + " ns is not valid; " + VALID);
        }
        return nanos;
    }

    private static IllegalArgumentException invalid(String what, String text) {
        return new IllegalArgumentException(what + " = '" + text + "' is not a valid duration; " + VALID);
    }
}
