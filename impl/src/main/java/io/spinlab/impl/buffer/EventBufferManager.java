package io.spinlab.impl.buffer;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.ReservationPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;

/**
 * Many writers, one reader, a global limit on buffer memory: EventPipe's buffer manager
 * ({@code ep-buffer-manager.c}, .NET 5+).
 *
 * <p>Each writer ({@link #newWriter()}) appends events — a byte payload, a timestamp from the
 * platform clock, its sequence number — to its own current buffer with a bump pointer. When
 * that buffer is full it reserves a new one of 100 KB × (its buffers + 1), at most 1 MB, against
 * the manager's limit on the bytes of all buffers, then allocates, zeroes and links it (with
 * sequence-point bookkeeping) holding the manager's spin lock, as EventPipe did up to .NET 6
 * (dotnet/runtime #67936 moved the allocation out in .NET 7). If no buffer can be
 * had the event is dropped: counted, its sequence number consumed so the reader sees the gap.
 * Events above 64 KB are dropped and counted separately. (Sizes: {@link BufferManagerConfig}.)
 *
 * <p>How the reservation is made is the {@code reservation} knob: {@code lockless} (current,
 * dotnet/runtime #50797) CASes the total outside the lock, so a writer whose reservation fails
 * never takes the lock; {@code under-lock} (before) takes the lock to compare and add, so once
 * the limit is reached every writer queues on the lock only to fail — a lock caravan. The
 * {@link #diagnostics()} count both kinds of acquisition.
 *
 * <p>The {@link #reader()} drains concurrently (one thread at a time): each pass delivers every
 * event written before it began, in timestamp order across writers, with drops and sequence
 * points, and frees what it read. After {@link #stop()} writes fail fast ({@link WriteOutcome#STOPPED})
 * and every event written before is readable.
 *
 * <p>Progress: see {@link EventWriter} (appends are wait-free; a new buffer takes the lock,
 * and with {@code under-lock} so does a failing reservation) and {@link EventReader} (blocking:
 * a pass waits for the writes in progress that began before it).
 */
public final class EventBufferManager {
    /*
     * Implementation notes.
     *
     * Invariants:
     *   - bytes in use (the reservation's total) = the sum of the capacities of all buffers linked
     *     and not yet freed, plus those reserved by writers between reservation and link; it never
     *     exceeds config.limitBytes (each strategy keeps that; a buffer is freed only after its
     *     reservation is released, and released only once).
     *   - state goes RUNNING -> STOPPING -> STOPPED, never back. Once STOPPED no write is in
     *     progress that could still succeed, and the last sequence point is queued.
     *   - Under the lock: writers (copy-on-write, readable without the lock), the sequence-point
     *     queue and budget, every writer's buffer-list links.
     *
     * Linearization points: stop() at its state CAS to STOPPING; a write at its clock read
     * (EventWriter); a reader pass at its clock read, taken under the lock (EventReader).
     *
     * Memory ordering: state is volatile and read by every write after its fenced epoch store
     * (Dekker with stop(), see EventWriter). The lock orders the list, the writer array and the
     * sequence points; counters are opaque.
     *
     * Spin/wait policy: stop() waits for each write in progress with SpinWait; the lock is
     * CoreCLR's native spin lock (EventPipe's rt_lock, see ManagerLock), held for a few stores, or,
     * when a writer links a new buffer, for its allocation and zeroing too.
     *
     * Why the allocation is under the lock: in every generation spinlab models (up to net6) the
     * buffer was allocated and zeroed inside rt_lock: dotnet/coreclr src/vm/eventpipebuffermanager.cpp
     * @ a1b757c7 (new BYTE[] and memset under SpinLockHolder), dotnet/runtime
     * src/native/eventpipe/ep-buffer-manager.c before #67936 (ep_buffer_alloc, ep_rt_valloc0, inside
     * EP_SPIN_LOCK_ENTER; read at criteo-forks/runtime @ 672b0e52, which already has #50797's
     * lockless reservation). Issue #65247 measured ~0.1 ms holds from it and a convoy; #67936 (2022,
     * .NET 7) moved the allocation before the lock. The first event is appended under the lock too,
     * so that a linked buffer is never empty (the reader relies on it); that adds one small copy.
     *
     * Why not simpler: a lock around every write (or per-writer locks, as older EventPipe) would
     * serialize writers or cost two atomics per event; the epoch handshake costs one fenced store
     * and lets the reader take a buffer away from its writer safely.
     */

    static final int RUNNING = 0;
    static final int STOPPING = 1;
    static final int STOPPED = 2;

    private final SpinContext context;
    private final Platform platform;
    private final BufferManagerConfig config;
    private final ManagerLock lock;
    private final BufferReservation reservation;
    private final ManualResetEvent readerWakeup;
    private final EventReader reader;

    private volatile int state;
    /** Copy-on-write, replaced under the lock; in registration (id) order. */
    private volatile EventWriter[] writers = new EventWriter[0];

