package io.spinlab.model.spec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Sequential specification of an unbounded LIFO stack of ints (ConcurrentStack), with atomic
 * two-element range operations. Not thread-safe.
 */
public final class StackSpec {
    private final ArrayDeque<Integer> items = new ArrayDeque<>();

    public void push(int value) {
        items.push(value);
    }

    /** Pushes {@code first} then {@code second} as one step ({@code second} ends on top). */
    public void pushTwo(int first, int second) {
        items.push(first);
        items.push(second);
    }

    /** Removes the top, or null if empty. */
    public Integer pop() {
        return items.poll();
    }

    /** Removes up to two elements as one step, top first. */
    public List<Integer> popTwo() {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < 2 && !items.isEmpty(); i++) {
            out.add(items.pop());
        }
        return out;
    }

    public Integer peek() {
        return items.peek();
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public int size() {
        return items.size();
    }
}
