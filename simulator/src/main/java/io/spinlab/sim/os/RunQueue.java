package io.spinlab.sim.os;

import java.util.Arrays;

/**
 * Ready threads waiting for a processor, first in first out, as thread indices: one priority
 * level of one processor's queue in the {@link Scheduler}. Not thread-safe: only the engine
 * touches it.
 */
public final class RunQueue {
    /*
     * Implementation notes
     *
     * A growable ring buffer of ints: no boxing and no allocation per operation, so a run with
     * 10,000 threads queueing costs nothing per step. Order is insertion order, which makes the
     * schedule depend only on the order of events, never on identities or hashes.
     */

    private static final int INITIAL_CAPACITY = 16;

    private int[] items = new int[INITIAL_CAPACITY];
    private int head;
    private int size;

    /** Appends thread {@code index}. */
    public void add(int index) {
        if (size == items.length) {
            grow();
        }
        items[(head + size) & (items.length - 1)] = index;
        size++;
    }

    /** Puts thread {@code index} first. */
    public void addFirst(int index) {
        if (size == items.length) {
            grow();
        }
        head = (head - 1) & (items.length - 1);
        items[head] = index;
        size++;
    }

    /** Removes and returns the first thread index, or -1 when empty. */
    public int poll() {
        if (size == 0) {
            return -1;
        }
        int index = items[head];
        head = (head + 1) & (items.length - 1);
        size--;
        return index;
    }

    /** Removes thread {@code index} if queued; returns whether it was. */
    public boolean remove(int index) {
        for (int i = 0; i < size; i++) {
            int slot = (head + i) & (items.length - 1);
            if (items[slot] == index) {
                for (int j = i; j < size - 1; j++) {
                    items[(head + j) & (items.length - 1)] = items[(head + j + 1) & (items.length - 1)];
                }
                size--;
                return true;
            }
        }
        return false;
    }

    /** The {@code i}-th queued thread index, first = 0. */
    public int get(int i) {
        assert i >= 0 && i < size : i + " of " + size;
        return items[(head + i) & (items.length - 1)];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The queued thread indices, first to last. */
    public int[] toArray() {
        int[] copy = new int[size];
        for (int i = 0; i < size; i++) {
            copy[i] = items[(head + i) & (items.length - 1)];
        }
        return copy;
    }

    private void grow() {
        int[] bigger = new int[items.length * 2];
        for (int i = 0; i < size; i++) {
            bigger[i] = items[(head + i) & (items.length - 1)];
        }
        items = bigger;
        head = 0;
    }

    @Override
    public String toString() {
        return "RunQueue" + Arrays.toString(toArray());
    }
}
