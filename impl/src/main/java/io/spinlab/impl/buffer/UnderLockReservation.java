package io.spinlab.impl.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@code under-lock} reservation EventPipe used before dotnet/runtime #50797: take the
 * manager's lock, compare the total with the limit, add. Every writer that needs a buffer takes
 * the lock, including those that only learn their request fails: once the limit is reached
 * every dropped event is a lock acquisition, and writers queue on the lock only to fail — the
 * lock caravan. Kept, selectable, so the change can be measured.
 *
 * <p>Progress: blocking (the manager's spin lock).
 */
final class UnderLockReservation implements BufferReservation {
    /*
     * Implementation notes.
     *
     * Invariants: 0 <= total <= limit; total changes only under the lock.
     *
     * Linearization points: inside the lock, at the comparison (failure) or the store (success).
     *
     * Memory ordering: the lock orders the read-compare-write; the stores are release stores
     * (.NET: plain stores of m_sizeOfAllBuffers under the lock) to volatile fields only so that
     * bytesInUse() can read a recent, untorn value without the lock.
     *
     * Why no padding: total is touched only by the lock holder, whose line the lock word already
     * bounces; the lock's own counters are padded in ManagerLock.
     */

    private final long limitBytes;
    private final ManagerLock lock;
    private volatile long total;
    private volatile long highWater;

    UnderLockReservation(long limitBytes, ManagerLock lock) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("limitBytes = " + limitBytes + " is out of range; allowed 1 or more");
        }
        this.limitBytes = limitBytes;
        this.lock = lock;
    }

    @Override
    public boolean tryReserve(int bytes) {
        assert bytes > 0;
        lock.enter();
        try {
            long next = total + bytes;
            if (next > limitBytes) {
                // LP: the comparison, under the lock: this acquisition was for nothing.
                lock.countDropPathAcquisition();
                return false;
            }
            // LP: the store, under the lock.
            TOTAL.setRelease(this, next);
            if (next > highWater) {
                HIGH_WATER.setRelease(this, next);
            }
            return true;
        } finally {
            lock.exit();
        }
    }

    @Override
    public void release(long bytes) {
        assert bytes >= 0;
        lock.enter();
        try {
            assert total >= bytes : "releasing " + bytes + " of " + total + " reserved bytes";
            TOTAL.setRelease(this, total - bytes);
        } finally {
            lock.exit();
        }
    }

    @Override
    public long bytesInUse() {
        return total;
    }

    @Override
    public long highWaterBytes() {
        return highWater;
    }

    @Override
    public String toString() {
        return "under-lock[" + total + "/" + limitBytes + " bytes]";
    }

    // VarHandle mechanics
    private static final VarHandle TOTAL;
    private static final VarHandle HIGH_WATER;

    static {
        try {
            TOTAL = MethodHandles.lookup().findVarHandle(UnderLockReservation.class, "total", long.class);
            HIGH_WATER = MethodHandles.lookup().findVarHandle(UnderLockReservation.class, "highWater", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
