package io.spinlab.impl.buffer;

import io.spinlab.model.platform.Platform;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The reader of an {@link EventBufferManager}: drains all writers' buffers while they write
 * (EventPipe's {@code buffer_manager_move_next_event_any_thread} and the V4 file flush).
 *
 * <p>Each {@link #read} is one pass. It takes a bound from the platform clock and delivers to
 * the consumer every event whose timestamp is below it — every event whose write began before
 * the pass — in timestamp order across writers (ties: lower writer id first), each writer's in
 * sequence order. Events of later writes wait for a later pass, so the whole stream is in
 * timestamp order. Between events come drops (from gaps in a writer's sequence numbers) and
 * sequence points, each after the events it covers. Buffers read to the end are freed and their
 * bytes released. After {@link EventBufferManager#stop()}, passes deliver what is left, the last
 * sequence point reveals trailing drops, and then {@link #isDrained()} turns true.
 *
 * <p>A buffer is read only after its writer has left it: a pass takes away (detaches) a write
 * buffer that holds events older than the pass, and the writer starts a new one on its next
 * write. A pass waits for the writes in progress that began before it, all writers at once, and
 * never for a later one. Threading: one thread at a time, not reentrant from the consumer.
 * Progress: blocking (a write in progress that is preempted delays the pass).
 */
public final class EventReader {
    /*
     * Implementation notes.
     *
     * Invariants:
     *   - After stabilize(writers, bound): every write with timestamp < bound has ended and every
     *     buffer holding such an event is detached. Writes that begin later get timestamps
     *     >= bound. A detached buffer may still receive the event of the one write that was in
     *     progress when it was detached (timestamp >= bound); the cursor calls it final, and
     *     frees it, only once that write has ended (its epoch changed).
     *   - A cursor reads its writer's buffers oldest first; the exhausted ones form a prefix of
     *     the list (lastFreed is its end) and are unlinked, and their bytes released, at the end
     *     of the pass. A buffer whose first timestamp is >= bound is never looked into.
     *   - lastSequence is the last sequence number accounted for (read, or reported dropped).
     *
     * Linearization points: a pass at its clock read (bound), taken under the manager lock so
     * that every sequence point older than it is already queued and every later one is newer.
     *
     * Memory ordering: stabilize uses the epoch handshake described in EventWriter (CAS the write
     * buffer to null, then read the epoch). The list's head and next links are volatile; the
     * event bytes are plain, published by the buffer's position (release/acquire). This relies on
     * the platform clock read being ordered with the volatile accesses around it, as in the
     * simulator; on hardware the manager-lock fences around the bound keep it so in practice.
     *
     * Spin/wait policy: waits for a write in progress with SpinWait (the epoch to change, so a
     * writer writing back to back cannot starve the pass), for all writers in one sweep: a pass
     * waits for its slowest writer, not for the sum of them; blocks between passes on a
     * ManualResetEvent that writers set when they fill a buffer (EventPipe's rt_wait_event).
     *
     * Why not simpler: reading a writer's live buffer up to a published position would avoid the
     * hand-over, but then a pass could not promise "every write that began before me", which is
     * what makes the stream globally ordered and sequence points exact.
     */

    /** No event readable in this pass; real timestamps are below the bound, hence below this. */
    private static final long NONE = Long.MAX_VALUE;

    private final EventBufferManager manager;
    private final ManagerLock lock;
    private final Platform platform;
    private final EventView view = new EventView();
    private final ArrayDeque<SequencePoint> points = new ArrayDeque<>();
    private Cursor[] cursors = new Cursor[0];
    private long[] nextTimestamps = new long[0];
    private int[] epochs = new int[0];
    private boolean inPass;
    private boolean drained;
    private long eventsRead;
    private long dropsSeen;
    private long passes;

    EventReader(EventBufferManager manager) {
        this.manager = manager;
        this.lock = manager.lock();
        this.platform = manager.platform();
    }

    /**
     * One pass: delivers every event written before it began, with drops and sequence points,
     * and frees the buffers read.
     *
     * @return the number of events delivered
     * @throws IllegalStateException if called from the consumer of a pass in progress
     */
    public int read(EventConsumer consumer) {
        Objects.requireNonNull(consumer, "consumer");
        if (inPass) {
            throw new IllegalStateException("EventReader.read called from its own consumer");
        }
        inPass = true;
        try {
            return pass(consumer);
        } finally {
            inPass = false;
        }
    }

    /**
     * Waits until a writer fills a buffer, the manager stops, or the timeout passes; returns at
     * once once the manager is stopped. Either way a {@link #read} is what tells if data is there.
     *
     * @return false if the timeout passed without a wake-up
     */
    public boolean awaitData(long timeout, TimeUnit unit) throws InterruptedException {
        if (manager.isStopped()) {
            return true;
        }
        boolean woken = manager.readerWakeup().await(timeout, unit);
        manager.readerWakeup().reset();
        return woken;
    }

    /** True once the manager has stopped and everything it held has been delivered. */
    public boolean isDrained() {
        return drained;
    }

    /** Events delivered so far. */
    public long eventsRead() {
        return eventsRead;
    }

    /** Dropped events reported so far (sequence gaps). */
    public long dropsSeen() {
        return dropsSeen;
    }

    /** Passes made so far. */
    public long passes() {
        return passes;
    }

    private int pass(EventConsumer consumer) {
        long bound;
        EventWriter[] writers;
        boolean stopped;
        lock.enter();
        try {
            // LP: the bound; a write belongs to this pass iff its timestamp is below it.
            bound = platform.nanoTime();
            writers = manager.writersLocked();
            stopped = manager.isStoppedLocked();
            manager.takeSequencePointsLocked(bound, points);
        } finally {
            lock.exit();
        }
        passes++;
        prepare(writers);
        int delivered = 0;
        try {
            stabilize(writers, bound);
            for (int i = 0; i < writers.length; i++) {
                nextTimestamps[i] = peek(cursors[i], bound);
            }
            delivered = merge(writers.length, bound, consumer);
        } finally {
            finish(writers, stopped, consumer);
        }
        return delivered;
    }

    private void prepare(EventWriter[] writers) {
        if (cursors.length < writers.length) {
            cursors = new Cursor[writers.length];
            nextTimestamps = new long[writers.length];
            epochs = new int[writers.length];
        }
        for (int i = 0; i < writers.length; i++) {
            cursors[i] = cursorOf(writers[i]);
        }
    }

    private static Cursor cursorOf(EventWriter writer) {
        Cursor cursor = writer.cursor;
        if (cursor == null) {
            cursor = new Cursor(writer);
            writer.cursor = cursor;
        }
        return cursor;
    }

    /**
     * Makes every event older than {@code bound} final and every buffer holding one read-only.
     * Waits for the writes in progress, all writers at once, so a pass waits for the slowest of
     * them, not their sum.
     */
    private void stabilize(EventWriter[] writers, long bound) {
        // 1. Every write that began before the bound ends. Writes that begin after the epoch read
        //    below see whatever came before it, and take timestamps >= bound.
        for (int i = 0; i < writers.length; i++) {
            epochs[i] = writers[i].epochVolatile();
        }
        for (int i = 0; i < writers.length; i++) {
            manager.awaitEpochChange(writers[i], epochs[i]);
        }
        // 2. Detach write buffers that hold such events: read-only from now on, except for the
        //    write in progress, if any (its event is >= bound), which the cursor waits out before
        //    calling the buffer final.
        for (int i = 0; i < writers.length; i++) {
            EventWriter writer = writers[i];
            EventBuffer current = writer.writeBufferVolatile();
            if (current != null && current.firstTimestamp < bound) {
                // LP of the conversion to read-only. If it fails the writer has left the buffer.
                writer.casWriteBufferToNull(current);
                Cursor cursor = cursors[i];
                cursor.detached = current;
                cursor.detachEpoch = writer.epochVolatile();
            }
        }
    }

    /** The timestamp of the cursor's next event in this pass, or NONE; steps over exhausted buffers. */
    private static long peek(Cursor cursor, long bound) {
        for (;;) {
            EventBuffer buffer = cursor.buffer;
            if (buffer == null) {
                buffer = cursor.lastFreed != null ? cursor.lastFreed.next : cursor.writer.head;
                if (buffer == null || buffer.firstTimestamp >= bound) {
                    return NONE;
                }
                cursor.buffer = buffer;
                cursor.readOffset = 0;
            }
            if (cursor.readOffset < buffer.positionAcquire()) {
                long timestamp = buffer.timestampAt(cursor.readOffset);
                return timestamp < bound ? timestamp : NONE;
            }
            // Read to the end. It is detached (its first event is older than the bound); it is
            // final unless the write that was in progress when it was detached is still going.
            if (buffer == cursor.detached) {
                if (cursor.writer.epochVolatile() == cursor.detachEpoch && (cursor.detachEpoch & 1) != 0) {
                    return NONE;
                }
                cursor.detached = null;
                if (cursor.readOffset < buffer.positionAcquire()) {
                    continue;
                }
            }
            cursor.lastFreed = buffer;
            cursor.freedCount++;
            cursor.freedBytes += buffer.capacity();
            cursor.buffer = null;
        }
    }

    private int merge(int writerCount, long bound, EventConsumer consumer) {
        int delivered = 0;
        for (;;) {
            int best = -1;
            long bestTimestamp = NONE;
            for (int i = 0; i < writerCount; i++) {
                if (nextTimestamps[i] < bestTimestamp) {
                    best = i;
                    bestTimestamp = nextTimestamps[i];
                }
            }
            if (best < 0) {
                break;
            }
            while (!points.isEmpty() && points.peekFirst().timestamp() < bestTimestamp) {
                emit(points.pollFirst(), consumer);
            }
            Cursor cursor = cursors[best];
            deliver(cursor, consumer);
            delivered++;
            nextTimestamps[best] = peek(cursor, bound);
        }
        while (!points.isEmpty()) {
            emit(points.pollFirst(), consumer);
        }
        return delivered;
    }

    private void deliver(Cursor cursor, EventConsumer consumer) {
        EventBuffer buffer = cursor.buffer;
        int offset = cursor.readOffset;
        int sequence = buffer.sequenceAt(offset);
        cursor.readOffset = offset + EventBuffer.HEADER_BYTES + buffer.payloadLengthAt(offset);
        eventsRead++;
        int expected = cursor.lastSequence + 1;
        cursor.lastSequence = sequence;
        int gap = sequence - expected;
        assert gap >= 0 : "writer " + cursor.writer.id() + ": event " + sequence + " after " + (expected - 1);
        if (gap > 0) {
            dropsSeen += gap;
            consumer.onDropped(cursor.writer.id(), expected, gap);
        }
        view.show(cursor.writer.id(), buffer, offset);
        try {
            consumer.onEvent(view);
        } finally {
            view.clear();
        }
    }

    private void emit(SequencePoint point, EventConsumer consumer) {
        for (int i = 0; i < point.writerCount(); i++) {
            reportDropsUpTo(cursorOf(point.writer(i)), point.sequenceNumber(i), consumer);
        }
        consumer.onSequencePoint(point);
    }

    private void reportDropsUpTo(Cursor cursor, int lastSequence, EventConsumer consumer) {
        int gap = lastSequence - cursor.lastSequence;
        if (gap > 0) {
            int first = cursor.lastSequence + 1;
            cursor.lastSequence = lastSequence;
            dropsSeen += gap;
            consumer.onDropped(cursor.writer.id(), first, gap);
        }
    }

    /** Unlinks and releases what was read, retires closed writers that are done, notes the end. */
    private void finish(EventWriter[] writers, boolean stoppedAtStart, EventConsumer consumer) {
        long releasedBytes = 0;
        EventWriter[] retired = null;
        int retiredCount = 0;
        boolean empty = true;
        lock.enter();
        try {
            for (int i = 0; i < writers.length; i++) {
                Cursor cursor = cursors[i];
                EventWriter writer = writers[i];
                if (cursor.freedCount > 0) {
                    writer.unlinkHeadLocked(cursor.lastFreed, cursor.freedCount);
                    releasedBytes += cursor.freedBytes;
                    cursor.lastFreed = null;
                    cursor.freedCount = 0;
                    cursor.freedBytes = 0;
                }
                if (writer.head != null) {
                    empty = false;
                } else if (writer.isClosed()) {
                    if (retired == null) {
                        retired = new EventWriter[writers.length];
                    }
                    retired[retiredCount++] = writer;
                    manager.retireLocked(writer);
                }
            }
            drained = stoppedAtStart && empty && points.isEmpty() && !manager.hasSequencePointsLocked();
        } finally {
            lock.exit();
        }
        if (releasedBytes > 0) {
            manager.reservation().release(releasedBytes);
        }
        Arrays.fill(cursors, 0, writers.length, null);
        for (int i = 0; i < retiredCount; i++) {
            // Closed: its sequence number is final, and the closed read ordered it.
            reportDropsUpTo(cursorOf(retired[i]), retired[i].nextSequenceNumber() - 1, consumer);
        }
    }

    @Override
    public String toString() {
        return "EventReader[passes=" + passes + ", read=" + eventsRead + ", drops=" + dropsSeen
                + (drained ? ", drained" : "") + "]";
    }

    /** The reader's place in one writer's buffers; reader thread only. */
    static final class Cursor {
        final EventWriter writer;
        /** The buffer being read; null: start from lastFreed.next, or the list head. */
        EventBuffer buffer;
        int readOffset;
        int lastSequence = -1;
        /** The buffer this reader detached last, until known final; and the epoch right after. */
        EventBuffer detached;
        int detachEpoch;
        /** The newest buffer read to the end in this pass, not yet unlinked. */
        EventBuffer lastFreed;
        int freedCount;
        long freedBytes;

        Cursor(EventWriter writer) {
            this.writer = writer;
        }
    }
}
