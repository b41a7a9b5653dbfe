package io.spinlab.model.spec;

/**
 * Sequential specification of a non-reentrant spin lock ({@code SpinLock}) in either of its
 * modes, and of the counter that its critical sections guard.
 *
 * <ul>
 *   <li><em>Thread-tracking</em>: the lock knows its owner. {@code tryEnter} by the owner is
 *       rejected ({@code IllegalStateException}: not reentrant); {@code exit} by any other thread
 *       is rejected ({@code IllegalMonitorStateException}).</li>
 *   <li><em>Anonymous</em>: the lock knows only that it is held. Any thread may exit it;
 *       {@code exit} of a free lock is rejected ({@code IllegalMonitorStateException});
 *       {@code isHeldByCurrentThread} is rejected ({@code IllegalStateException}).</li>
 * </ul>
 * The {@code threadId} parameters identify the calling thread (see the package notes); anonymous
 * mode ignores them. {@code exit(useMemoryBarrier, threadId)} behaves the same for either value
 * of the flag, which only chooses how the primitive publishes the release.
 *
 * <p>{@link #increment()} models a complete critical section (enter, add one to a counter,
 * exit): with mutual exclusion, critical sections appear one after another, so the counter
 * values returned are all different and without gaps. Critical sections run while the lock is
 * free between operations; the spec rejects (throws) an increment while a thread holds the lock,
 * because the operation would wait and a sequential spec cannot.
 *
 * <p>Leaves out: which of several spinning threads wins, fairness, timeouts and interruption.
 */
public class SpinLockSpec {
    private static final int NO_OWNER = Integer.MIN_VALUE;
    private static final int ANONYMOUS_OWNER = Integer.MAX_VALUE;

    private final boolean trackOwner;
    private int owner = NO_OWNER;
    private int counter;

    /** @param trackOwner true for thread-tracking mode, false for anonymous mode */
    public SpinLockSpec(boolean trackOwner) {
        this.trackOwner = trackOwner;
    }

    /**
     * Acquires the lock if it is free.
     *
     * @return {@code Boolean.TRUE} if acquired, {@code Boolean.FALSE} if held, or (tracking mode)
     *         {@code Outcome.thrown(IllegalStateException.class)} if the caller already holds it
     */
    public Object tryEnter(int threadId) {
        if (trackOwner && owner == threadId) {
            return Outcome.thrown(IllegalStateException.class);
        }
        if (owner != NO_OWNER) {
            return false;
        }
        owner = trackOwner ? threadId : ANONYMOUS_OWNER;
        return true;
    }

    /**
     * Releases the lock.
     *
     * @return {@link Outcome#OK}, or {@code Outcome.thrown(IllegalMonitorStateException.class)} if the lock is
     *         free (anonymous) or not held by the caller (tracking)
     */
    public Object exit(boolean useMemoryBarrier, int threadId) {
        boolean mayExit = trackOwner ? owner == threadId : owner != NO_OWNER;
        if (!mayExit) {
            return Outcome.thrown(IllegalMonitorStateException.class);
        }
        owner = NO_OWNER;
        return Outcome.OK;
    }

    /** True if some thread holds the lock. */
    public boolean isHeld() {
        return owner != NO_OWNER;
    }

    /**
     * @return whether the caller holds the lock (a {@code Boolean}), or, in anonymous mode,
     *         {@code Outcome.thrown(IllegalStateException.class)}
     */
    public Object isHeldByCurrentThread(int threadId) {
        if (!trackOwner) {
            return Outcome.thrown(IllegalStateException.class);
        }
        return owner == threadId;
    }

    /**
     * A complete critical section: enter, add one to the guarded counter, exit.
     *
     * @return the counter before the increment
     * @throws IllegalStateException if the lock is held, where the operation would wait
     */
    public int increment() {
        if (owner != NO_OWNER) {
            throw new IllegalStateException("increment would wait for the holder; a sequential spec cannot");
        }
        return counter++;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SpinLockSpec that && that.getClass() == getClass() && that.trackOwner == trackOwner
                && that.owner == owner && that.counter == counter;
    }

    @Override
    public int hashCode() {
        return (31 * owner + counter) * 2 + (trackOwner ? 1 : 0);
    }

    @Override
    public String toString() {
        String holder = owner == NO_OWNER ? "free" : owner == ANONYMOUS_OWNER ? "held" : "held by " + owner;
        return "SpinLockSpec[" + (trackOwner ? "tracking" : "anonymous") + ", " + holder + ", counter=" + counter
                + "]";
    }
}
