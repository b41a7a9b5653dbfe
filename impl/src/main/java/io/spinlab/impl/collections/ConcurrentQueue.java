package io.spinlab.impl.collections;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * An unbounded multi-producer multi-consumer FIFO queue: the equivalent of .NET's
 * {@code ConcurrentQueue<T>}, since dotnet/coreclr #9234 also the thread pool's global queue.
 * Elements live in a linked list of bounded ring segments (32 slots at first, each new segment
 * twice the last, up to 1,048,576); a full segment is frozen and a bigger one appended, a
 * drained segment is dropped. In steady state nothing is allocated per element.
 *
 * <p>Progress: {@link #offer} and {@link #poll} are lock-free except when a segment is full or
 * drained (then a short cross-segment lock, one of ours, is taken), and except that a
 * consumer that meets an element whose producer has reserved its slot but not yet written it
 * waits for that producer (as in .NET). {@link #offer}, {@link #poll}, {@link #peek},
 * {@link #isEmpty} and {@link #size} are linearizable.
 *
 * <p>{@code java.util.Queue} contract: null elements are rejected. {@link #iterator()} is a
 * weakly consistent snapshot: it returns exactly the elements present at one moment during the
 * call to {@code iterator()}, in order, whatever happens afterwards, and never blocks offers
 * or polls; taking it freezes the current segments (later offers go to a new segment).
 * Removal through the iterator, {@code remove(Object)}, {@code removeAll}, {@code retainAll}
 * and {@code removeIf} are not supported. {@code addAll}, {@code clear}, {@code contains},
 * {@code toArray} and {@code equals}-style bulk methods are not atomic: they are loops of the
 * atomic operations ({@code clear} polls until empty).
 *
 * @param <E> the element type
 */
public final class ConcurrentQueue<E> extends AbstractQueue<E> implements ConcurrentFifo<E> {
    /*
     * Implementation notes.
     *
     * Segment (Vyukov's bounded MPMC ring, ConcurrentQueueSegment.cs): slot i holds an item and
     * a sequence number, initially i. Positions are ints that wrap; only differences are used.
     *
     * Invariants:
     *   - an enqueuer at position p may write slot p & mask iff seq == p; it then publishes
     *     seq = p + 1. A dequeuer at p may read iff seq == p + 1; it then publishes
     *     seq = p + length (the next lap's enqueuer), unless the segment is preserved.
     *   - head <= tail (ignoring the freeze offset); tail - head <= length.
     *   - freezing adds FREEZE_OFFSET = 2 × length to tail once; a frozen tail never equals a
     *     slot's sequence number again, so every later enqueue fails and goes to a new segment.
     *   - queue.head and queue.tail (segments) change only under crossSegmentLock; segments
     *     between them are frozen, and only queue.head's segment is ever dequeued from, so a
     *     segment that is not the head has head index 0 and never wraps.
     *
     * Linearization points: offer at the CAS on a segment's tail; poll at the CAS on a
     * segment's head, or (empty) at the read of tail that shows tail == head on the last
     * segment; peek at the read of the head slot's sequence number.
     *
     * Memory ordering: sequence numbers are written with release and read with acquire; the
     * item is a plain field ordered by them (written before the release, read after the
     * acquire). head/tail are volatile and CAS'd. `preservedForObservation` is volatile: a
     * peeker writes it before reading head, a dequeuer reads it after its head CAS, so a
     * dequeuer that takes the peeked position sees it (all synchronization actions are totally
     * ordered in the JMM; .NET needs an explicit full fence here). The queue's head and tail
     * segment, a segment's next link and its frozen flag are written under the cross-segment lock
     * with release stores, as .NET writes them (volatile fields there, or a plain store read with
     * Volatile.Read), and read with acquire: no read after them needs them to be fenced (dotnet/
     * coreclr src/System.Private.CoreLib/shared/System/Collections/Concurrent/ConcurrentQueue.cs
     * and ConcurrentQueueSegment.cs @ 7bd31ac770062fdcf75ad19dabcd7c8ba60bc29c).
     *
     * Freezing order differs from .NET on purpose: .NET sets the frozen flag and then adds the
     * offset, so a dequeuer can read frozen = true with the tail not yet offset and report
     * "empty" while an enqueue it could have waited for is in flight. Here the offset comes
     * first; a dequeuer that reads frozen = true is then sure to read the offset tail.
     *
     * Spin/wait policy: a lost race costs one SpinWait.spinOnce whose Sleep(1) threshold follows
     * the queue-spin knob, as .NET changed it: 20 (SpinOnce()'s default, 2.x), -1 (never, coreclr
     * #21722, 3.0 to 5.0) and the segment's constant 8, raised to 10 by SpinWait (runtime #44265,
     * .NET 6). Measured here with two threads doing offer+poll pairs, 10 made each thread sleep
     * 1 ms about 300 times a second where 20 slept a handful of times: that is .NET 6's behaviour,
     * which issue runtime #44077 argued for, not a spinlab choice. size() and waiting for an
     * unfinished neighbour keep SpinOnce()'s default, as .NET's Count does.

     * Why not simpler: a linked Michael–Scott queue allocates a node per element and makes
     * producers and consumers CAS adjacent memory; one big ring bounds the queue. The segment
     * list keeps the ring's cache behaviour with no bound.
     */

    /** Slots of the first segment. */
    public static final int INITIAL_SEGMENT_LENGTH = 32;
    /** Slots of the largest segment: 1024 × 1024. */
    public static final int MAX_SEGMENT_LENGTH = 1024 * 1024;
    private final SpinContext context;
    private final int initialSegmentLength;
    /** Guards every change of {@link #head} and {@link #tail} and snapshots. */
    private final MonitorLock crossSegmentLock;
    private volatile Segment head;
    private volatile Segment tail;

    /** A queue for real hardware with the current tuning. */
    public ConcurrentQueue() {
        this(SpinContext.hardware());
    }

    /** A queue whose spinning and locking go through {@code context}. */
    public ConcurrentQueue(SpinContext context) {
        this(context, INITIAL_SEGMENT_LENGTH);
    }

    /**
     * A queue whose first segment has {@code initialSegmentLength} slots (.NET: always 32).
     * Small segments make tests and model checkers reach segment growth quickly.
     *
     * @param initialSegmentLength a power of two, 2..{@value #MAX_SEGMENT_LENGTH}
     */
    public ConcurrentQueue(SpinContext context, int initialSegmentLength) {
        if (initialSegmentLength < 2 || initialSegmentLength > MAX_SEGMENT_LENGTH
                || Integer.bitCount(initialSegmentLength) != 1) {
            throw new IllegalArgumentException("initialSegmentLength = " + initialSegmentLength
                    + " is not a power of two in 2.." + MAX_SEGMENT_LENGTH);
        }
        this.context = Objects.requireNonNull(context, "context");
        this.initialSegmentLength = initialSegmentLength;
        this.crossSegmentLock = new MonitorLock(context, this);
        Segment first = new Segment(initialSegmentLength);
        this.head = first;
        this.tail = first;
    }

    // ---------------------------------------------------------------- offer

    /**
     * Appends {@code element} at the tail. Never fails.
     *
     * @return true
     * @throws NullPointerException if {@code element} is null
     */
    @Override
    public boolean offer(E element) {
        Objects.requireNonNull(element, "element");
        if (!tail.tryEnqueue(element, context)) {
            enqueueSlow(element);
        }
        return true;
    }

    private void enqueueSlow(Object element) {
        for (;;) {
            Segment t = tail;
            if (t.tryEnqueue(element, context)) {
                return;
            }
            crossSegmentLock.enter();
            try {
                if (t == tail) {
                    t.ensureFrozenForEnqueues();
                    int nextLength = t.preservedForObservation ? initialSegmentLength
                            : Math.min(t.length() * 2, MAX_SEGMENT_LENGTH);
                    Segment next = new Segment(nextLength);
                    // release stores, as .NET's (the link is a plain store there, but a reader
                    // here concludes from a non-null next that the segment is frozen)
                    NEXT.setRelease(t, next);
                    QUEUE_TAIL.setRelease(this, next);
                }
            } finally {
                crossSegmentLock.exit();
            }
        }
    }

    // ---------------------------------------------------------------- poll / peek

    /** Removes and returns the head element, or null if the queue is empty. */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        Segment h = head;
        Object item = h.tryDequeue(context);
        if (item != null) {
            return (E) item;
        }
        if (h.next == null) {
            return null; // LP (empty): inside tryDequeue, with h the last segment.
        }
        return (E) dequeueSlow();
    }

    private Object dequeueSlow() {
        for (;;) {
            Segment h = head;
            Object item = h.tryDequeue(context);
            if (item != null) {
                return item;
            }
            if (h.next == null) {
                return null;
            }
            // h has a successor, so it is frozen; an item may have landed before the freeze.
            item = h.tryDequeue(context);
            if (item != null) {
                return item;
            }
            crossSegmentLock.enter();
            try {
                if (h == head) {
                    QUEUE_HEAD.setRelease(this, h.next); // .NET: a volatile field's release store
                }
            } finally {
                crossSegmentLock.exit();
            }
        }
    }

    /** The head element without removing it, or null if the queue is empty. */
    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) peekCore(true);
    }

    /** True if the queue is empty at some moment during the call; never slows later polls. */
    @Override
    public boolean isEmpty() {
        return peekCore(false) == null;
    }

    /**
     * The first element from the first non-empty segment. With {@code resultUsed = false}
     * returns a non-null marker instead of the element, so that nothing needs preserving.
     */
    private Object peekCore(boolean resultUsed) {
        Segment s = head;
        for (;;) {
            Segment next = s.next;
            Object item = s.tryPeek(resultUsed, context);
            if (item != null) {
                return item;
            }
            if (next != null) {
                // s was frozen before the peek, so nothing could be added to it meanwhile.
                s = next;
            } else if (s.next == null) {
                return null;
            }
            // Otherwise s gained a successor during the peek: peek s again to keep the order.
        }
    }

    // ---------------------------------------------------------------- size

    /**
     * The number of elements at one moment during the call (saturating at
     * {@link Integer#MAX_VALUE}). Lock-free with one or two segments; with more it takes the
     * cross-segment lock. Retries while producers or consumers move.
     */
    @Override
    public int size() {
        SpinWait spinner = new SpinWait(context);
        for (;;) {
            Segment h = head;
            Segment t = tail;
            int headHead = h.head;
            int headTail = h.tail;
            if (h == t) {
                if (h == head && t == tail && headHead == h.head && headTail == h.tail) {
                    return h.count(headHead, headTail);
                }
            } else if (h.next == t) {
                int tailHead = t.head;
                int tailTail = t.tail;
                if (h == head && t == tail && headHead == h.head && headTail == h.tail
                        && tailHead == t.head && tailTail == t.tail) {
                    return saturate((long) h.count(headHead, headTail) + t.count(tailHead, tailTail));
                }
            } else {
                long n = sizeUnderLock();
                if (n >= 0) {
                    return saturate(n);
                }
            }
            spinner.spinOnce();
        }
    }

    /**
     * Three or more segments: under the lock the head and tail segments cannot change, middle
     * segments are frozen and untouched, and only the head segment's head index and the tail
     * segment's tail index move; a stable double read of those two gives the count.
     *
     * @return the count, or −1 to retry
     */
    private long sizeUnderLock() {
        crossSegmentLock.enter();
        try {
            Segment h = head;
            Segment t = tail;
            if (h == t || h.next == t) {
                return -1;
            }
            int headHead = h.head;
            int tailTail = t.tail;
            if (headHead != h.head) {
                return -1;
            }
            long n = h.count(headHead, h.tail) + (long) t.count(t.head, tailTail);
            for (Segment s = h.next; s != t; s = s.next) {
                n += s.count(s.head, s.tail);
            }
            return n;
        } finally {
            crossSegmentLock.exit();
        }
    }

    private static int saturate(long n) {
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    // ---------------------------------------------------------------- iterator

    /**
     * A snapshot of the elements present now, in FIFO order; see the class comment. Taking it
     * freezes the current segments and keeps their slots from being cleared until they are
     * dropped.
     */
    @Override
    public Iterator<E> iterator() {
        crossSegmentLock.enter();
        try {
            Segment h = head;
            Segment t = tail;
            for (Segment s = h; ; s = s.next) {
                s.preservedForObservation = true;
                if (s == t) {
                    break;
                }
            }
            t.ensureFrozenForEnqueues();
            // LP: the reads of the head segment's head and the tail segment's tail, which no
            // longer move at the tail (frozen) and whose slots dequeues no longer clear.
            int headHead = h.head;
            int tailTail = t.tail;
            return new SnapshotIterator<>(h, headHead, t, tailTail, context);
        } finally {
            crossSegmentLock.exit();
        }
    }

    /**
     * Walks the preserved, frozen segments of a snapshot. Each slot of the snapshot was
     * reserved by an enqueuer; if its item is not written yet the iterator waits for it.
     */
    static final class SnapshotIterator<E> implements Iterator<E> {
        private final Segment last;
        private final int lastEnd;
        private final SpinContext context;
        private Segment segment;
        private int position;
        private int end;

        SnapshotIterator(Segment first, int firstHead, Segment last, int lastTail, SpinContext context) {
            this.last = last;
            this.lastEnd = lastTail - last.freezeOffset();
            this.context = context;
            this.segment = first;
            this.position = firstHead;
            this.end = first == last ? lastEnd : first.tail - first.freezeOffset();
        }

        @Override
        public boolean hasNext() {
            while (end - position <= 0) {
                if (segment == last) {
                    return false;
                }
                segment = segment.next;
                position = 0;
                end = segment == last ? lastEnd : segment.tail - segment.freezeOffset();
            }
            return true;
        }

        @Override
        @SuppressWarnings("unchecked")
        public E next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Object item = segment.itemWhenAvailable(position, context);
            position++;
            return (E) item;
        }
    }

    // ---------------------------------------------------------------- segment

    /*
     * Padding: head is written by consumers and tail by producers, each read hot by the other
     * side, so each sits alone on a 128-byte span (two 64-byte lines, against the adjacent-line
     * prefetcher). The chain is SegmentPad1 → SegmentHeadField → SegmentPad2 → SegmentTailField
     * → SegmentPad3 → Segment; superclass fields are laid out first. These classes cannot be
     * final: each is the superclass of the next.
     */

    abstract static class SegmentPad1 {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    abstract static class SegmentHeadField extends SegmentPad1 {
        /** Next position to dequeue; CAS'd by consumers. */
        volatile int head;
    }

    abstract static class SegmentPad2 extends SegmentHeadField {
        long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;
    }

    abstract static class SegmentTailField extends SegmentPad2 {
        /** Next position to enqueue; CAS'd by producers, plus the freeze offset once frozen. */
        volatile int tail;
    }

    abstract static class SegmentPad3 extends SegmentTailField {
        long p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47;
    }

    /** One bounded ring: {@code ConcurrentQueueSegment<T>}. */
    static final class Segment extends SegmentPad3 {
        /** Returned by {@link #tryPeek} when the caller does not use the element. */
        static final Object PRESENT = new Object();

        final Object[] items;
        final int[] sequence;
        final int mask;
        /** Set once, under the cross-segment lock, after the tail got its offset. */
        volatile boolean frozenForEnqueues;
        /** Dequeues stop clearing slots (a peek or snapshot may read them). Never reset. */
        volatile boolean preservedForObservation;
        /** Written once, under the cross-segment lock. */
        volatile Segment next;

        Segment(int length) {
            assert Integer.bitCount(length) == 1;
            this.items = new Object[length];
            this.sequence = new int[length];
            this.mask = length - 1;
            for (int i = 0; i < length; i++) {
                sequence[i] = i;
            }
        }

        int length() {
            return items.length;
        }

        int freezeOffset() {
            return items.length * 2;
        }

        /** The Sleep(1) threshold of a lost race's spin, from the queue-spin knob (slow path only). */
        private static int lostRaceSleep1Threshold(SpinContext context) {
            return context.tuning().queueSpin().sleep1Threshold();
        }

        boolean tryEnqueue(Object item, SpinContext context) {
            SpinWait spinner = null;
            for (;;) {
                int t = tail;
                int slot = t & mask;
                int seq = (int) SEQUENCE.getAcquire(sequence, slot);
                int diff = seq - t;
                if (diff == 0) {
                    // LP: the CAS that reserves position t.
                    if (TAIL.compareAndSet(this, t, t + 1)) {
                        items[slot] = item;
                        SEQUENCE.setRelease(sequence, slot, t + 1);
                        return true;
                    }
                } else if (diff < 0) {
                    return false; // full, or frozen
                }
                if (spinner == null) {
                    spinner = new SpinWait(context);
                }
                spinner.spinOnce(lostRaceSleep1Threshold(context));
            }
        }

        /** The dequeued item, or null if this segment is empty. */
        Object tryDequeue(SpinContext context) {
            SpinWait spinner = null;
            for (;;) {
                int h = head;
                int slot = h & mask;
                int seq = (int) SEQUENCE.getAcquire(sequence, slot);
                int diff = seq - (h + 1);
                if (diff == 0) {
                    // LP: the CAS that takes position h.
                    if (HEAD.compareAndSet(this, h, h + 1)) {
                        Object item = items[slot];
                        if (!preservedForObservation) {
                            items[slot] = null;
                            SEQUENCE.setRelease(sequence, slot, h + items.length);
                        }
                        return item;
                    }
                } else if (diff < 0 && isEmptyAt(h)) {
                    return null;
                }
                if (spinner == null) {
                    spinner = new SpinWait(context);
                }
                spinner.spinOnce(lostRaceSleep1Threshold(context));
            }
        }

        /**
         * The head slot shows no item for position {@code h}: empty if no enqueuer holds a
         * position at or after it; otherwise one is still writing (or h is stale).
         */
        private boolean isEmptyAt(int h) {
            boolean frozen = frozenForEnqueues;
            // LP (empty): this read of tail. frozen == true implies the offset is in it.
            int t = tail;
            return t - h <= 0 || (frozen && t - freezeOffset() - h <= 0);
        }

        /** The head item (or {@link #PRESENT}), or null if empty. */
        Object tryPeek(boolean resultUsed, SpinContext context) {
            if (resultUsed) {
                // A dequeuer that takes the slot we read reads this flag after its head CAS,
                // which follows our read of head, so it will not clear the item under us.
                preservedForObservation = true;
            }
            SpinWait spinner = null;
            for (;;) {
                int h = head;
                int slot = h & mask;
                // LP: this read, when it shows the item.
                int seq = (int) SEQUENCE.getAcquire(sequence, slot);
                int diff = seq - (h + 1);
                if (diff == 0) {
                    return resultUsed ? items[slot] : PRESENT;
                } else if (diff < 0 && isEmptyAt(h)) {
                    return null;
                }
                if (spinner == null) {
                    spinner = new SpinWait(context);
                }
                spinner.spinOnce(lostRaceSleep1Threshold(context));
            }
        }

        /** Elements between the given head and tail indices (tail possibly frozen). */
        int count(int h, int t) {
            if (h == t || h == t - freezeOffset()) {
                return 0;
            }
            int hm = h & mask;
            int tm = t & mask;
            return hm < tm ? tm - hm : items.length - hm + tm;
        }

        /** Called under the cross-segment lock: no enqueue can succeed here afterwards. */
        void ensureFrozenForEnqueues() {
            if (!frozenForEnqueues) {
                TAIL.getAndAdd(this, freezeOffset());
                FROZEN.setRelease(this, true); // a reader that sees it sees the offset tail
            }
        }

        /** The item at {@code position} of a preserved segment, waiting for its enqueuer. */
        Object itemWhenAvailable(int position, SpinContext context) {
            int slot = position & mask;
            if ((int) SEQUENCE.getAcquire(sequence, slot) != position + 1) {
                SpinWait spinner = new SpinWait(context);
                while ((int) SEQUENCE.getAcquire(sequence, slot) != position + 1) {
                    spinner.spinOnce();
                }
            }
            return items[slot];
        }
    }

    // VarHandle mechanics
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle SEQUENCE = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle NEXT;
    private static final VarHandle FROZEN;
    private static final VarHandle QUEUE_HEAD;
    private static final VarHandle QUEUE_TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(SegmentHeadField.class, "head", int.class);
            TAIL = lookup.findVarHandle(SegmentTailField.class, "tail", int.class);
            NEXT = lookup.findVarHandle(Segment.class, "next", Segment.class);
            FROZEN = lookup.findVarHandle(Segment.class, "frozenForEnqueues", boolean.class);
            QUEUE_HEAD = lookup.findVarHandle(ConcurrentQueue.class, "head", Segment.class);
            QUEUE_TAIL = lookup.findVarHandle(ConcurrentQueue.class, "tail", Segment.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
