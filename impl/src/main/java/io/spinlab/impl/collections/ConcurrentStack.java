package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An unbounded last-in-first-out stack of non-null elements: the equivalent of .NET's
 * {@code ConcurrentStack<T>}, a Treiber stack. A push that loses a race spins once with a
 * {@link SpinWait} before retrying; a pop that loses a race backs off exponentially with random
 * jitter (bounded by 8 yields, randomness from the {@code Platform}) so that contending poppers
 * do not retry in lock-step. Both spins sleep 1 ms from the 20th lost race in .NET Core 2.x and
 * never since 3.0 (knob {@code stack-spin}; dotnet/corefx #34288).
 *
 * <p>Progress: lock-free. {@link #push}, {@link #pop}, {@link #peek}, {@link #isEmpty},
 * {@link #pushRange} and {@link #popRange} are linearizable (a range moves atomically).
 * {@link #size} and {@link #toList} walk one snapshot of the stack and are exact for that
 * moment. One node is allocated per element.
 *
 * @param <E> the element type
 */
public final class ConcurrentStack<E> {
    /*
     * Implementation notes.
     *
     * Invariants: nodes are immutable once published (item is final; next is written only
     * before the CAS that publishes the node), so a snapshot of head is a consistent list;
     * there is no ABA problem because a node is never reused (the garbage collector keeps a
     * node alive while any thread holds it).
     *
     * Linearization points: push at its successful head CAS; pop at its successful head CAS,
     * or (empty) at the read of head that returns null; peek and the walks at their read of head.
     *
     * Memory ordering: head is volatile; a node's fields are written before the volatile CAS
     * that publishes it and read after a volatile read of head, so they need no fence of their own.
     *
     * Spin/wait policy (ConcurrentStack.cs): PushCore retries after one SpinOnce each time;
     * TryPopCore after a failed CAS spins `backoff` SpinOnce(sleep1Threshold: −1) and then,
     * once the SpinWait would yield, picks backoff uniformly in [1, 8), otherwise doubles it.
     *
     * Why not simpler: a plain CAS retry loop collapses under contention because every popper
     * retries at the same moment; the randomized back-off is the .NET answer.
     */

    /** Upper bound (exclusive) of the randomized back-off once spinning turns to yielding. */
    static final int BACKOFF_MAX_YIELDS = 8;

    private final SpinContext context;
    private volatile Node<E> head;

    /** A stack for real hardware with the current tuning. */
    public ConcurrentStack() {
        this(SpinContext.hardware());
    }

    /** A stack whose back-off goes through {@code context}. */
    public ConcurrentStack(SpinContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /**
     * Pushes {@code element} on top.
     *
     * @throws NullPointerException if {@code element} is null
     */
    public void push(E element) {
        Objects.requireNonNull(element, "element");
        Node<E> h = head;
        Node<E> node = new Node<>(element, h);
        if (HEAD.compareAndSet(this, h, node)) {
            return;
        }
        pushCore(node, node);
    }

    /**
     * Pushes all {@code elements} atomically: afterwards the last one is on top, and no other
     * operation sees only some of them.
     *
     * @throws NullPointerException if the list or any element is null
     */
    public void pushRange(List<? extends E> elements) {
        if (elements.isEmpty()) {
            return;
        }
        Node<E> bottom = new Node<>(Objects.requireNonNull(elements.get(0), "element"), null);
        Node<E> top = bottom;
        for (int i = 1; i < elements.size(); i++) {
            top = new Node<>(Objects.requireNonNull(elements.get(i), "element"), top);
        }
        pushCore(top, bottom);
    }

    /** Links the chain top..bottom above the current head; bottom.next is rewritten per try. */
    private void pushCore(Node<E> top, Node<E> bottom) {
        SpinWait spinner = new SpinWait(context);
        for (;;) {
            Node<E> h = head;
            bottom.next = h;
            // LP: the CAS that installs top.
            if (HEAD.compareAndSet(this, h, top)) {
                return;
            }
            spinner.spinOnce(context.tuning().stackSpin().sleep1Threshold());
        }
    }

    /** Removes and returns the top element, or null if the stack is empty. */
    public E pop() {
        Node<E> h = head;
        if (h == null) {
            return null; // LP (empty)
        }
        if (HEAD.compareAndSet(this, h, h.next)) {
            return h.item;
        }
        Node<E> popped = popCore(1);
        return popped == null ? null : popped.item;
    }

    /**
     * Removes up to {@code max} elements atomically, top first.
     *
     * @return the removed elements, top first; empty if the stack was empty
     * @throws IllegalArgumentException if {@code max} is not positive
     */
    public List<E> popRange(int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("max = " + max + " is not positive; allowed 1.." + Integer.MAX_VALUE);
        }
        Node<E> first = popCore(max);
        List<E> out = new ArrayList<>();
        for (Node<E> n = first; n != null && out.size() < max; n = n.next) {
            out.add(n.item);
        }
        return out;
    }

    /**
     * Detaches up to {@code count} nodes from the top with randomized exponential back-off.
     *
     * @return the first detached node (its chain holds the rest), or null if empty
     */
    private Node<E> popCore(int count) {
        Platform platform = context.platform();
        SpinWait spinner = new SpinWait(context);
        int backoff = 1;
        for (;;) {
            Node<E> h = head;
            if (h == null) {
                return null; // LP (empty)
            }
            Node<E> next = h;
            for (int taken = 1; taken < count && next.next != null; taken++) {
                next = next.next;
            }
            // LP: the CAS that detaches h..next.
            if (HEAD.compareAndSet(this, h, next.next)) {
                return h;
            }
            for (int i = 0; i < backoff; i++) {
                spinner.spinOnce(context.tuning().stackSpin().sleep1Threshold());
            }
            if (spinner.nextSpinWillYield()) {
                backoff = 1 + platform.nextRandom(BACKOFF_MAX_YIELDS - 1);
            } else {
                backoff = Math.min(backoff * 2, Integer.MAX_VALUE / 2);
            }
        }
    }

    /** The top element without removing it, or null if the stack is empty. */
    public E peek() {
        Node<E> h = head; // LP
        return h == null ? null : h.item;
    }

    /** True if the stack is empty at the moment of the call. */
    public boolean isEmpty() {
        return head == null;
    }

    /** The number of elements in one snapshot (an O(n) walk, as in .NET). */
    public int size() {
        int n = 0;
        for (Node<E> node = head; node != null; node = node.next) {
            if (n == Integer.MAX_VALUE) {
                break;
            }
            n++;
        }
        return n;
    }

    /** The elements of one snapshot, top first. */
    public List<E> toList() {
        List<E> out = new ArrayList<>();
        for (Node<E> node = head; node != null; node = node.next) {
            out.add(node.item);
        }
        return out;
    }

    /** Removes every element atomically. */
    public void clear() {
        HEAD.setRelease(this, null); // .NET: "_head = null", a volatile field's release store
    }

    @Override
    public String toString() {
        return "ConcurrentStack" + toList();
    }

    /**
     * A stack node. {@code next} is written only before the node is published (and, by
     * {@link #pushCore}, rewritten before each publishing attempt), so it behaves as final.
     */
    static final class Node<E> {
        final E item;
        Node<E> next;

        Node(E item, Node<E> next) {
            this.item = item;
            this.next = next;
        }
    }

    // VarHandle mechanics
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(ConcurrentStack.class, "head", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
