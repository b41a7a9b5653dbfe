package io.spinlab.impl.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Padding before the value (the JCTools way: the chain's classes share the file of the last one). */
abstract class LongPad1 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The padded value. */
abstract class LongField extends LongPad1 {
    volatile long value;
}

/**
 * A {@code volatile long} alone on its own 128-byte span, with the atomic updates the thread
 * pool's packed words need. Internal to the pool.
 */
final class PaddedLong extends LongField {
    /*
     * Implementation notes.
     *
     * Padding: the pool's run-state word is hit by every submission and completion, the thread
     * counts and the request count by every wake-up, the cascading request stage by every
     * enqueue; each alone on a 128-byte span so that they do not false-share with each other or
     * with the read-mostly final fields of the objects that hold them.
     * Chain: LongPad1 → LongField → PaddedLong.
     */

    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;

    PaddedLong(long initial) {
        this.value = initial;
    }

    /** CAS of the value. */
    boolean compareAndSet(long expected, long next) {
        return VALUE.compareAndSet(this, expected, next);
    }

    /** CAS of the value; returns the witness. */
    long compareAndExchange(long expected, long next) {
        return (long) VALUE.compareAndExchange(this, expected, next);
    }

    /** Atomic add; returns the value before. */
    long getAndAdd(long delta) {
        return (long) VALUE.getAndAdd(this, delta);
    }

    /** A release store of the value (a plain store on x86: no fence, no wait for the store buffer). */
    void setRelease(long next) {
        VALUE.setRelease(this, next);
    }

    /** Atomic swap; returns the value before. */
    long getAndSet(long next) {
        return (long) VALUE.getAndSet(this, next);
    }

    // VarHandle mechanics
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(LongField.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
