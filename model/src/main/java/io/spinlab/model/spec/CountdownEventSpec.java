package io.spinlab.model.spec;

/**
 * Sequential specification of a countdown event ({@code CountdownEvent}): a count that
 * {@code signal} lowers and {@code addCount} raises; the event is set exactly when the count is
 * zero, and a set event stays set (the count cannot be raised from zero).
 *
 * <p>Models {@code signal()}, {@code signal(n)}, {@code tryAddCount(n)}, {@code addCount(n)},
 * {@code currentCount}, {@code isSet} and {@code waitZero}, a wait with a zero timeout. Every
 * rejection leaves the count unchanged: a signal or add count below 1
 * ({@code IllegalArgumentException}), a signal larger than the count and an add to a set event
 * ({@code IllegalStateException}).
 *
 * <p>Leaves out: {@code reset}, which the primitive documents as not atomic with respect to
 * concurrent signals; waits that block; overflow of the count beyond {@code Integer.MAX_VALUE}.
 */
public class CountdownEventSpec {
    private int count;

    /** @param initialCount the count to start from, 0 or more (0 = already set) */
    public CountdownEventSpec(int initialCount) {
        if (initialCount < 0) {
            throw new IllegalArgumentException("initialCount = " + initialCount + " is negative");
        }
        this.count = initialCount;
    }

    /** Lowers the count by one; see {@link #signal(int)}. */
    public Object signal() {
        return signal(1);
    }

    /**
     * Lowers the count by {@code signalCount}.
     *
     * @return {@code Boolean.TRUE} if this call brought the count to zero, {@code Boolean.FALSE} if not,
     *         or the rejection ({@code IllegalArgumentException}, {@code IllegalStateException})
     */
    public Object signal(int signalCount) {
        if (signalCount < 1) {
            return Outcome.thrown(IllegalArgumentException.class);
        }
        if (count < signalCount) {
            return Outcome.thrown(IllegalStateException.class);
        }
        count -= signalCount;
        return count == 0;
    }

    /**
     * Raises the count by {@code signalCount} unless it is zero.
     *
     * @return {@code Boolean.TRUE} if raised, {@code Boolean.FALSE} if the count was zero, or
     *         {@code Outcome.thrown(IllegalArgumentException.class)} if {@code signalCount} is below 1
     */
    public Object tryAddCount(int signalCount) {
        if (signalCount < 1) {
            return Outcome.thrown(IllegalArgumentException.class);
        }
        if (count == 0) {
            return false;
        }
        if (count > Integer.MAX_VALUE - signalCount) {
            return Outcome.thrown(IllegalStateException.class);
        }
        count += signalCount;
        return true;
    }

    /**
     * Raises the count by {@code signalCount}.
     *
     * @return {@link Outcome#OK}, or {@code IllegalArgumentException} if {@code signalCount} is below 1, or
     *         {@code IllegalStateException} if the count is zero
     */
    public Object addCount(int signalCount) {
        Object added = tryAddCount(signalCount);
        if (Boolean.TRUE.equals(added)) {
            return Outcome.OK;
        }
        return Boolean.FALSE.equals(added) ? Outcome.thrown(IllegalStateException.class) : added;
    }

    /** The count left. */
    public int currentCount() {
        return count;
    }

    /** True if the count is zero. */
    public boolean isSet() {
        return count == 0;
    }

    /** A wait with a zero timeout: true if the count is zero, the same answer as {@link #isSet()}. */
    public boolean waitZero() {
        return count == 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CountdownEventSpec that && that.getClass() == getClass() && that.count == count;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(count);
    }

    @Override
    public String toString() {
        return "CountdownEventSpec[count=" + count + "]";
    }
}
