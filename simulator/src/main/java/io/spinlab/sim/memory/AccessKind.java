package io.spinlab.sim.memory;

/**
 * What an instrumented access does to its cache line, as the memory model costs it. Every
 * volatile field access and every {@code VarHandle} access mode maps to one kind; the mapping
 * follows what the access compiles to on x86 (TSO): loads of any mode are plain loads, stores
 * of release, opaque or plain mode are plain stores, a volatile store is a store plus a
 * store-load fence (a locked instruction), and every read-modify-write is a locked instruction.
 *
 * <p>Instrumented bytecode passes the kind as its {@link #ordinal()}; the order is fixed.
 */
public enum AccessKind {
    /** A load: volatile field read, {@code get}, {@code getVolatile}, {@code getAcquire}, {@code getOpaque}. */
    READ,
    /** A store without a fence: {@code set}, {@code setRelease}, {@code setOpaque}. */
    WRITE,
    /** A store followed by a full fence: volatile field write, {@code setVolatile}. */
    VOLATILE_WRITE,
    /**
     * A locked read-modify-write: {@code compareAndSet}, {@code compareAndExchange*},
     * {@code weakCompareAndSet*}, {@code getAndSet*}, {@code getAndAdd*}, {@code getAndBitwise*}.
     * A failed compare-and-set costs the same: the line is taken exclusive either way.
     */
    READ_MODIFY_WRITE;

    private static final AccessKind[] BY_CODE = values();

    /** The kind whose {@link #ordinal()} is {@code code}. */
    public static AccessKind ofCode(int code) {
        return BY_CODE[code];
    }

    /**
     * True for the locked instructions ({@link #VOLATILE_WRITE}'s fence, {@link #READ_MODIFY_WRITE}):
     * they wait for their processor's store buffer to drain.
     */
    public boolean locked() {
        return this == VOLATILE_WRITE || this == READ_MODIFY_WRITE;
    }

    /** True for kinds that need the line exclusive (every kind but {@link #READ}). */
    public boolean exclusive() {
        return this != READ;
    }
}
