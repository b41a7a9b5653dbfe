package io.spinlab.sim.engine;

import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.MeasuredWindow;

import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The processor time the run's threads spend inside the window its harness measures: once the
 * harness announces the window ({@code Platform.measuredWindow}), every working, spinning or
 * yielding interval charged to a thread adds the part of it that lies inside, and an interval
 * taken back (a PAUSE batch cut short) subtracts its part. If the harness also hands over its
 * count of operations, the engine reads it when its clock first reaches the window's midpoint and
 * again at its end ({@link #sampleAt()}), so that a run can tell the window's two halves apart (a rate still
 * changing is a start-up, not the primitive). Facts for metrics only: nothing here changes an
 * event, a time or the digest.
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
    private LongSupplier counted;
    private long sampleAt = Long.MAX_VALUE;
    private long atMidpoint = MeasuredWindow.NOT_SAMPLED;
    private long atEnd = MeasuredWindow.NOT_SAMPLED;
    private long working;
    private long spinning;
    private long yielding;

    /**
     * The harness measures {@code [startPicos, endPicos)}; the first announcement of a run counts,
     * later ones and empty windows are ignored.
     */
    void announce(long startPicos, long endPicos) {
        announce(startPicos, endPicos, null);
    }

    /**
     * As {@link #announce(long, long)}, with the harness's count of operations so far (null for
     * none), read at the midpoint and at the end.
     */
    void announce(long startPicos, long endPicos, LongSupplier operations) {
        if (start == NONE && endPicos > startPicos) {
            start = startPicos;
            end = endPicos;
            if (operations != null) {
                counted = operations;
                sampleAt = startPicos + (endPicos - startPicos) / 2;
            }
        }
    }

    /**
     * The virtual time, ps, from which the count is next due to be read ({@link #sample}): the window's
     * midpoint, then its end; {@link Long#MAX_VALUE} when none is (no count announced, or both read). The
     * engine reads it off every simulated thread, before it takes the first event at or after this time.
     */
    long sampleAt() {
        return sampleAt;
    }

    /**
     * Reads the harness's count now. Call only off the simulated threads (the count is guest code: on the
     * engine's thread its memory hooks do nothing, so reading costs no virtual time and orders nothing).
     */
    void sample() {
        long now = counted.getAsLong();
        if (atMidpoint == MeasuredWindow.NOT_SAMPLED) {
            atMidpoint = now;
            sampleAt = end;
        } else {
            atEnd = now;
            sampleAt = Long.MAX_VALUE;
            counted = null;
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
                : Optional.of(new MeasuredWindow(start, end, working, spinning, yielding,
                        atMidpoint, atEnd == MeasuredWindow.NOT_SAMPLED ? MeasuredWindow.NOT_SAMPLED : atEnd - atMidpoint));
    }
}
