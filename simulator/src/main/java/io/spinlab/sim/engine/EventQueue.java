package io.spinlab.sim.engine;

import java.util.Arrays;

/**
 * The simulator's agenda: events ordered by virtual time, ties broken by the order in which
 * they were scheduled (a sequence number), never by identity or hash. Not thread-safe.
 */
final class EventQueue {
    /*
     * Implementation notes
     *
     * A binary min-heap of Event objects keyed by (time, seq). seq is unique and increasing,
     * so the order is total and the queue is stable: two events at the same instant come out
     * in the order they went in. Popped events are returned to a free list by the engine
     * (recycle), so a long run allocates no events in steady state.
     *
     * Why not PriorityQueue: it would need a Comparator call per comparison and a boxed
     * object per entry anyway; the hand-written heap is about twice as fast here.
     */

    private Event[] heap = new Event[64];
    private int size;
    private long nextSeq;
    private Event free;

    /** Schedules {@code kind} for {@code thread} at {@code time}. */
    void add(long time, int kind, SimThread thread, long token) {
        Event e = free;
        if (e == null) {
            e = new Event();
        } else {
            free = e.nextFree;
            e.nextFree = null;
        }
        e.time = time;
        e.seq = nextSeq++;
        e.kind = kind;
        e.thread = thread;
        e.token = token;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        siftUp(size++, e);
    }

    /** Removes and returns the earliest event, or null when empty. */
    Event poll() {
        if (size == 0) {
            return null;
        }
        Event first = heap[0];
        Event last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            siftDown(0, last);
        }
        return first;
    }

    /** The earliest event without removing it, or null. */
    Event peek() {
        return size == 0 ? null : heap[0];
    }

    /** Returns a popped event to the pool. */
    void recycle(Event e) {
        e.thread = null;
        e.nextFree = free;
        free = e;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    private static boolean before(Event a, Event b) {
        return a.time < b.time || (a.time == b.time && a.seq < b.seq);
    }

    private void siftUp(int index, Event e) {
        int i = index;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Event p = heap[parent];
            if (!before(e, p)) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = e;
    }

    private void siftDown(int index, Event e) {
        int i = index;
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Event c = heap[child];
            int right = child + 1;
            if (right < size && before(heap[right], c)) {
                child = right;
                c = heap[child];
            }
            if (!before(c, e)) {
                break;
            }
            heap[i] = c;
            i = child;
        }
        heap[i] = e;
    }
}
