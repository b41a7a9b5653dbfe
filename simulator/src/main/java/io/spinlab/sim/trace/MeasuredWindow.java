package io.spinlab.sim.trace;

/**
 * The processor time a run's threads spent inside the window its harness measured (announced
 * through {@code Platform.measuredWindow}), summed over the threads: the part of each working,
 * spinning or yielding interval that lies between {@code startPicos} and {@code endPicos}. What a
 * run costs per counted operation is this time over the operations, so the warm-up, the harness's
 * start and its shutdown after the window do not dilute it.
 *
 * @param startPicos    where the window begins, virtual ps
 * @param endPicos      where it ends (after {@code startPicos})
 * @param workingPicos  threads' working time inside it, ps
 * @param spinningPicos threads' PAUSE time inside it, ps
 * @param yieldingPicos threads' yield time inside it, ps
 * @param firstHalfOperations  the operations the harness had counted at the window's midpoint, or
 *                      {@value #NOT_SAMPLED} if it announced no count or the run ended before it
 * @param secondHalfOperations the operations it counted from the midpoint to the window's end, or
 *                      {@value #NOT_SAMPLED} if it announced no count or the run ended before the end
 */
public record MeasuredWindow(long startPicos, long endPicos, long workingPicos, long spinningPicos,
                             long yieldingPicos, long firstHalfOperations, long secondHalfOperations) {

    /** {@link #firstHalfOperations()} when the count was not read. */
    public static final long NOT_SAMPLED = -1;

    public MeasuredWindow {
        if (endPicos <= startPicos) {
            throw new IllegalArgumentException("window [" + startPicos + ", " + endPicos + ") ps is empty");
        }
        if (firstHalfOperations < NOT_SAMPLED || secondHalfOperations < NOT_SAMPLED) {
            throw new IllegalArgumentException("operations in the halves = " + firstHalfOperations + ", "
                    + secondHalfOperations + "; allowed 0 or more, or " + NOT_SAMPLED + " (not read)");
        }
    }

    /** A window whose harness handed over no count. */
    public MeasuredWindow(long startPicos, long endPicos, long workingPicos, long spinningPicos, long yieldingPicos) {
        this(startPicos, endPicos, workingPicos, spinningPicos, yieldingPicos, NOT_SAMPLED, NOT_SAMPLED);
    }

    /**
     * Operations counted in the window's second half over those in its first: 1 for a steady rate, more
     * for one still rising (a start-up), +∞ if only the second half counted any; NaN if either half was
     * not read or neither counted any.
     */
    public double halvesRatio() {
        if (firstHalfOperations == NOT_SAMPLED || secondHalfOperations == NOT_SAMPLED
                || firstHalfOperations + secondHalfOperations == 0) {
            return Double.NaN;
        }
        return firstHalfOperations == 0 ? Double.POSITIVE_INFINITY
                : (double) secondHalfOperations / firstHalfOperations;
    }

    /** The window's midpoint, ps: where {@link #firstHalfOperations()} is read. */
    public long midpointPicos() {
        return startPicos + (endPicos - startPicos) / 2;
    }

    /** The window's length, ps. */
    public long lengthPicos() {
        return endPicos - startPicos;
    }

    /** Working, spinning and yielding time inside the window, ps. */
    public long cpuPicos() {
        return workingPicos + spinningPicos + yieldingPicos;
    }

    /** Processors busy on average inside the window: its processor time over its length. */
    public double busyProcessors() {
        return (double) cpuPicos() / lengthPicos();
    }
}
