package io.spinlab.impl.buffer;

import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.ReservationPolicy;

/**
 * How buffer bytes are reserved against the manager's global limit: the {@code reservation}
 * knob as a small strategy (Agrona's idle strategies are the model). A writer reserves a
 * buffer's size before allocating it and the reader releases it after freeing the buffer.
 *
 * <p>Implementations are thread-safe. The invariant every implementation keeps: the bytes in use
 * never exceed the limit, at any instant.
 */
interface BufferReservation {

    /**
     * Adds {@code bytes} to the bytes in use if the total stays within the limit.
     *
     * @return false, changing nothing, if the limit would be passed
     */
    boolean tryReserve(int bytes);

    /** Returns {@code bytes} reserved earlier. Must not be called with the manager lock held. */
    void release(long bytes);

    /** Bytes reserved and not yet released (a recent value). */
    long bytesInUse();

    /** The largest value {@link #bytesInUse()} ever had. */
    long highWaterBytes();

    /** The strategy the knob names. */
    static BufferReservation of(ReservationPolicy policy, long limitBytes, ManagerLock lock, Platform platform) {
        return switch (policy) {
            case LOCKLESS -> new LocklessReservation(limitBytes, platform);
            case UNDER_LOCK -> new UnderLockReservation(limitBytes, lock);
        };
    }
}
