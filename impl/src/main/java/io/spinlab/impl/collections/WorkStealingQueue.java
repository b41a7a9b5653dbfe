package io.spinlab.impl.collections;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.spin.SpinContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A thread pool worker's local queue: the owner pushes and pops at the tail (LIFO) without a
 * lock in the common case; other threads steal from the head (FIFO) under a try-only
 * {@link SpinLock}, so a thief never waits. The equivalent of .NET's
 * {@code ThreadPoolWorkQueue.WorkStealingQueue}. The array starts with 32 slots and doubles
 * when full.
 *
 * <p>Threading contract: {@link #push}, {@link #pop} and {@link #clearOwner} only on the owner
 * thread (one thread at a time, with happens-before between owners if it changes);
 * {@link #trySteal}, {@link #canSteal} and {@link #size} from any thread.
 *
 * <p>Progress: owner operations are wait-free except when the queue is full or holds at most
 * one element (then they take the lock, which is held only for a few instructions); a steal
 * never blocks: if the lock is busy it gives up and reports a <em>missed steal</em> through
 * the {@link MissedSteal} flag, so the pool can ask another thread to look again. With steals
 * retried while they report a miss, push/pop/steal are linearizable as a deque, except that a
 * steal racing the owner's rare array growth or index wrap-around can report empty without a
 * miss (as in .NET).
 *
 * @param <E> the element type
 */
public final class WorkStealingQueue<E> {
    /*
     * Implementation notes.
     *
     * Invariants: head <= tail + 1 at all times (tail - 1 is written by a popping owner before
     * it checks head); elements live at positions head..tail-1, slot = position & mask; slots
     * outside that range are null. array, mask and head only change under foreignLock (head
     * also briefly by a thief that then restores it, under the lock). tail is written only by
     * the owner.
     *
     * Linearization points: push at the release store of tail (fast path) or of tail under
     * the lock; pop at the volatile write of tail - 1 when head <= tail - 1 afterwards, or at
     * the locked re-check otherwise; steal at the volatile write of head + 1 when head < tail
     * afterwards (under the lock); an unsuccessful steal that reports no miss at its read of
     * tail showing head >= tail.
     *
     * Memory ordering, write by write as .NET orders it (dotnet/coreclr
     * src/mscorlib/src/System/Threading/ThreadPool.cs @ 91b83215400d1d441de2ee957db3f7c1fed13eec,
     * the file before #9234; the same statements after it): the fields are volatile in .NET, so
     * its plain assignments are release stores, and only the two writes that must come before a
     * read of the other index are Interlocked.Exchange, a full fence. Here: the pop's tail - 1
     * and the steal's head + 1 are volatile writes (in the JMM never reordered with a later
     * volatile read); the push's tail, the grow's four fields, the overflow's indices and the
     * two restores under the lock are setRelease, as the release stores they are in .NET (a
     * plain mov on x86). Slots are plain: an element is written before the release store of tail
     * that publishes it and read after a volatile read of tail (.NET writes the slot with
     * Volatile.Write, which the release of tail covers here); a slot is cleared either by the owner
     * or by a thief under the lock, and an owner can reuse a cleared slot only through the locked
     * path (the fast path needs two free slots), so the lock orders the two writes.
     *
     * Tail overflow: when tail reaches Integer.MAX_VALUE the owner masks both indices down
     * under the lock, keeping their distance.
     *
     * A window inherited from .NET (CanSteal reads the two indices the same way): while the
     * owner grows the array or masks the indices down, both under the lock, a thief's unlocked
     * canSteal() can read the old head and then the new, smaller tail, and report the queue
     * empty without a missed steal although it holds elements. The contract's "linearizable with
     * steals retried while they report a miss" holds outside those two rare moments only.
     *
     * Why not simpler: a lock for every operation would make the owner pay for thieves that
     * rarely come; a lock-free Chase–Lev deque needs a CAS on the last element and a fenced
     * array grow. The lock is only met on the rare contended paths, as in .NET.
     */

    /** Slots at first ({@code INITIAL_SIZE}). */
    public static final int INITIAL_SIZE = 32;
    /** Largest array: 2^30 slots. */
    static final int MAX_SIZE = 1 << 30;

    private final SpinLock foreignLock;
    private volatile Object[] array;
    private volatile int mask;
    private volatile int head;
    private volatile int tail;

    private static final VarHandle ARRAY;
    private static final VarHandle MASK;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ARRAY = lookup.findVarHandle(WorkStealingQueue.class, "array", Object[].class);
            MASK = lookup.findVarHandle(WorkStealingQueue.class, "mask", int.class);
            HEAD = lookup.findVarHandle(WorkStealingQueue.class, "head", int.class);
            TAIL = lookup.findVarHandle(WorkStealingQueue.class, "tail", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A queue for real hardware with the current tuning. */
    public WorkStealingQueue() {
        this(SpinContext.hardware());
    }

    /** A queue whose foreign lock spins through {@code context}. */
    public WorkStealingQueue(SpinContext context) {
        this(context, INITIAL_SIZE);
    }

    /**
     * A queue whose array starts with {@code initialSize} slots (.NET: always 32). Small arrays
     * make tests and model checkers reach the locked and growing paths quickly.
     *
     * @param initialSize a power of two, 2..2^30
     */
    public WorkStealingQueue(SpinContext context, int initialSize) {
        if (initialSize < 2 || initialSize > MAX_SIZE || Integer.bitCount(initialSize) != 1) {
            throw new IllegalArgumentException("initialSize = " + initialSize + " is not a power of two in 2.."
                    + MAX_SIZE);
        }
        this.foreignLock = new SpinLock(Objects.requireNonNull(context, "context"), false);
        this.array = new Object[initialSize];
        this.mask = initialSize - 1;
    }

    /**
     * A per-thread flag that {@link #trySteal(MissedSteal)} sets when it gave up because the
     * queue was busy while it held elements. Not thread-safe: one per stealing thread.
     */
    public static final class MissedSteal {
        private boolean missed;

        /** True if a steal was missed since the last {@link #clear()}. */
        public boolean missed() {
            return missed;
        }

        public void clear() {
            missed = false;
        }

        void set() {
            missed = true;
        }
    }

    /**
     * Owner only: pushes {@code element} at the tail.
     *
     * @throws NullPointerException if {@code element} is null
     */
    public void push(E element) {
        Objects.requireNonNull(element, "element");
        int t = tail;
        if (t == Integer.MAX_VALUE) {
            t = handleTailOverflow();
        }
        int m = mask;
        if (t < head + m) {
            // At least two free slots: no thief can touch slot t.
            array[t & m] = element;
            TAIL.setRelease(this, t + 1); // LP
            return;
        }
        foreignLock.enter();
        try {
            int h = head;
            int count = tail - h;
            if (count >= mask) {
                grow(h, count);
                t = count;
            }
            array[t & mask] = element;
            TAIL.setRelease(this, t + 1); // LP
        } finally {
            foreignLock.exit(false);
        }
    }

    /** Under the lock: doubles the array, copying in head order, head becomes 0. */
    private void grow(int h, int count) {
        Object[] old = array;
        if (old.length >= MAX_SIZE) {
            throw new IllegalStateException("WorkStealingQueue is full: " + count + " elements");
        }
        int m = mask;
        Object[] bigger = new Object[old.length << 1];
        for (int i = 0; i < old.length; i++) {
            bigger[i] = old[(i + h) & m];
        }
        ARRAY.setRelease(this, bigger);
        HEAD.setRelease(this, 0);
        TAIL.setRelease(this, count);
        MASK.setRelease(this, (m << 1) | 1);
    }

    private int handleTailOverflow() {
        foreignLock.enter();
        try {
            int t = tail;
            if (t == Integer.MAX_VALUE) {
                int m = mask;
                HEAD.setRelease(this, head & m);
                t = t & m;
                TAIL.setRelease(this, t);
                assert head <= tail;
            }
            return t;
        } finally {
            foreignLock.exit(true);
        }
    }

    /** Owner only: removes and returns the newest element, or null if empty. */
    @SuppressWarnings("unchecked")
    public E pop() {
        for (;;) {
            int t = tail;
            if (head >= t) {
                return null; // LP (empty)
            }
            t--;
            tail = t; // a volatile write: the read of head below cannot move before it
            if (head <= t) {
                int slot = t & mask;
                Object item = array[slot];
                array[slot] = null;
                assert item != null : "slot " + slot + " empty inside head..tail";
                return (E) item;
            }
            // 0 or 1 elements and a thief may be racing for it: decide under the lock.
            foreignLock.enter();
            try {
                if (head <= t) {
                    int slot = t & mask;
                    Object item = array[slot];
                    array[slot] = null;
                    return (E) item;
                }
                TAIL.setRelease(this, t + 1); // a thief took it: restore
                return null;
            } finally {
                foreignLock.exit(false);
            }
        }
    }

    /** True if the queue looks non-empty (a hint for thieves). */
    public boolean canSteal() {
        return head < tail;
    }

    /** Steals the oldest element, or returns null if empty or busy (a missed steal is not reported). */
    public E trySteal() {
        return trySteal(null);
    }

    /**
     * Steals the oldest element. Returns null if the queue is empty, or if it was busy (the
     * lock was held, or the owner raced for the last element), in which case {@code missed}
     * (if not null) is set.
     */
    @SuppressWarnings("unchecked")
    public E trySteal(MissedSteal missed) {
        if (!canSteal()) {
            return null;
        }
        if (foreignLock.tryEnter()) {
            try {
                int h = head;
                head = h + 1; // a volatile write: the read of tail below cannot move before it
                if (h < tail) {
                    int slot = h & mask;
                    Object item = array[slot];
                    array[slot] = null;
                    assert item != null : "slot " + slot + " empty inside head..tail";
                    return (E) item; // LP: the write of head above
                }
                HEAD.setRelease(this, h); // the owner popped it: restore
            } finally {
                foreignLock.exit(false);
            }
        }
        if (missed != null) {
            missed.set();
        }
        return null;
    }

    /** Elements in the queue (a snapshot that may be off by the operations in flight). */
    public int size() {
        return Math.max(0, tail - head);
    }

    /** True if the queue looks empty. */
    public boolean isEmpty() {
        return !canSteal();
    }

    /** Owner only: removes every element (newest first) and hands each to {@code sink}. */
    public void clearOwner(Consumer<? super E> sink) {
        for (E e = pop(); e != null; e = pop()) {
            sink.accept(e);
        }
    }

    @Override
    public String toString() {
        return "WorkStealingQueue[size=" + size() + ", capacity=" + array.length + "]";
    }
}
