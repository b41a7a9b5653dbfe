package io.spinlab.impl.buffer;

/**
 * The sizes an {@link EventBufferManager} works with. Immutable; every value is checked at
 * construction, so a manager never starts from a configuration it cannot honour.
 *
 * <p>Defaults are EventPipe's: buffers of 100 KB × (the writer's buffers + 1), at most 1 MB;
 * events of at most 64 KB; a sequence point every 10 MB of buffer allocation; a 256 MB limit
 * (the size {@code dotnet-trace} asks for).
 *
 * @param limitBytes              the most bytes all buffers together may hold; more is dropped
 * @param baseBufferBytes         a writer's first buffer; its n-th is n times this, capped
 * @param maxBufferBytes          the largest buffer; at most {@code limitBytes}
 * @param maxEventPayloadBytes    larger payloads are dropped as oversized; a header plus this must
 *                                fit in {@code maxBufferBytes}
 * @param sequencePointBudgetBytes buffer bytes allocated between two sequence points
 */
public record BufferManagerConfig(
        long limitBytes,
        int baseBufferBytes,
        int maxBufferBytes,
        int maxEventPayloadBytes,
        long sequencePointBudgetBytes) {

    /** EventPipe's base buffer size: 100 KB. */
    public static final int DEFAULT_BASE_BUFFER_BYTES = 100 * 1024;
    /** EventPipe's largest buffer: 1 MB. */
    public static final int DEFAULT_MAX_BUFFER_BYTES = 1024 * 1024;
    /** EventPipe's largest event payload: 64 KB. */
    public static final int DEFAULT_MAX_EVENT_PAYLOAD_BYTES = 64 * 1024;
    /** A sequence point every 10 MB of buffer allocation. */
    public static final long DEFAULT_SEQUENCE_POINT_BUDGET_BYTES = 10L * 1024 * 1024;
    /** {@code dotnet-trace}'s default circular buffer: 256 MB. */
    public static final long DEFAULT_LIMIT_BYTES = 256L * 1024 * 1024;

    public BufferManagerConfig {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("limitBytes = " + limitBytes + " is out of range; allowed 1 or more");
        }
        if (baseBufferBytes <= 0) {
            throw new IllegalArgumentException("baseBufferBytes = " + baseBufferBytes
                    + " is out of range; allowed 1 or more");
        }
        if (maxBufferBytes < baseBufferBytes) {
            throw new IllegalArgumentException("maxBufferBytes = " + maxBufferBytes
                    + " is below baseBufferBytes = " + baseBufferBytes);
        }
        if (maxBufferBytes > limitBytes) {
            throw new IllegalArgumentException("maxBufferBytes = " + maxBufferBytes + " is above limitBytes = "
                    + limitBytes + ": such a buffer could never be reserved");
        }
        if (maxEventPayloadBytes < 0) {
            throw new IllegalArgumentException("maxEventPayloadBytes = " + maxEventPayloadBytes
                    + " is out of range; allowed 0 or more");
        }
        if ((long) maxEventPayloadBytes + EventBuffer.HEADER_BYTES > maxBufferBytes) {
            throw new IllegalArgumentException("maxEventPayloadBytes = " + maxEventPayloadBytes + " plus the "
                    + EventBuffer.HEADER_BYTES + "-byte event header does not fit in maxBufferBytes = "
                    + maxBufferBytes);
        }
        if (sequencePointBudgetBytes <= 0) {
            throw new IllegalArgumentException("sequencePointBudgetBytes = " + sequencePointBudgetBytes
                    + " is out of range; allowed 1 or more");
        }
    }

    /** EventPipe's sizes with a 256 MB limit. */
    public static BufferManagerConfig defaults() {
        return ofLimit(DEFAULT_LIMIT_BYTES);
    }

    /** EventPipe's buffer, event and sequence-point sizes with the given limit. */
    public static BufferManagerConfig ofLimit(long limitBytes) {
        return new BufferManagerConfig(limitBytes, DEFAULT_BASE_BUFFER_BYTES, DEFAULT_MAX_BUFFER_BYTES,
                DEFAULT_MAX_EVENT_PAYLOAD_BYTES, DEFAULT_SEQUENCE_POINT_BUDGET_BYTES);
    }

    public BufferManagerConfig withLimitBytes(long newLimitBytes) {
        return new BufferManagerConfig(newLimitBytes, baseBufferBytes, maxBufferBytes, maxEventPayloadBytes,
                sequencePointBudgetBytes);
    }

    public BufferManagerConfig withBufferBytes(int newBaseBufferBytes, int newMaxBufferBytes) {
        return new BufferManagerConfig(limitBytes, newBaseBufferBytes, newMaxBufferBytes, maxEventPayloadBytes,
                sequencePointBudgetBytes);
    }

    public BufferManagerConfig withMaxEventPayloadBytes(int newMaxEventPayloadBytes) {
        return new BufferManagerConfig(limitBytes, baseBufferBytes, maxBufferBytes, newMaxEventPayloadBytes,
                sequencePointBudgetBytes);
    }

    public BufferManagerConfig withSequencePointBudgetBytes(long newSequencePointBudgetBytes) {
        return new BufferManagerConfig(limitBytes, baseBufferBytes, maxBufferBytes, maxEventPayloadBytes,
                newSequencePointBudgetBytes);
    }

    /**
     * The size of a writer's next buffer: {@code base × (buffersHeld + 1)}, at least the event, at
     * most {@code maxBufferBytes} (EventPipe rounds to a page as well; a byte array needs no pages).
     */
    int nextBufferBytes(int buffersHeld, int eventBytes) {
        long size = (long) baseBufferBytes * ((long) buffersHeld + 1);
        size = Math.min(size, maxBufferBytes);
        return (int) Math.max(size, eventBytes);
    }
}
