package io.spinlab.model.spec;

import java.util.ArrayDeque;

/**
 * Sequential specification of a work-stealing deque of ints: the owner pushes and pops at the
 * tail (LIFO), thieves take from the head (FIFO). A steal that the implementation reports as
 * missed is retried by the test, so a steal here fails only when the deque is empty.
 * Not thread-safe.
 */
public final class WorkStealingQueueSpec {
    private final ArrayDeque<Integer> items = new ArrayDeque<>();

    public void push(int value) {
        items.addLast(value);
    }

    /** Removes the newest, or null if empty. */
    public Integer pop() {
        return items.pollLast();
    }

    /** Removes the oldest, or null if empty. */
    public Integer steal() {
        return items.pollFirst();
    }
}
