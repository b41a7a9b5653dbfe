package io.spinlab.sim.workload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One operation counter per thread, each on its own 128-byte span so that counting does not
 * make the threads share a cache line (as the published harness pads its per-thread counters).
 * Each counter has a single writer, its thread; any thread may read a {@linkplain #sum() sum}
 * while they count.
 */
public final class OpCounters {
    /*
     * Implementation notes
     *
     * Memory ordering: a counter is written only by its owner, with an opaque write of its own
     * opaque read plus n (no read-modify-write needed, one writer); the reader sums opaque
     * reads. Opaque is enough: the sum is a snapshot taken while counting goes on, and the
     * measured interval is bounded by the clock reads around it, not by a happens-before edge.
     *
     * Padding: STRIDE longs (128 bytes) per counter, the first counter STRIDE longs in, so
     * that no counter shares a line (or an adjacent-line prefetch pair) with another or with
     * the array header.
     */

    /** Longs per counter: 128 bytes. */
    private static final int STRIDE = 16;

    private final long[] slots;
    private final int size;

    /** {@code size} counters, all zero. */
    public OpCounters(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size = " + size + "; allowed 1 or more");
        }
        this.size = size;
        this.slots = new long[(size + 2) * STRIDE];
    }

    /** The number of counters. */
    public int size() {
        return size;
    }

    /** Adds {@code n} to counter {@code index}; only that counter's thread may call it. */
    public void add(int index, long n) {
        int at = offset(index);
        SLOT.setOpaque(slots, at, (long) SLOT.getOpaque(slots, at) + n);
    }

    /** Adds one to counter {@code index}; only that counter's thread may call it. */
    public void increment(int index) {
        add(index, 1);
    }

    /** Counter {@code index} now. */
    public long get(int index) {
        return (long) SLOT.getOpaque(slots, offset(index));
    }

    /** The sum of every counter now. */
    public long sum() {
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += (long) SLOT.getOpaque(slots, offset(i));
        }
        return total;
    }

    private int offset(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("counter " + index + " of " + size);
        }
        return (index + 1) * STRIDE;
    }

    // VarHandle mechanics
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
}
