package io.spinlab.impl.buffer;

import java.util.Objects;

/**
 * The event an {@link EventConsumer} is being shown: a reusable view into a read-only buffer,
 * valid only during {@link EventConsumer#onEvent}. Reading it allocates nothing unless the
 * payload is asked for as a new array.
 */
public final class EventView {
    private EventBuffer buffer;
    private int eventOffset;
    private int writerId;

    EventView() {
    }

    void show(int writer, EventBuffer source, int offset) {
        this.writerId = writer;
        this.buffer = source;
        this.eventOffset = offset;
    }

    void clear() {
        this.buffer = null;
    }

    /** The id of the writer that wrote the event. */
    public int writerId() {
        return writerId;
    }

    /** The writer's sequence number for this event (32-bit, wraps). */
    public int sequenceNumber() {
        return current().sequenceAt(eventOffset);
    }

    /** The platform-clock time at which the write began. */
    public long timestamp() {
        return current().timestampAt(eventOffset);
    }

    public int payloadLength() {
        return current().payloadLengthAt(eventOffset);
    }

    /** One payload byte. */
    public byte payloadByte(int index) {
        Objects.checkIndex(index, payloadLength());
        return current().data[eventOffset + EventBuffer.HEADER_BYTES + index];
    }

    /** Copies the payload into {@code destination} from {@code destinationOffset} on. */
    public void copyPayload(byte[] destination, int destinationOffset) {
        int length = payloadLength();
        Objects.checkFromIndexSize(destinationOffset, length, destination.length);
        System.arraycopy(current().data, eventOffset + EventBuffer.HEADER_BYTES, destination, destinationOffset,
                length);
    }

    /** The payload as a new array. */
    public byte[] payload() {
        byte[] copy = new byte[payloadLength()];
        copyPayload(copy, 0);
        return copy;
    }

    private EventBuffer current() {
        if (buffer == null) {
            throw new IllegalStateException("an EventView is valid only during EventConsumer.onEvent");
        }
        return buffer;
    }

    @Override
    public String toString() {
        return buffer == null ? "EventView[none]" : "EventView[w" + writerId + "#" + sequenceNumber() + ", t="
                + timestamp() + ", " + payloadLength() + " bytes]";
    }
}
