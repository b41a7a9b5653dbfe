package io.spinlab.impl.buffer;

import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * One writer's state in an {@link EventBufferManager} (EventPipe's
 * {@code EventPipeThreadSessionState}): its sequence number, its list of buffers and its
 * current write buffer. Get one from {@link EventBufferManager#newWriter()}, keep it in the
 * writing thread, {@link #close()} it when the thread is done writing.
 *
 * <p>Threading: a writer belongs to one thread at a time (handing it over needs a
 * happens-before edge, as for any unshared object); different writers write concurrently.
 *
 * <p>Progress: a write that fits in the current buffer is wait-free (a clock read, a fenced
 * store, a copy). A write that needs a new buffer reserves it (lock-free with
 * {@code reservation=lockless}; the manager's spin lock with {@code under-lock}), then allocates,
 * zeroes and links it holding the manager's spin lock, as EventPipe did up to .NET 6: blocking.
 */
public final class EventWriter extends EventWriterPad2 {
    /*
     * Implementation notes.
     *
     * Invariants:
     *   - sequenceNumber is the number the next write attempt gets; every attempt that is not
     *     STOPPED consumes exactly one (written, dropped or oversized), so the reader can count
     *     drops from gaps.
     *   - epoch is odd exactly while a write is in progress (from before its timestamp to after
     *     its last store into a buffer). Only this writer's thread changes it.
     *   - writeBuffer, if not null, is the tail of this writer's list. Only this writer appends
     *     to it; the reader may CAS it to null ("detach"), after which only the write already in
     *     progress, if it read the buffer before the detach, may still append to it: once that
     *     write ends the buffer is read-only.
     *   - buffers (the list from head) is changed only under the manager lock: the writer links at
     *     the tail, the reader unlinks at the head. bufferCount is its length.
     *
     * Linearization points: a WRITTEN write at its clock read (its timestamp orders it in the
     * stream), always followed by a read of the manager's state so that no event is stamped
     * after stop() began; the clock is read only for an event that will be kept, never for a
     * drop. A DROPPED write at the state read after its failed reservation; an oversized one at
     * its first state read; a STOPPED write at the state read that saw stop().
     *
     * Memory ordering: the write-in-progress handshake is Dekker's: the writer stores an odd
     * epoch (volatile) and then loads writeBuffer and the manager state (volatile); the reader
     * or stop() stores (CAS writeBuffer to null, or the state) and then loads epoch (volatile).
     * Sequential consistency of volatile accesses lets at least one side see the other: either
     * the writer sees the buffer detached (or the manager stopping), or the other side sees the
     * write in progress and waits until epoch changes. The even store at the end is a release:
     * it publishes the event bytes, the buffer's position and the sequence number to whoever
     * reads that epoch or a later one.
     *
     * Spin/wait policy: the writer never waits for the reader. The reader and stop() wait for one
     * write in progress (the epoch to change, not to become even, so a writer writing back to
     * back cannot starve them), with SpinWait.
     *
     * Why the padding: epoch and sequenceNumber are stored on every event; writers are allocated
     * one after another and would otherwise share lines with each other's hot fields.
     *
     * Why not simpler: a per-writer lock (older EventPipe) costs two atomic operations per event
     * and blocks the writer while the reader converts its buffer; the epoch costs one fenced
     * store and never blocks the writer.
     */

    EventWriter(EventBufferManager manager, int id, Platform platform, int maxEventPayloadBytes) {
        super(manager, id, platform, maxEventPayloadBytes);
    }

    /** The id the reader reports for this writer's events (0, 1, 2, … in registration order). */
    public int id() {
        return id;
    }

    /** The sequence number the next write will get (32-bit, wraps). */
    public int nextSequenceNumber() {
        return (int) SEQUENCE_NUMBER.getAcquire(this);
    }

    /** Events this writer dropped because no buffer could be reserved. */
    public long droppedEvents() {
        return (long) RESERVATION_FAILURES.getOpaque(this);
    }

    /** Events this writer dropped for an oversized payload. */
    public long oversizedDrops() {
        return (long) OVERSIZED_DROPS.getOpaque(this);
    }

    /** Writes the whole of {@code payload} as one event. */
    public WriteOutcome write(byte[] payload) {
        Objects.requireNonNull(payload, "payload");
        return write(payload, 0, payload.length);
    }

    /**
     * Writes {@code payload[offset, offset + length)} as one event with the platform clock's
     * timestamp and this writer's next sequence number.
     *
     * @throws NullPointerException      if {@code payload} is null
     * @throws IndexOutOfBoundsException if the range is not inside {@code payload}
     * @throws IllegalStateException     if this writer was closed
     */
    public WriteOutcome write(byte[] payload, int offset, int length) {
        Objects.requireNonNull(payload, "payload");
        Objects.checkFromIndexSize(offset, length, payload.length);
        if (closed) {
            throw new IllegalStateException("writer " + id + " is closed");
        }
        int start = epoch;
        // Odd: a write is in progress. Volatile: the loads below cannot move above it (Dekker).
        EPOCH.setVolatile(this, start + 1);
        try {
            if (manager.isStopping()) {
                // LP (STOPPED): this read; stop()'s state CAS came first.
                return WriteOutcome.STOPPED;
            }
            int sequence = sequenceNumber;
            WriteOutcome outcome;
            if (length > maxEventPayloadBytes) {
                // LP (DROPPED_OVERSIZED): the state read above.
                OVERSIZED_DROPS.setOpaque(this, oversizedDrops + 1);
                outcome = WriteOutcome.DROPPED_OVERSIZED;
            } else {
                EventBuffer buffer = (EventBuffer) WRITE_BUFFER.getVolatile(this);
                if (buffer != null && buffer.hasRoomFor(length)) {
                    outcome = appendTimestamped(buffer, sequence, payload, offset, length);
                } else {
                    outcome = writeToNewBuffer(buffer, sequence, payload, offset, length);
                }
                if (outcome == WriteOutcome.STOPPED) {
                    return outcome;
                }
            }
            SEQUENCE_NUMBER.setRelease(this, sequence + 1);
            return outcome;
        } finally {
            // Even: done. Release: publishes the sequence number (and, again, the bytes).
            EPOCH.setRelease(this, start + 2);
        }
    }

    /** Takes the timestamp and appends; the timestamp is taken only for an event that will be kept. */
    private WriteOutcome appendTimestamped(EventBuffer buffer, int sequence, byte[] payload, int offset,
            int length) {
        // LP (WRITTEN): the clock read; the event's place in the stream.
        long timestamp = platform.nanoTime();
        if (manager.isStopping()) {
            // The state is read after the clock so that no event is stamped after stop() began.
            return WriteOutcome.STOPPED;
        }
        buffer.append(timestamp, sequence, payload, offset, length);
        return WriteOutcome.WRITTEN;
    }

    private WriteOutcome writeToNewBuffer(EventBuffer full, int sequence, byte[] payload, int offset, int length) {
        if (full != null) {
            manager.signalReader();
        }
        int bytes = manager.config().nextBufferBytes(bufferCount, EventBuffer.HEADER_BYTES + length);
        BufferReservation reservation = manager.reservation();
        if (!reservation.tryReserve(bytes)) {
            if (manager.isStopping()) {
                return WriteOutcome.STOPPED;
            }
            // LP (DROPPED): the state read just above, after the reservation failed.
            RESERVATION_FAILURES.setOpaque(this, reservationFailures + 1);
            return WriteOutcome.DROPPED;
        }
        try {
            // Allocated, zeroed, stamped and linked in one hold of the manager lock (see the manager).
            EventBuffer fresh = manager.allocateAndLink(this, bytes, sequence, payload, offset, length);
            if (fresh == null) {
                // stop() began before the clock read: nothing was linked; release outside the lock.
                reservation.release(bytes);
                return WriteOutcome.STOPPED;
            }
            // a release store (.NET: a plain store under the thread's lock); the fence the handshake
            // with the reader needs is the epoch's, above
            WRITE_BUFFER.setRelease(this, fresh);
            return WriteOutcome.WRITTEN;
        } catch (RuntimeException | Error e) {
            reservation.release(bytes);
            throw e;
        }
    }

    /**
     * Ends this writer: later writes throw. Its remaining events stay readable; once the reader
     * has read them it reports any trailing drops and forgets the writer. Idempotent.
     */
    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "EventWriter[" + id + ", next=" + nextSequenceNumber() + (closed ? ", closed" : "") + "]";
    }

    // Manager and reader access (package-private)

    int epochVolatile() {
        return (int) EPOCH.getVolatile(this);
    }

    EventBuffer writeBufferVolatile() {
        return (EventBuffer) WRITE_BUFFER.getVolatile(this);
    }

    /** The reader's detach: the buffer becomes read-only once the write in progress, if any, ends. */
    boolean casWriteBufferToNull(EventBuffer expected) {
        return WRITE_BUFFER.compareAndSet(this, expected, (EventBuffer) null);
    }

    /** The last sequence number used, for a sequence point. */
    int lastSequenceNumberAcquire() {
        return (int) SEQUENCE_NUMBER.getAcquire(this) - 1;
    }

    long reservationFailuresOpaque() {
        return (long) RESERVATION_FAILURES.getOpaque(this);
    }

    long oversizedDropsOpaque() {
        return (long) OVERSIZED_DROPS.getOpaque(this);
    }

    /** Appends a buffer to the list. Manager lock held. */
    void linkLocked(EventBuffer buffer) {
        // release stores (.NET: plain stores under the manager lock): the reader follows head and
        // next without the lock, and nothing read after them needs a fence
        if (tail == null) {
            HEAD.setRelease(this, buffer);
        } else {
            EventBuffer.NEXT.setRelease(tail, buffer);
        }
        tail = buffer;
        BUFFER_COUNT.setRelease(this, bufferCount + 1);
    }

    /**
     * Unlinks the {@code count} oldest buffers; {@code newHead} is the first one kept (null: all
     * of them went, or the list ended at {@code lastFreed}). Manager lock held.
     */
    void unlinkHeadLocked(EventBuffer lastFreed, int count) {
        EventBuffer newHead = lastFreed.next;
        HEAD.setRelease(this, newHead);
        if (newHead == null) {
            tail = null;
        }
        BUFFER_COUNT.setRelease(this, bufferCount - count);
        assert bufferCount >= 0;
    }

    // VarHandle mechanics
    private static final VarHandle EPOCH;
    private static final VarHandle SEQUENCE_NUMBER;
    private static final VarHandle WRITE_BUFFER;
    private static final VarHandle RESERVATION_FAILURES;
    private static final VarHandle OVERSIZED_DROPS;
    private static final VarHandle HEAD;
    private static final VarHandle BUFFER_COUNT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EPOCH = lookup.findVarHandle(EventWriterFields.class, "epoch", int.class);
            SEQUENCE_NUMBER = lookup.findVarHandle(EventWriterFields.class, "sequenceNumber", int.class);
            WRITE_BUFFER = lookup.findVarHandle(EventWriterFields.class, "writeBuffer", EventBuffer.class);
            RESERVATION_FAILURES = lookup.findVarHandle(EventWriterFields.class, "reservationFailures", long.class);
            OVERSIZED_DROPS = lookup.findVarHandle(EventWriterFields.class, "oversizedDrops", long.class);
            HEAD = lookup.findVarHandle(EventWriterFields.class, "head", EventBuffer.class);
            BUFFER_COUNT = lookup.findVarHandle(EventWriterFields.class, "bufferCount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}

/** 128 bytes before the writer's fields; the int fills the gap a 12-byte header leaves before the longs. */
abstract class EventWriterPad1 {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}

/** Everything a write touches, hot and read-only alike, between two pads. */
abstract class EventWriterFields extends EventWriterPad1 {
    final EventBufferManager manager;
    final int id;
    final Platform platform;
    final int maxEventPayloadBytes;

    // Written by the writer on every event.
    int epoch;
    int sequenceNumber;
    // Written by the writer on a new buffer, CAS'd to null by the reader.
    EventBuffer writeBuffer;
    // Written by the writer on drops only.
    long reservationFailures;
    long oversizedDrops;
    volatile boolean closed;

    // The buffer list: changed under the manager lock; head and next are read by the reader without it.
    volatile EventBuffer head;
    EventBuffer tail;
    /** The list's length; read by the writer without the lock to size its next buffer (an estimate). */
    volatile int bufferCount;

    /** The reader's cursor into this writer's buffers; touched by the reader only. */
    EventReader.Cursor cursor;

    EventWriterFields(EventBufferManager manager, int id, Platform platform, int maxEventPayloadBytes) {
        this.manager = manager;
        this.id = id;
        this.platform = platform;
        this.maxEventPayloadBytes = maxEventPayloadBytes;
    }
}

/** 128 bytes after the writer's fields. */
abstract class EventWriterPad2 extends EventWriterFields {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;

    EventWriterPad2(EventBufferManager manager, int id, Platform platform, int maxEventPayloadBytes) {
        super(manager, id, platform, maxEventPayloadBytes);
    }
}