    // Under the lock (the counters written opaque, for diagnostics()).
    private int nextWriterId;
    private long remainingSequencePointBudget;
    private final ArrayDeque<SequencePoint> sequencePoints = new ArrayDeque<>();
    private long buffersAllocated;
    private long sequencePointsCreated;
    private long retiredReservationFailures;
    private long retiredOversizedDrops;

    /**
     * @param context the platform (clock, waits) and the tuning whose {@code reservation} knob
     *                picks the reservation strategy
     * @param config  the sizes, already validated
     */
    public EventBufferManager(SpinContext context, BufferManagerConfig config) {
        this.context = Objects.requireNonNull(context, "context");
        this.config = Objects.requireNonNull(config, "config");
        this.platform = context.platform();
        this.lock = new ManagerLock(context);
        this.reservation = BufferReservation.of(context.tuning().reservation(), config.limitBytes(), lock, platform);
        this.readerWakeup = new ManualResetEvent(context);
        this.remainingSequencePointBudget = config.sequencePointBudgetBytes();
        this.reader = new EventReader(this);
    }

    public BufferManagerConfig config() {
        return config;
    }

    /** The reservation policy in use. */
    public ReservationPolicy reservationPolicy() {
        return context.tuning().reservation();
    }

    /** Registers a new writer; its id is the next in 0, 1, 2, … Writers registered after stop() only get STOPPED. */
    public EventWriter newWriter() {
        lock.enter();
        try {
            EventWriter writer = new EventWriter(this, nextWriterId++, platform, config.maxEventPayloadBytes());
            EventWriter[] current = writers;
            EventWriter[] grown = Arrays.copyOf(current, current.length + 1);
            grown[current.length] = writer;
            writers = grown;
            return writer;
        } finally {
            lock.exit();
        }
    }

    /** The one reader of this manager; use it from one thread at a time. */
    public EventReader reader() {
        return reader;
    }

    /**
     * Stops writing (EventPipe's suspend-write): writes that begin afterwards return
     * {@link WriteOutcome#STOPPED}; writes in progress finish first, so when this returns every
     * event that was or will be reported {@link WriteOutcome#WRITTEN} is in a buffer, and a last
     * sequence point carries every writer's final sequence number. Wakes the reader. Idempotent;
     * a concurrent second call returns once the first is done.
     */
    public void stop() {
        // LP: the CAS to STOPPING; every write whose state read comes later returns STOPPED.
        if (!STATE.compareAndSet(this, RUNNING, STOPPING)) {
            SpinWait spinner = new SpinWait(context);
            while (state != STOPPED) {
                spinner.spinOnce();
            }
            return;
        }
        for (EventWriter writer : writers) {
            awaitWriteInProgress(writer);
        }
        lock.enter();
        try {
            addSequencePointLocked();
            STATE.setRelease(this, STOPPED); // .NET: a VolatileStore, a release
        } finally {
            lock.exit();
        }
        readerWakeup.set();
    }

    /** True once {@link #stop()} has begun. */
    public boolean isStopped() {
        return state != RUNNING;
    }

    /**
     * The counters; see {@link BufferManagerDiagnostics}. Takes no lock (so it does not show up in
     * the lock counters): while writers run, each value is recent but they are not one snapshot,
     * and a writer retired meanwhile may be counted twice.
     */
    public BufferManagerDiagnostics diagnostics() {
        EventWriter[] snapshot = writers;
        long failures = (long) RETIRED_RESERVATION_FAILURES.getOpaque(this);
        long oversized = (long) RETIRED_OVERSIZED_DROPS.getOpaque(this);
        for (EventWriter writer : snapshot) {
            failures += writer.reservationFailuresOpaque();
            oversized += writer.oversizedDropsOpaque();
        }
        return new BufferManagerDiagnostics(lock.acquisitions(), lock.dropPathAcquisitions(), failures, oversized,
                reservation.bytesInUse(), reservation.highWaterBytes(), (long) BUFFERS_ALLOCATED.getOpaque(this),
                (long) SEQUENCE_POINTS_CREATED.getOpaque(this), snapshot.length);
    }

    @Override
    public String toString() {
        return "EventBufferManager[" + reservation + ", writers=" + writers.length + ", "
                + switch (state) {
                    case RUNNING -> "running";
                    case STOPPING -> "stopping";
                    default -> "stopped";
                } + "]";
    }

    // Writer side (package-private)

    boolean isStopping() {
        return state != RUNNING;
    }

    BufferReservation reservation() {
        return reservation;
    }

    /** Wakes a reader waiting in {@link EventReader#awaitData}; a read when it is already awake. */
    void signalReader() {
        if (!readerWakeup.isSet()) {
            readerWakeup.set();
        }
    }

