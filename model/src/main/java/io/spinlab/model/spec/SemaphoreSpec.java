package io.spinlab.model.spec;

/**
 * Sequential specification of a counting semaphore with a maximum count ({@code SemaphoreSlim}):
 * the number of permits, taken one at a time and returned several at a time.
 *
 * <p>Models {@code tryAcquire} (take a permit if there is one), {@code release(n)} (return
 * {@code n} permits, reporting the count before; rejected without effect when {@code n} is below
 * 1 or the count would exceed the maximum), {@code currentCount}, and {@code tryAcquireZero}, a
 * timed acquire with a zero timeout, which is {@link #tryAcquire()} again.
 *
 * <p>Leaves out: blocking acquires and their waiters (who is woken, in which order), fairness,
 * timeouts, interruption.
 */
public class SemaphoreSpec {
    private final int maxCount;
    private int count;

    /**
     * @param initialCount permits at the start, 0..maxCount
     * @param maxCount the most permits the semaphore may hold, 1 or more
     */
    public SemaphoreSpec(int initialCount, int maxCount) {
        if (maxCount < 1 || initialCount < 0 || initialCount > maxCount) {
            throw new IllegalArgumentException("need 0 <= initialCount <= maxCount and maxCount >= 1; got "
                    + initialCount + " and " + maxCount);
        }
        this.maxCount = maxCount;
        this.count = initialCount;
    }

    /** Takes a permit if one is available. */
    public boolean tryAcquire() {
        if (count == 0) {
            return false;
        }
        count--;
        return true;
    }

    /** A timed acquire with a zero timeout: only tries, as {@link #tryAcquire()}. */
    public boolean tryAcquireZero() {
        return tryAcquire();
    }

    /**
     * Returns {@code releaseCount} permits.
     *
     * @return the count before the release (an {@code Integer}), or
     *         {@code Outcome.thrown(IllegalArgumentException.class)} if {@code releaseCount} is below 1, or
     *         {@code Outcome.thrown(IllegalStateException.class)} if the count would exceed the maximum
     */
    public Object release(int releaseCount) {
        if (releaseCount < 1) {
            return Outcome.thrown(IllegalArgumentException.class);
        }
        if (maxCount - count < releaseCount) {
            return Outcome.thrown(IllegalStateException.class);
        }
        int before = count;
        count += releaseCount;
        return before;
    }

    /** Permits available. */
    public int currentCount() {
        return count;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SemaphoreSpec that && that.getClass() == getClass() && that.count == count
                && that.maxCount == maxCount;
    }

    @Override
    public int hashCode() {
        return 31 * count + maxCount;
    }

    @Override
    public String toString() {
        return "SemaphoreSpec[count=" + count + ", max=" + maxCount + "]";
    }
}
