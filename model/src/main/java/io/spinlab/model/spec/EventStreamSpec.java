package io.spinlab.model.spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The sequential specification of the event buffer manager's stream, for linearizability
 * checks: writers with per-writer sequence numbers, a maximum payload, stop, and a reader that
 * delivers every event written before it, in write order, with the drops its sequence numbers
 * reveal.
 *
 * <p>Deliberately outside the model: the global limit (which writes are dropped for lack of
 * buffer space depends on when the reader frees buffers, not on the order of operations) and
 * sequence points. Checks that use this spec configure a limit that is never reached.
 *
 * <p>The stream is text: {@code e<w>#<seq>} for an event, {@code d<w>#<first>+<count>} for a
 * gap, separated by spaces. Not thread-safe (a sequential model).
 */
public class EventStreamSpec {
    /** A write's outcome, named as the implementation's. */
    public static final String WRITTEN = "WRITTEN";
    public static final String DROPPED_OVERSIZED = "DROPPED_OVERSIZED";
    public static final String STOPPED = "STOPPED";

    private final int maxPayloadBytes;
    private final int[] nextSequence;
    private final int[] lastAccounted;
    private final List<int[]> unread = new ArrayList<>();
    private boolean stopped;

    /**
     * @param writers         writers 0 .. writers − 1, registered before anything else
     * @param maxPayloadBytes larger payloads are dropped as oversized
     */
    public EventStreamSpec(int writers, int maxPayloadBytes) {
        if (writers < 1) {
            throw new IllegalArgumentException("writers = " + writers + " is out of range; allowed 1 or more");
        }
        if (maxPayloadBytes < 0) {
            throw new IllegalArgumentException("maxPayloadBytes = " + maxPayloadBytes
                    + " is out of range; allowed 0 or more");
        }
        this.maxPayloadBytes = maxPayloadBytes;
        this.nextSequence = new int[writers];
        this.lastAccounted = new int[writers];
        Arrays.fill(lastAccounted, -1);
    }

    /** Writer {@code writer} writes a payload of {@code payloadBytes} bytes. */
    public String write(int writer, int payloadBytes) {
        Objects.checkIndex(writer, nextSequence.length);
        if (stopped) {
            return STOPPED;
        }
        int sequence = nextSequence[writer]++;
        if (payloadBytes > maxPayloadBytes) {
            return DROPPED_OVERSIZED;
        }
        unread.add(new int[] {writer, sequence});
        return WRITTEN;
    }

    /** Later writes return {@link #STOPPED}. */
    public void stop() {
        stopped = true;
    }

    /** Every event not yet read, in write order, each after the gap that precedes it, if any. */
    public String read() {
        StringBuilder stream = new StringBuilder();
        for (int[] event : unread) {
            int writer = event[0];
            int sequence = event[1];
            int gap = sequence - (lastAccounted[writer] + 1);
            if (gap > 0) {
                stream.append('d').append(writer).append('#').append(lastAccounted[writer] + 1).append('+')
                        .append(gap).append(' ');
            }
            lastAccounted[writer] = sequence;
            stream.append('e').append(writer).append('#').append(sequence).append(' ');
        }
        unread.clear();
        return stream.toString().strip();
    }
}
