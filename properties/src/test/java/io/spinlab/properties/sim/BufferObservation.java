package io.spinlab.properties.sim;

import java.util.BitSet;
import java.util.List;

/**
 * What the threads of a {@link BufferWorld} run saw: the facts; {@link NoEventLostProperties}
 * judges them.
 *
 * @param outcomes          per writer, per attempt: what its write returned ({@link #WRITTEN} ...)
 * @param readOrder         per writer: the sequence numbers the reader was given, in delivery order
 * @param gaps              per writer: the sequence numbers the reader was told were dropped
 * @param streamProblems    what the reader saw wrong as it read: payloads, timestamp order, a drop
 *                          reported twice
 * @param eventsRead        the reader's own count of events delivered
 * @param dropsSeen         the reader's own count of dropped events reported
 * @param reservationFailures the manager's count of events dropped at the limit
 * @param oversizedDrops    the manager's count of oversized events dropped
 * @param bytesInUse        buffer bytes still reserved after the drain
 * @param highWaterBytes    the most buffer bytes ever reserved at once
 * @param lockAcquisitions  acquisitions of the manager's lock
 * @param dropPathLockAcquisitions acquisitions by writers whose reservation then failed
 */
public record BufferObservation(int[][] outcomes, int[][] readOrder, BitSet[] gaps, List<String> streamProblems,
                                long eventsRead, long dropsSeen, long reservationFailures, long oversizedDrops,
                                long bytesInUse, long highWaterBytes, long lockAcquisitions,
                                long dropPathLockAcquisitions) {

    /** What a write returned ({@code WriteOutcome}, whose guest copy is another class). */
    public static final int WRITTEN = 0;
    public static final int DROPPED = 1;
    public static final int DROPPED_OVERSIZED = 2;
    public static final int STOPPED = 3;

    /** The outcome's name, for reports. */
    public static String outcomeName(int outcome) {
        return switch (outcome) {
            case WRITTEN -> "WRITTEN";
            case DROPPED -> "DROPPED";
            case DROPPED_OVERSIZED -> "DROPPED_OVERSIZED";
            case STOPPED -> "STOPPED";
            default -> "unknown outcome " + outcome;
        };
    }
}
