package io.spinlab.impl.collections;

/**
 * An unbounded, thread-safe first-in-first-out queue of non-null elements: what the thread
 * pool needs from its global queue. Implemented by {@link ConcurrentQueue} (the current .NET
 * global queue) and {@link QueueSegmentQueue} (the legacy one), so that the {@code global-queue}
 * knob can swap one for the other.
 *
 * <p>{@link #offer} and {@link #poll} are linearizable in both implementations; {@link #size}
 * is linearizable in {@link ConcurrentQueue} and an estimate in {@link QueueSegmentQueue}.
 *
 * @param <E> the element type
 */
public interface ConcurrentFifo<E> {

    /**
     * Appends {@code element}; never fails for lack of room.
     *
     * @return true
     * @throws NullPointerException if {@code element} is null
     */
    boolean offer(E element);

    /** Removes and returns the oldest element, or null if the queue is empty. */
    E poll();

    /** True if the queue holds no element at some moment during the call. */
    boolean isEmpty();

    /** The number of elements (see the implementation for how exact). */
    int size();
}
