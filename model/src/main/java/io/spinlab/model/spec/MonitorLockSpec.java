package io.spinlab.model.spec;

/**
 * Sequential specification of a reentrant, owner-tracked lock ({@code MonitorLock}, the
 * equivalent of a .NET {@code Monitor}) and of the counter that its critical sections guard.
 *
 * <p>Models {@code tryEnter} (acquire a free lock, or enter again a lock the caller owns: the
 * recursion depth counts up), {@code exit} (one level down; rejected with
 * {@code IllegalMonitorStateException} for a caller that does not own the lock),
 * {@code isLocked} and {@code isHeldByCurrentThread}. The {@code threadId} parameters identify
 * the calling thread (see the package notes). The handoff policy (barging or convoy) is not
 * visible here: it decides who gets a contended lock and when, never what an operation returns.
 *
 * <p>{@link #increment()} models a complete critical section (enter, add one to a counter,
 * exit): with mutual exclusion the values returned are all different and without gaps.
 * Critical sections run while the lock is free between operations; the spec rejects (throws) an
 * increment while a thread holds the lock, because the operation would wait and a sequential
 * spec cannot.
 *
 * <p>Leaves out: blocking enters as such, the condition queue (wait, pulse), timeouts and
 * interruption.
 */
public class MonitorLockSpec {
    private static final int NO_OWNER = Integer.MIN_VALUE;

    private int owner = NO_OWNER;
    private int depth;
    private int counter;

    /** Acquires the lock if it is free or already the caller's; true if the caller now owns it. */
    public boolean tryEnter(int threadId) {
        if (owner == NO_OWNER) {
            owner = threadId;
            depth = 1;
            return true;
        }
        if (owner == threadId) {
            depth++;
            return true;
        }
        return false;
    }

    /**
     * Releases one level of ownership.
     *
     * @return {@link Outcome#OK}, or {@code Outcome.thrown(IllegalMonitorStateException.class)} if the caller
     *         does not own the lock
     */
    public Object exit(int threadId) {
        if (owner != threadId) {
            return Outcome.thrown(IllegalMonitorStateException.class);
        }
        depth--;
        if (depth == 0) {
            owner = NO_OWNER;
        }
        return Outcome.OK;
    }

    /** True if some thread owns the lock. */
    public boolean isLocked() {
        return owner != NO_OWNER;
    }

    /** True if the caller owns the lock. */
    public boolean isHeldByCurrentThread(int threadId) {
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
            throw new IllegalStateException("increment would wait for the owner; a sequential spec cannot");
        }
        return counter++;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MonitorLockSpec that && that.getClass() == getClass() && that.owner == owner
                && that.depth == depth && that.counter == counter;
    }

    @Override
    public int hashCode() {
        return (31 * owner + depth) * 31 + counter;
    }

    @Override
    public String toString() {
        return "MonitorLockSpec[" + (owner == NO_OWNER ? "free" : "owned by " + owner + " x" + depth)
                + ", counter=" + counter + "]";
    }
}
