package io.spinlab.impl.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One buffer of one writer: a {@code byte[]} filled front to back by bump-pointer appends, then
 * read once by the reader and dropped (EventPipe's {@code EventPipeBuffer}).
 *
 * <p>Event layout, little-endian, no alignment: timestamp (8 bytes), sequence number (4),
 * payload length (4), payload. The writer id is the buffer's, not the event's.
 *
 * <p>Threading: only the owning writer appends, and only while the buffer is its write buffer;
 * the reader reads a buffer only after it became read-only (see {@link EventReader}).
 */
final class EventBuffer {
    /*
     * Implementation notes.
     *
     * Invariants: 0 <= position <= data.length; [0, position) holds whole events; the first event
     * was appended by the write that created the buffer, so firstTimestamp is its timestamp and
     * every later event's timestamp is >= it (one writer, a monotonic clock).
     *
     * Memory ordering: the bytes are plain; position is stored with release after them and read
     * with acquire, so a reader sees whole events up to the position it read, even while the
     * writer appends past it (a write in progress after the reader detached the buffer). `next`
     * is written under the manager lock and read by the reader without it, hence volatile.
     *
     * Why not simpler: a ByteBuffer view would allocate per buffer and bounds-check twice; the
     * byte-array-view VarHandles would be one move each, but Lincheck's model checker rejects
     * them, and C2 merges the byte stores anyway.
     */

    /** Bytes of the per-event header: timestamp, sequence number, payload length. */
    static final int HEADER_BYTES = 16;
    static final int TIMESTAMP_OFFSET = 0;
    static final int SEQUENCE_OFFSET = 8;
    static final int LENGTH_OFFSET = 12;

    final byte[] data;
    /** The timestamp of the first event (the one whose write allocated this buffer). */
    final long firstTimestamp;
    /** End of the written events: stored with release after the bytes, read with acquire. */
    int position;
    /** The next-newer buffer of the same writer; written under the manager lock. */
    volatile EventBuffer next;

    /** A buffer over {@code data} (fresh, zeroed) whose first event will have {@code firstTimestamp}. */
    EventBuffer(byte[] data, long firstTimestamp) {
        this.data = data;
        this.firstTimestamp = firstTimestamp;
    }

    int capacity() {
        return data.length;
    }

    /** True if an event with a {@code payloadLength}-byte payload fits. Writer only. */
    boolean hasRoomFor(int payloadLength) {
        return data.length - position >= HEADER_BYTES + payloadLength;
    }

    /** Appends one event; it must fit ({@link #hasRoomFor}). Writer only. */
    void append(long timestamp, int sequence, byte[] payload, int offset, int length) {
        int start = position;
        int end = start + HEADER_BYTES + length;
        assert end <= data.length && end > start : "no room for a " + length + "-byte event at " + start;
        putLong(data, start + TIMESTAMP_OFFSET, timestamp);
        putInt(data, start + SEQUENCE_OFFSET, sequence);
        putInt(data, start + LENGTH_OFFSET, length);
        System.arraycopy(payload, offset, data, start + HEADER_BYTES, length);
        // Release: a reader that acquires the new position sees the bytes before it.
        POSITION.setRelease(this, end);
    }

    /** The end of the written events; every byte before it is visible to the caller. */
    int positionAcquire() {
        return (int) POSITION.getAcquire(this);
    }

    long timestampAt(int eventOffset) {
        return getLong(data, eventOffset + TIMESTAMP_OFFSET);
    }

    int sequenceAt(int eventOffset) {
        return getInt(data, eventOffset + SEQUENCE_OFFSET);
    }

    int payloadLengthAt(int eventOffset) {
        return getInt(data, eventOffset + LENGTH_OFFSET);
    }

    // Little-endian byte by byte: C2 merges such stores into one wide store (JDK 23+), and unlike
    // byte-array-view VarHandles they are plain array accesses every checker can follow.

    static void putInt(byte[] array, int index, int value) {
        array[index] = (byte) value;
        array[index + 1] = (byte) (value >>> 8);
        array[index + 2] = (byte) (value >>> 16);
        array[index + 3] = (byte) (value >>> 24);
    }

    static void putLong(byte[] array, int index, long value) {
        putInt(array, index, (int) value);
        putInt(array, index + 4, (int) (value >>> 32));
    }

    static int getInt(byte[] array, int index) {
        return (array[index] & 0xFF) | (array[index + 1] & 0xFF) << 8 | (array[index + 2] & 0xFF) << 16
                | (array[index + 3] & 0xFF) << 24;
    }

    static long getLong(byte[] array, int index) {
        return (getInt(array, index) & 0xFFFF_FFFFL) | (long) getInt(array, index + 4) << 32;
    }

    // VarHandle mechanics
    private static final VarHandle POSITION;
    /** The next link: stored with release under the manager lock (EventWriter.linkLocked). */
    static final VarHandle NEXT;

    static {
        try {
            POSITION = MethodHandles.lookup().findVarHandle(EventBuffer.class, "position", int.class);
            NEXT = MethodHandles.lookup().findVarHandle(EventBuffer.class, "next", EventBuffer.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
