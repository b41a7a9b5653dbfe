package io.spinlab.model.spec;

import java.util.ArrayDeque;

/**
 * Sequential specification of an unbounded FIFO queue of ints (ConcurrentQueue,
 * QueueSegmentQueue): what every linearizable execution must be equivalent to. Method names and
 * signatures match the operations of the Lincheck tests. Not thread-safe.
 */
public final class ConcurrentQueueSpec {
    private final ArrayDeque<Integer> items = new ArrayDeque<>();

    /** Appends; always succeeds. */
    public boolean offer(int value) {
        items.addLast(value);
        return true;
    }

    /** Removes the oldest, or null if empty. */
    public Integer poll() {
        return items.pollFirst();
    }

    /** The oldest without removing it, or null. */
    public Integer peek() {
        return items.peekFirst();
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public int size() {
        return items.size();
    }
}
