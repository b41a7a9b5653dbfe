package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * The thread pool's global queue before dotnet/coreclr #9234: a linked list of 256-slot
 * segments, each with its enqueue and dequeue indices packed 16/16 into one int that both
 * producers and consumers update by CAS. Kept so that the {@code global-queue=queue-segment}
 * knob can measure what the change to {@link ConcurrentQueue} gained.
 *
 * <p>Progress: {@link #offer} is lock-free; {@link #poll} may wait for a producer that has
 * reserved a slot and not yet written it (it spins with a {@link SpinWait}). Segments are
 * used once: a drained segment is dropped, never reused, so every 256 elements allocate a
 * segment. {@link #offer}, {@link #poll} and {@link #isEmpty} are linearizable; {@link #size}
 * is an estimate (it adds segments read at different moments).
 *
 * @param <E> the element type
 */
public final class QueueSegmentQueue<E> implements ConcurrentFifo<E> {
    /*
     * Implementation notes (referencesource threadpool.cs, ThreadPoolWorkQueue.QueueSegment).
     *
     * .NET names the segment that receives enqueues `queueHead` and the one drained by
     * dequeues `queueTail`; here they are enqueueSegment and dequeueSegment.
     *
     * Segment state word `indexes`:
     *   bits 16..31  upper: next slot to enqueue (0..256)
     *   bits 0..15   lower: next slot to dequeue (0..upper)
     *
     * Invariants: lower <= upper <= LENGTH; a slot below upper has been reserved by a
     * producer and holds its item once written; a slot below lower has been taken (and nulled)
     * by a consumer. A segment with upper == LENGTH is full and gets a successor, linked by
     * CAS on `next`; enqueueSegment and dequeueSegment only move forward, by CAS.
     *
     * Linearization points: offer at the CAS that raises upper; poll at the CAS that raises
     * lower, or (empty) at the read of indexes that shows lower == upper on a segment that is
     * not full (such a segment is the last one: producers only move on from a full segment),
     * or on a full one with no successor.
     *
     * Memory ordering: the item is written with a release store after the reserving CAS and
     * read with acquire loads (spinning while null) after the taking CAS.
     *
     * Why not simpler: this is the legacy design, kept as it was; ConcurrentQueue is the
     * better one (per-slot sequence numbers instead of one contended word, reusable segments).
     */

    /** Slots per segment ({@code QueueSegmentLength}). */
    public static final int SEGMENT_LENGTH = 256;
    /** Longest segment the 16-bit indices can describe. */
    public static final int MAX_SEGMENT_LENGTH = 0x8000;
    static final int SIXTEEN_BITS = 0xFFFF;
    static final int UPPER_SHIFT = 16;

    private final SpinContext context;
    private final int segmentLength;
    private volatile Segment enqueueSegment;
    private volatile Segment dequeueSegment;

    /** A queue for real hardware with the current tuning. */
    public QueueSegmentQueue() {
        this(SpinContext.hardware());
    }


    /** A queue whose spinning goes through {@code context}. */
    public QueueSegmentQueue(SpinContext context) {
        this(context, SEGMENT_LENGTH);
    }

    /**
     * A queue with {@code segmentLength} slots per segment (.NET: always 256). Short segments
     * make tests and model checkers reach segment changes quickly.
     *
     * @param segmentLength 2..{@value #MAX_SEGMENT_LENGTH}
     */
    public QueueSegmentQueue(SpinContext context, int segmentLength) {
        if (segmentLength < 2 || segmentLength > MAX_SEGMENT_LENGTH) {
            throw new IllegalArgumentException("segmentLength = " + segmentLength + " is out of range; allowed 2.."
                    + MAX_SEGMENT_LENGTH);
        }
        this.context = Objects.requireNonNull(context, "context");
        this.segmentLength = segmentLength;
        Segment first = new Segment(segmentLength);
        this.enqueueSegment = first;
        this.dequeueSegment = first;
    }

    static int upper(int indexes) {
        return (indexes >>> UPPER_SHIFT) & SIXTEEN_BITS;
    }

    static int lower(int indexes) {
        return indexes & SIXTEEN_BITS;
    }

    static int pack(int upper, int lower) {
        return (upper << UPPER_SHIFT) | lower;
    }

    /**
     * Appends {@code element}. Never fails.
     *
     * @return true
     * @throws NullPointerException if {@code element} is null
     */
    @Override
    public boolean offer(E element) {
        Objects.requireNonNull(element, "element");
        Segment s = enqueueSegment;
        while (!s.tryEnqueue(element)) {
            Segment.NEXT.compareAndSet(s, null, new Segment(segmentLength));
            while (s.next != null) {
                ENQUEUE_SEGMENT.compareAndSet(this, s, s.next);
                s = enqueueSegment;
            }
        }
        return true;
    }

    /** Removes and returns the oldest element, or null if the queue is empty. */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        Segment s = dequeueSegment;
        for (;;) {
            Object item = s.tryDequeue(context);
            if (item != null) {
                return (E) item;
            }
            if (s.next == null || !s.isUsedUp()) {
                return null;
            }
            DEQUEUE_SEGMENT.compareAndSet(this, s, s.next);
            s = dequeueSegment;
        }
    }

    /** True if the queue is empty at some moment during the call. */
    @Override
    public boolean isEmpty() {
        for (Segment s = dequeueSegment; ; s = s.next) {
            int indexes = s.indexes; // LP
            if (lower(indexes) != upper(indexes)) {
                return false;
            }
            if (upper(indexes) < s.nodes.length || s.next == null) {
                return true;
            }
        }
    }

    /** An estimate of the number of elements: exact only while nobody offers or polls. */
    @Override
    public int size() {
        long n = 0;
        for (Segment s = dequeueSegment; s != null; s = s.next) {
            int indexes = s.indexes;
            n += upper(indexes) - lower(indexes);
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    @Override
    public String toString() {
        return "QueueSegmentQueue[size~" + size() + "]";
    }

    /** {@code QueueSegment}: 256 slots and one packed index word. */
    static final class Segment {
        final Object[] nodes;
        volatile int indexes;
        volatile Segment next;

        Segment(int length) {
            this.nodes = new Object[length];
        }

        boolean isUsedUp() {
            int i = indexes;
            return upper(i) == nodes.length && lower(i) == nodes.length;
        }

        boolean tryEnqueue(Object item) {
            for (;;) {
                int i = indexes;
                int upper = upper(i);
                if (upper == nodes.length) {
                    return false;
                }
                // LP: the CAS that reserves slot `upper`.
                if (INDEXES.compareAndSet(this, i, pack(upper + 1, lower(i)))) {
                    NODES.setRelease(nodes, upper, item);
                    return true;
                }
            }
        }

        Object tryDequeue(SpinContext context) {
            for (;;) {
                int i = indexes;
                int upper = upper(i);
                int lower = lower(i);
                if (lower == upper) {
                    return null;
                }
                // LP: the CAS that takes slot `lower`.
                if (INDEXES.compareAndSet(this, i, pack(upper, lower + 1))) {
                    Object item = NODES.getAcquire(nodes, lower);
                    if (item == null) {
                        SpinWait spinner = new SpinWait(context);
                        do {
                            spinner.spinOnce();
                            item = NODES.getAcquire(nodes, lower);
                        } while (item == null);
                    }
                    nodes[lower] = null;
                    return item;
                }
            }
        }

        // VarHandle mechanics
        private static final VarHandle INDEXES;
        private static final VarHandle NEXT;
        private static final VarHandle NODES = MethodHandles.arrayElementVarHandle(Object[].class);

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                INDEXES = lookup.findVarHandle(Segment.class, "indexes", int.class);
                NEXT = lookup.findVarHandle(Segment.class, "next", Segment.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    // VarHandle mechanics
    private static final VarHandle ENQUEUE_SEGMENT;
    private static final VarHandle DEQUEUE_SEGMENT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ENQUEUE_SEGMENT = lookup.findVarHandle(QueueSegmentQueue.class, "enqueueSegment", Segment.class);
            DEQUEUE_SEGMENT = lookup.findVarHandle(QueueSegmentQueue.class, "dequeueSegment", Segment.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
