package io.spinlab.sim.engine;

import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.MeasuredWindow;

import java.util.Optional;

/**
 * The processor time the run's threads spend inside the window its harness measures: once the
 * harness announces the window ({@code Platform.measuredWindow}), every working, spinning or
 * yielding interval charged to a thread adds the part of it that lies inside, and an interval
 * taken back (a PAUSE batch cut short) subtracts its part. Facts for metrics only: nothing here
 * changes an event, a time or the digest.
 */
final class WindowAccounting {
    /*
     * Implementation notes
     *
     * Exact for every interval charged after the announcement, including those that begin before
     * the window and end inside it or after it. The harness announces the window when its warm-up
     * begins, so an interval charged before that and still running when the window opens (a PAUSE
     * batch begun before the warm-up and longer than it) is not counted: with the experiments'
     * warm-ups of 2 ms and more and batches cut at the time slice, a rare and short miss.
     */

    private static final long NONE = Long.MIN_VALUE;

    private long start = NONE;
    private long end = NONE;
    private long working;
    private long spinning;
    private long yielding;

    /**
     * The harness measures {@code [startPicos, endPicos)}; the first announcement of a run counts,
     * later ones and empty windows are ignored.
     */
    void announce(long startPicos, long endPicos) {
        if (start == NONE && endPicos > startPicos) {
            start = startPicos;
            end = endPicos;
        }
    }

    /**
     * {@code picos} ps of {@code activity} charged from {@code from}: the interval
     * {@code [from, from + |picos|)}, taken back when {@code picos} is negative.
     */
    void charge(Activity activity, long from, long picos) {
        if (start == NONE || picos == 0) {
            return;
        }
        long length = Math.abs(picos);
        long to = from + length < from ? Long.MAX_VALUE : from + length;
        long inside = Math.min(to, end) - Math.max(from, start);
        if (inside <= 0) {
            return;
        }
        long signed = picos < 0 ? -inside : inside;
        switch (activity) {
            case WORKING -> working += signed;
            case SPINNING -> spinning += signed;
            case YIELDING -> yielding += signed;
            default -> {
                // not processor time
            }
        }
    }

    /** The window's processor time, or empty if no window was announced. */
    Optional<MeasuredWindow> result() {
        return start == NONE ? Optional.empty()
                : Optional.of(new MeasuredWindow(start, end, working, spinning, yielding));
    }
}
