package io.spinlab.impl.buffer;

import java.util.Arrays;

/**
 * A point in the stream that carries every writer's sequence number: all events a writer
 * attempted up to {@link #sequenceNumber(int) its number} here were written (and are delivered
 * before this point) or dropped. The reader uses them to see drops that no later event reveals,
 * and a consumer can use them to bound how far back it must sort (EventPipe's sequence-point
 * blocks in the nettrace format).
 *
 * <p>Immutable. The manager creates one every {@link BufferManagerConfig#sequencePointBudgetBytes()}
 * bytes of buffer allocation and a last one when it stops.
 */
public final class SequencePoint {
    /*
     * Implementation notes.
     *
     * Invariants: the sequence numbers were read (acquire) before the timestamp was taken, and a
     * writer advances its sequence number only after taking its event's timestamp, so every
     * event numbered at most sequenceNumber(i) has a timestamp <= timestamp(). The reader emits
     * this point after every event with a timestamp <= timestamp(); what it then still has not
     * seen up to sequenceNumber(i) was dropped.
     */

    private final long timestamp;
    private final EventWriter[] writers;
    private final int[] sequenceNumbers;

    SequencePoint(long timestamp, EventWriter[] writers, int[] sequenceNumbers) {
        assert writers.length == sequenceNumbers.length;
        this.timestamp = timestamp;
        this.writers = writers;
        this.sequenceNumbers = sequenceNumbers;
    }

    /** The platform-clock time of this point. */
    public long timestamp() {
        return timestamp;
    }

    /** How many writers this point covers. */
    public int writerCount() {
        return writers.length;
    }

    /** The id of the {@code index}-th writer covered. */
    public int writerId(int index) {
        return writers[index].id();
    }

    /**
     * The {@code index}-th writer's last sequence number used at this point (−1 if none yet);
     * numbers wrap as 32-bit ints.
     */
    public int sequenceNumber(int index) {
        return sequenceNumbers[index];
    }

    EventWriter writer(int index) {
        return writers[index];
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("SequencePoint[t=").append(timestamp);
        for (int i = 0; i < writers.length; i++) {
            text.append(", w").append(writers[i].id()).append('=').append(sequenceNumbers[i]);
        }
        return text.append(']').toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SequencePoint that && timestamp == that.timestamp
                && Arrays.equals(writers, that.writers) && Arrays.equals(sequenceNumbers, that.sequenceNumbers);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timestamp) * 31 + Arrays.hashCode(sequenceNumbers);
    }
}
