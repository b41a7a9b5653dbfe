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

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * Push+pop pairs on {@link ConcurrentStack} (a LIFO queue; hardware context, {@code current}
 * tuning) against {@link ConcurrentLinkedDeque} used as a stack ({@code push}/{@code pollFirst}).
 * Scenarios: {@code oneThread}, {@code twoThreads}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConcurrentStackQueueBenchmark {

    private static final Integer ITEM = 42;

    private final ConcurrentStack<Integer> stack = new ConcurrentStack<>(SpinContext.hardware());
    private final ConcurrentLinkedDeque<Integer> deque = new ConcurrentLinkedDeque<>();

    @Benchmark
    @Threads(1)
    public Integer spinlab_concurrentStack_oneThread() {
        stack.push(ITEM);
        return stack.pop();
    }

    @Benchmark
    @Threads(1)
    public Integer peer_concurrentLinkedDeque_oneThread() {
        deque.push(ITEM);
        return deque.pollFirst();
    }

    @Benchmark
    @Threads(2)
    public Integer spinlab_concurrentStack_twoThreads() {
        stack.push(ITEM);
        return stack.pop();
    }

    @Benchmark
    @Threads(2)
    public Integer peer_concurrentLinkedDeque_twoThreads() {
        deque.push(ITEM);
        return deque.pollFirst();
    }
}
