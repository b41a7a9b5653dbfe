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
     *
     * The keys live beside the heap in two long arrays (times[i], seqs[i] are heap[i]'s), so a
     * comparison reads two arrays in order instead of following a pointer to each Event: a
     * sift touches contiguous memory. Same order, same events, same digests.
     *
     * The root is taken lazily: poll returns the root but leaves it in place, marked taken. In a
     * simulation the next call is nearly always an add of the polled thread's next event, which
     * lies a few nanoseconds ahead, before most of the queue: it goes into the root's place and
     * sinks from there, usually by a level or two. Removing the root at once would have moved the
     * last leaf to the top and down the whole height, and the new event would then have climbed
     * the whole height back. Any other call (peek, poll, size) first completes the removal. The
     * order of events is the same (the key is total), only the heap's arrangement differs.
     */

    private Event[] heap = new Event[64];
    private long[] times = new long[64];
    private long[] seqs = new long[64];
    /** Entries in the heap, the taken root included while {@link #rootTaken}. */
    private int size;
    /** The root was returned by poll and is still in place, waiting to be replaced or removed. */
    private boolean rootTaken;
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
        if (rootTaken) {
            rootTaken = false;
            siftDown(e, time, e.seq);
            return;
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
            times = Arrays.copyOf(times, size * 2);
            seqs = Arrays.copyOf(seqs, size * 2);
        }
        siftUp(size++, e, time, e.seq);
    }

    /** Removes and returns the earliest event, or null when empty. */
    Event poll() {
        removeTakenRoot();
        if (size == 0) {
            return null;
        }
        rootTaken = true;
        return heap[0];
    }

    /** The earliest event without removing it, or null. */
    Event peek() {
        removeTakenRoot();
        return size == 0 ? null : heap[0];
    }

    /** Completes a poll: the last leaf replaces the taken root and sinks to its place. */
    private void removeTakenRoot() {
        if (!rootTaken) {
            return;
        }
        rootTaken = false;
        int last = --size;
        Event moved = heap[last];
        heap[last] = null;
        if (size > 0) {
            siftDown(moved, times[last], seqs[last]);
        } else {
            heap[0] = null;
        }
    }

    /** Returns a popped event to the pool. */
    void recycle(Event e) {
        e.thread = null;
        e.nextFree = free;
        free = e;
    }

    int size() {
        return rootTaken ? size - 1 : size;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    private void siftUp(int index, Event e, long time, long seq) {
        Event[] h = heap;
        long[] t = times;
        long[] q = seqs;
        int i = index;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = t[parent];
            if (time > pt || (time == pt && seq > q[parent])) {
                break;
            }
            h[i] = h[parent];
            t[i] = pt;
            q[i] = q[parent];
            i = parent;
        }
        h[i] = e;
        t[i] = time;
        q[i] = seq;
    }

    /** Places {@code e}, keyed (time, seq), from the root down. */
    private void siftDown(Event e, long time, long seq) {
        Event[] h = heap;
        long[] t = times;
        long[] q = seqs;
        int n = size;
        int half = n >>> 1;
        int i = 0;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < n && (t[right] < t[child] || (t[right] == t[child] && q[right] < q[child]))) {
                child = right;
            }
            long ct = t[child];
            if (ct > time || (ct == time && q[child] > seq)) {
                break;
            }
            h[i] = h[child];
            t[i] = ct;
            q[i] = q[child];
            i = child;
        }
        h[i] = e;
        t[i] = time;
        q[i] = seq;
    }
}