    /**
     * A writer's new buffer of {@code bytes}, already reserved: allocated and zeroed, stamped with
     * its first event, counted against the sequence-point budget and linked, all in one hold of the
     * lock, the only hold a successful write takes. Returns null, having linked nothing, if stop()
     * began before the clock read; the caller then releases the reservation (outside the lock).
     */
    EventBuffer allocateAndLink(EventWriter writer, int bytes, int sequence, byte[] payload, int offset,
            int length) {
        lock.enter();
        try {
            // Under the lock: ep_buffer_alloc (valloc0, zeroed) ran inside rt_lock until dotnet/runtime
            // #67936 (.NET 7), later than every generation spinlab models.
            byte[] memory = new byte[bytes];
            // LP (WRITTEN): the clock read.
            long timestamp = platform.nanoTime();
            if (state != RUNNING) {
                return null;
            }
            EventBuffer fresh = new EventBuffer(memory, timestamp);
            fresh.append(timestamp, sequence, payload, offset, length);
            if (bytes >= remainingSequencePointBudget) {
                addSequencePointLocked();
                remainingSequencePointBudget = config.sequencePointBudgetBytes();
            } else {
                remainingSequencePointBudget -= bytes;
            }
            writer.linkLocked(fresh);
            BUFFERS_ALLOCATED.setOpaque(this, buffersAllocated + 1);
            return fresh;
        } finally {
            lock.exit();
        }
    }

    private void addSequencePointLocked() {
        EventWriter[] snapshot = writers;
        int[] numbers = new int[snapshot.length];
        for (int i = 0; i < snapshot.length; i++) {
            numbers[i] = snapshot[i].lastSequenceNumberAcquire();
        }
        // The timestamp after the numbers: every event they cover is older (see SequencePoint).
        sequencePoints.addLast(new SequencePoint(platform.nanoTime(), snapshot, numbers));
        SEQUENCE_POINTS_CREATED.setOpaque(this, sequencePointsCreated + 1);
    }

    // Reader side (package-private)

    Platform platform() {
        return platform;
    }

    ManagerLock lock() {
        return lock;
    }

    ManualResetEvent readerWakeup() {
        return readerWakeup;
    }

    /** Lock held. */
    boolean isStoppedLocked() {
        assert lock.isHeld();
        return state == STOPPED;
    }

    /** Lock held. */
    EventWriter[] writersLocked() {
        return writers;
    }

    /** Moves the sequence points older than {@code bound} to {@code into}, oldest first. Lock held. */
    void takeSequencePointsLocked(long bound, ArrayDeque<SequencePoint> into) {
        while (!sequencePoints.isEmpty() && sequencePoints.peekFirst().timestamp() < bound) {
            into.addLast(sequencePoints.pollFirst());
        }
    }

    /** True if sequence points are queued. Lock held. */
    boolean hasSequencePointsLocked() {
        return !sequencePoints.isEmpty();
    }

    /** Forgets a closed, fully read writer, keeping its counts. Lock held. */
    void retireLocked(EventWriter writer) {
        EventWriter[] current = writers;
        EventWriter[] shrunk = new EventWriter[current.length - 1];
        int j = 0;
        for (EventWriter w : current) {
            if (w != writer) {
                shrunk[j++] = w;
            }
        }
        assert j == shrunk.length : "retiring a writer that is not registered";
        WRITERS.setRelease(this, shrunk); // .NET: a plain list update under the lock
        RETIRED_RESERVATION_FAILURES.setOpaque(this, retiredReservationFailures + writer.reservationFailuresOpaque());
        RETIRED_OVERSIZED_DROPS.setOpaque(this, retiredOversizedDrops + writer.oversizedDropsOpaque());
    }

    /**
     * Waits until the write {@code writer} has in progress now, if any, has ended. Writes that
     * begin later see whatever the caller stored before calling (Dekker, see EventWriter).
     */
    void awaitWriteInProgress(EventWriter writer) {
        awaitEpochChange(writer, writer.epochVolatile());
    }

    /**
     * If {@code epoch}, read earlier from {@code writer}, is odd (a write in progress), waits until
     * the writer's epoch differs from it: that write has ended. Never waits for a later write.
     */
    void awaitEpochChange(EventWriter writer, int epoch) {
        if ((epoch & 1) == 0) {
            return;
        }
        SpinWait spinner = new SpinWait(context);
        while (writer.epochVolatile() == epoch) {
            spinner.spinOnce();
        }
    }

    // VarHandle mechanics
    private static final VarHandle STATE;
    private static final VarHandle BUFFERS_ALLOCATED;
    private static final VarHandle SEQUENCE_POINTS_CREATED;
    private static final VarHandle RETIRED_RESERVATION_FAILURES;
    private static final VarHandle RETIRED_OVERSIZED_DROPS;
    private static final VarHandle WRITERS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(EventBufferManager.class, "state", int.class);
            BUFFERS_ALLOCATED = lookup.findVarHandle(EventBufferManager.class, "buffersAllocated", long.class);
            SEQUENCE_POINTS_CREATED = lookup.findVarHandle(EventBufferManager.class, "sequencePointsCreated",
                    long.class);
            RETIRED_RESERVATION_FAILURES = lookup.findVarHandle(EventBufferManager.class,
                    "retiredReservationFailures", long.class);
            RETIRED_OVERSIZED_DROPS = lookup.findVarHandle(EventBufferManager.class, "retiredOversizedDrops",
                    long.class);
            WRITERS = lookup.findVarHandle(EventBufferManager.class, "writers", EventWriter[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
