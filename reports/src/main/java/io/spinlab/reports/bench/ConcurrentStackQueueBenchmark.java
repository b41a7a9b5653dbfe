package io.spinlab.reports.bench;

import io.spinlab.impl.collections.ConcurrentStack;
import io.spinlab.impl.spin.SpinContext;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Push+pop pairs on {@link ConcurrentStack} (a Treiber stack with back-off; hardware context,
 * {@code current} tuning) against a plain Treiber stack: one {@code AtomicReference} head, a node
 * per push, a CAS retry loop with no back-off. Scenarios: {@code oneThread}, {@code twoThreads}.
 *
 * <p>Why this peer: it is the same algorithm without .NET's contention handling, so the pair
 * prices exactly that handling (the {@code SpinWait} after a lost push race, the randomized
 * back-off after a lost pop race). The JDK has no lock-free stack; the earlier peer,
 * {@code ConcurrentLinkedDeque} used as a stack, is a doubly linked deque whose every push and
 * pop does more work than a stack needs, so it flattered ConcurrentStack.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConcurrentStackQueueBenchmark {

    private static final Integer ITEM = 42;

    private final ConcurrentStack<Integer> stack = new ConcurrentStack<>(SpinContext.hardware());
    private final TreiberStack<Integer> treiber = new TreiberStack<>();

    /** The textbook lock-free stack (Treiber 1986): CAS the head, retry at once on failure. */
    static final class TreiberStack<E> {
        private final AtomicReference<Node<E>> head = new AtomicReference<>();

        /** A stack node; {@code next} is written before the node is published by the head CAS. */
        private static final class Node<E> {
            final E item;
            Node<E> next;

            Node(E item) {
                this.item = item;
            }
        }

        void push(E item) {
            Node<E> node = new Node<>(item);
            for (;;) {
                Node<E> top = head.get();
                node.next = top;
                if (head.compareAndSet(top, node)) {
                    return;
                }
            }
        }

        E pop() {
            for (;;) {
                Node<E> top = head.get();
                if (top == null) {
                    return null;
                }
                if (head.compareAndSet(top, top.next)) {
                    return top.item;
                }
            }
        }
    }

    @Benchmark
    @Threads(1)
    public Integer spinlab_concurrentStack_oneThread() {
        stack.push(ITEM);
        return stack.pop();
    }

    @Benchmark
    @Threads(1)
    public Integer peer_treiberStack_oneThread() {
        treiber.push(ITEM);
        return treiber.pop();
    }

    @Benchmark
    @Threads(2)
    public Integer spinlab_concurrentStack_twoThreads() {
        stack.push(ITEM);
        return stack.pop();
    }

    @Benchmark
    @Threads(2)
    public Integer peer_treiberStack_twoThreads() {
        treiber.push(ITEM);
        return treiber.pop();
    }
}
