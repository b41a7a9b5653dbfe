package io.spinlab.sim.trace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A SHA-256 digest over every scheduling event of a run, in a canonical encoding: two runs
 * have the same digest exactly when they made the same scheduling decisions at the same
 * virtual times. This is the simulator's determinism fact; tests and properties compare it.
 *
 * <p>Each event is 32 bytes, little-endian: virtual time in picoseconds (8), event kind (4),
 * thread index (4), and two kind-specific operands (8 + 8). Thread indices are the order of
 * thread creation; nothing identity-based or host-dependent enters the encoding.
 *
 * <p>Not thread-safe; one per run.
 */
public final class EventLogDigest {
    /*
     * Implementation notes
     *
     * Events are packed into a 8 KiB buffer with a VarHandle byte-array view and handed to
     * MessageDigest one buffer at a time: one update call per 256 events keeps the digest at
     * a few nanoseconds per event.
     */

    /** Bytes per event. */
    public static final int RECORD_BYTES = 32;
    private static final int BUFFER_BYTES = 8192;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final MessageDigest sha256;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int position;
    private long events;
    private String hex;

    public EventLogDigest() {
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** Adds one event. */
    public void record(long timePicos, int kind, int thread, long a, long b) {
        if (hex != null) {
            throw new IllegalStateException("digest already finished");
        }
        if (position == BUFFER_BYTES) {
            sha256.update(buffer, 0, position);
            position = 0;
        }
        byte[] buf = buffer;
        int p = position;
        LONGS.set(buf, p, timePicos);
        INTS.set(buf, p + 8, kind);
        INTS.set(buf, p + 12, thread);
        LONGS.set(buf, p + 16, a);
        LONGS.set(buf, p + 24, b);
        position = p + RECORD_BYTES;
        events++;
    }

    /** Events recorded so far. */
    public long events() {
        return events;
    }

    /** Finishes the digest (idempotent) and returns it as 64 lower-case hex digits. */
    public String hex() {
        if (hex == null) {
            sha256.update(buffer, 0, position);
            position = 0;
            hex = HexFormat.of().formatHex(sha256.digest());
        }
        return hex;
    }
}
