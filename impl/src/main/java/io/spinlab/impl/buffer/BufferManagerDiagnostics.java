package io.spinlab.impl.buffer;

/**
 * A snapshot of an {@link EventBufferManager}'s counters, cheap enough to keep on in production:
 * the lock counters are bumped by the lock holder, the drop counters by each writer in its own
 * cache line, and this snapshot sums them without stopping anyone (so its fields are each
 * recent, not mutually consistent while writers run).
 *
 * @param lockAcquisitions          acquisitions of the manager's lock, by anyone
 * @param dropPathLockAcquisitions  acquisitions by writers whose reservation then failed: the
 *                                  lock caravan; always 0 with {@code reservation=lockless}
 * @param reservationFailures       failed buffer reservations, each one event dropped at the limit
 * @param oversizedDrops            events dropped for a payload above the largest event size
 * @param bytesInUse                buffer bytes reserved now
 * @param highWaterBytes            the most buffer bytes ever reserved at once; never above the limit
 * @param buffersAllocated          buffers allocated so far
 * @param sequencePoints            sequence points created so far
 * @param writers                   writers registered and not yet retired
 */
public record BufferManagerDiagnostics(
        long lockAcquisitions,
        long dropPathLockAcquisitions,
        long reservationFailures,
        long oversizedDrops,
        long bytesInUse,
        long highWaterBytes,
        long buffersAllocated,
        long sequencePoints,
        int writers) {
}
