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
 */
public record MeasuredWindow(long startPicos, long endPicos, long workingPicos, long spinningPicos,
                             long yieldingPicos) {

    public MeasuredWindow {
        if (endPicos <= startPicos) {
            throw new IllegalArgumentException("window [" + startPicos + ", " + endPicos + ") ps is empty");
        }
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
