package io.spinlab.sim.engine;

/**
 * What a simulated clock read returns: the virtual time it is dated at, in nanoseconds, plus the
 * injected clock jitter (a fault), kept monotonic across threads as a machine's invariant TSC is.
 *
 * <p>A read is dated at the end of the instructions before it, so reads are not handled in the
 * order of their dates: a read dated before the latest-dated one so far is held at or below that
 * one's value (and at or above its own thread's previous read) instead of raising the bar, so a
 * future-dated read never pushes earlier-dated reads forward. Without jitter every read returns
 * exactly its date in nanoseconds.
 */
final class ClockReads {
    private static final int PICOS_PER_NANO = 1_000;

    /** The faults' stream (jitter is drawn from it, interleaved with the other faults' draws). */
    private final SimRandom faultRandom;
    private final long jitterMaxPicos;
    /** The latest instant a read was dated at, ps, and what it returned, ns. */
    private long lastAtPicos;
    private long lastNanos;

    ClockReads(SimRandom faultRandom, long jitterMaxPicos) {
        this.faultRandom = faultRandom;
        this.jitterMaxPicos = jitterMaxPicos;
    }

    /** What {@code t}'s clock read dated at virtual time {@code at} (ps) returns, in ns. */
    long read(SimThread t, long at) {
        long picos = at;
        if (jitterMaxPicos > 0) {
            picos += faultRandom.nextLong(jitterMaxPicos + 1);
        }
        long nanos = picos / PICOS_PER_NANO;
        if (at >= lastAtPicos) {
            nanos = Math.max(nanos, lastNanos);
            lastAtPicos = at;
            lastNanos = nanos;
        } else {
            nanos = Math.min(nanos, lastNanos);
        }
        nanos = Math.max(nanos, t.lastClockNanos);
        t.lastClockNanos = nanos;
        return nanos;
    }
}
