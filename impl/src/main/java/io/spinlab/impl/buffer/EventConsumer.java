package io.spinlab.impl.buffer;

/**
 * Receives what one {@link EventReader#read} pass delivers, on the reader's thread, in stream
 * order: events in timestamp order across writers, drops where sequence numbers show gaps, and
 * sequence points.
 */
public interface EventConsumer {

    /**
     * One event. The view and its payload are valid only during this call: copy what you keep.
     */
    void onEvent(EventView event);

    /**
     * Writer {@code writerId} dropped {@code count} events numbered {@code firstSequenceNumber}
     * onward (wrapping): seen as a gap before its next event, or at a sequence point.
     */
    default void onDropped(int writerId, int firstSequenceNumber, int count) {
    }

    /** A sequence point, after every event it covers. */
    default void onSequencePoint(SequencePoint point) {
    }
}
