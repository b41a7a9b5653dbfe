package io.spinlab.sim.trace;

import java.util.Locale;

/** Formatting of picosecond durations for people: {@code 41.176 ns}, {@code 1.060000 ms}. */
public final class Picos {

    private static final long NANO = 1_000L;
    private static final long MICRO = 1_000_000L;
    private static final long MILLI = 1_000_000_000L;
    private static final long SECOND = 1_000_000_000_000L;

    private Picos() {
    }

    /** {@code picos} in the largest unit that keeps it at 1 or more, exact to the picosecond. */
    public static String format(long picos) {
        long magnitude = Math.abs(picos);
        if (magnitude >= SECOND) {
            return scaled(picos, SECOND, 12, "s");
        }
        if (magnitude >= MILLI) {
            return scaled(picos, MILLI, 9, "ms");
        }
        if (magnitude >= MICRO) {
            return scaled(picos, MICRO, 6, "us");
        }
        if (magnitude >= NANO) {
            return scaled(picos, NANO, 3, "ns");
        }
        return picos + " ps";
    }

    /** {@code picos} as milliseconds, a double. */
    public static double toMillis(long picos) {
        return picos / (double) MILLI;
    }

    private static String scaled(long picos, long unit, int digits, String suffix) {
        String fraction = String.format(Locale.ROOT, "%0" + digits + "d", Math.abs(picos % unit));
        String trimmed = fraction.replaceAll("0+$", "");
        return (picos < 0 ? "-" : "") + Math.abs(picos / unit) + (trimmed.isEmpty() ? "" : "." + trimmed) + " "
                + suffix;
    }
}
