package io.spinlab.sim.workload;

/**
 * When a workload measures: it runs {@code warmupNanos} unmeasured (first blocks, PAUSE
 * measurement, a thread pool growing), then counts operations for {@code measureNanos}. Both
 * are on the platform's clock, virtual in the simulator. The controlling thread waits through
 * both (timed parks), so the measured interval starts and ends when it wakes: at least the
 * asked time, more when every processor is busy and it must queue for one; the score divides
 * by the interval actually measured.
 *
 * @param warmupNanos  unmeasured time first, 0 or more
 * @param measureNanos measured time, at least 1 ns
 */
public record Window(long warmupNanos, long measureNanos) {

    public Window {
        Durations.check("warmup", warmupNanos);
        Durations.check("window", measureNanos);
        if (measureNanos == 0) {
            throw new IllegalArgumentException("window = 0; the measured window must be longer than 0 "
                    + "(e.g. 2ms)");
        }
    }

    /** A window from its parameter texts, e.g. {@code ("1ms", "5ms")}. */
    public static Window parse(String warmup, String measure) {
        return new Window(Durations.parseNanos("warmup", warmup), Durations.parseNanos("window", measure));
    }

    /** {@code warmup=...,window=...}. */
    public String parameters() {
        return "warmup=" + Durations.format(warmupNanos) + ",window=" + Durations.format(measureNanos);
    }

    @Override
    public String toString() {
        return parameters();
    }
}
