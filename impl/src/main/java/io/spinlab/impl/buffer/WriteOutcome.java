package io.spinlab.impl.buffer;

/** What became of one {@link EventWriter#write} call. */
public enum WriteOutcome {
    /** The event is in a buffer and will be read exactly once. Its sequence number was consumed. */
    WRITTEN,
    /**
     * No buffer could be had within the manager's limit: the event is dropped, counted, and its
     * sequence number consumed, so the reader sees the gap.
     */
    DROPPED,
    /**
     * The payload is larger than the manager's largest event ({@code 64 KB} by default): dropped,
     * counted separately, sequence number consumed.
     */
    DROPPED_OVERSIZED,
    /**
     * The manager was stopped before this write: nothing was written and no sequence number was
     * consumed; the write belongs after the end of the stream.
     */
    STOPPED
}
