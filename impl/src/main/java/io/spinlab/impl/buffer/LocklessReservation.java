package io.spinlab.impl.buffer;

import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@code lockless} reservation of dotnet/runtime #50797: a compare-and-swap loop on the
 * total outside any lock. A writer whose reservation cannot succeed learns it from one read of
 * the total and never touches the manager's lock, so no caravan forms behind a full manager.
 *
 * <p>Progress: lock-free; a thread that keeps losing the race gives up its time slice
 * ({@code Sleep(0)}) every {@value #SLEEP0_EVERY_FAILED_ATTEMPTS} failed attempts, as EventPipe does.
 */
final class LocklessReservation extends LocklessReservationPad2 implements BufferReservation {
    /*
     * Implementation notes.
     *
     * Invariants: 0 <= total <= limit at every instant: the only increase is a CAS from a value v
     * to v + n with v + n <= limit, and a release only subtracts what a reservation added.
     * highWater >= every value total ever had: each increase raises it to at least the new value.
     *
     * Linearization points: tryReserve at its successful CAS, or (failure) at the read of a total
     * that leaves no room; release at its successful CAS.
     *
     * Memory ordering: total is read with plain volatile loads and changed by CAS; nothing else
     * is published through it (the buffer itself is published under the manager lock).
     *
     * Spin/wait policy: no spinning on a full total (that is the whole point); on CAS contention
     * retry at once, with a Sleep(0) every 64 failures (ep_buffer_manager's constant; an early
     * revision of the PR used 100).
     *
     * Why the padding: every writer CASes total when it needs a buffer and, once the limit is
     * reached, reads it on every dropped event; it must not share a line with anything else hot.
     */

    /** A {@code Sleep(0)} every this many failed CAS attempts. */
    static final int SLEEP0_EVERY_FAILED_ATTEMPTS = 64;

    private final long limitBytes;
    private final Platform platform;

    LocklessReservation(long limitBytes, Platform platform) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("limitBytes = " + limitBytes + " is out of range; allowed 1 or more");
        }
        this.limitBytes = limitBytes;
        this.platform = platform;
    }

    @Override
    public boolean tryReserve(int bytes) {
        assert bytes > 0;
        for (int failures = 0; ; ) {
            long current = total;
            long next = current + bytes;
            if (next > limitBytes) {
                // LP: a total that leaves no room; the lock is never taken on this path.
                return false;
            }
            // LP: the CAS that adds the bytes.
            if (TOTAL.compareAndSet(this, current, next)) {
                raiseHighWater(next);
                return true;
            }
            failures++;
            if (failures % SLEEP0_EVERY_FAILED_ATTEMPTS == 0) {
                platform.sleep(0);
            }
        }
    }

    @Override
    public void release(long bytes) {
        assert bytes >= 0;
        for (int failures = 0; ; ) {
            long current = total;
            assert current >= bytes : "releasing " + bytes + " of " + current + " reserved bytes";
            // LP: the CAS that subtracts the bytes.
            if (TOTAL.compareAndSet(this, current, current - bytes)) {
                return;
            }
            failures++;
            if (failures % SLEEP0_EVERY_FAILED_ATTEMPTS == 0) {
                platform.sleep(0);
            }
        }
    }

    private void raiseHighWater(long value) {
        for (;;) {
            long high = highWater;
            if (value <= high || HIGH_WATER.compareAndSet(this, high, value)) {
                return;
            }
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
        return "lockless[" + total + "/" + limitBytes + " bytes]";
    }

    // VarHandle mechanics
    private static final VarHandle TOTAL;
    private static final VarHandle HIGH_WATER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TOTAL = lookup.findVarHandle(LocklessReservationFields.class, "total", long.class);
            HIGH_WATER = lookup.findVarHandle(LocklessReservationFields.class, "highWater", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}

/** 128 bytes before the total; the int fills the gap a 12-byte header leaves before the longs. */
abstract class LocklessReservationPad1 {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}

abstract class LocklessReservationFields extends LocklessReservationPad1 {
    volatile long total;
    volatile long highWater;
}

/** 128 bytes after the total. */
abstract class LocklessReservationPad2 extends LocklessReservationFields {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;
}
