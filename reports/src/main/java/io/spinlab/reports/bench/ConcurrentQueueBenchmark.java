package io.spinlab.reports.bench;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.impl.spin.SpinContext;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Offer+poll pairs on {@link ConcurrentQueue} and the legacy {@link QueueSegmentQueue}
 * (hardware context, {@code current} tuning) against {@link ConcurrentLinkedQueue}: each
 * operation offers one element and polls one (its own or another thread's), so the queue stays
 * near empty and producers and consumers meet at the same end, the hard case for a segmented
 * ring. Scenarios: {@code oneThread}, {@code twoThreads}.
 *
 * <p>Why this peer: {@code ConcurrentLinkedQueue} is the JDK's unbounded lock-free MPMC queue,
 * what a Java user would reach for; it allocates a node per element, which the ring avoids, so
 * it is the easy peer. The hard one, JCTools' chunked xadd queue, is in
 * {@link ConcurrentQueueJctoolsQueueBenchmark}. Names follow {@code BenchName}
 * ({@code spinlab_subject_scenario} against the one {@code peer_subject_scenario}).
 *
 * <p>Allocation: run the {@code concurrentQueue} benchmarks with {@code -prof gc}; in steady
 * state the ring's slots are reused, so nothing is allocated per element (the element here is a
 * cached Integer).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConcurrentQueueBenchmark {

    private static final Integer ITEM = 42;

    private final ConcurrentQueue<Integer> concurrentQueue = new ConcurrentQueue<>(SpinContext.hardware());
    private final QueueSegmentQueue<Integer> queueSegmentQueue = new QueueSegmentQueue<>(SpinContext.hardware());
    private final ConcurrentLinkedQueue<Integer> concurrentLinkedQueue = new ConcurrentLinkedQueue<>();

    @Benchmark
    @Threads(1)
    public Integer spinlab_concurrentQueue_oneThread() {
        concurrentQueue.offer(ITEM);
        return concurrentQueue.poll();
    }

    @Benchmark
    @Threads(1)
    public Integer spinlab_queueSegmentQueue_oneThread() {
        queueSegmentQueue.offer(ITEM);
        return queueSegmentQueue.poll();
    }

    @Benchmark
    @Threads(1)
    public Integer peer_concurrentLinkedQueue_oneThread() {
        concurrentLinkedQueue.offer(ITEM);
        return concurrentLinkedQueue.poll();
    }

    @Benchmark
    @Threads(2)
    public Integer spinlab_concurrentQueue_twoThreads() {
        concurrentQueue.offer(ITEM);
        return concurrentQueue.poll();
    }

    @Benchmark
    @Threads(2)
    public Integer spinlab_queueSegmentQueue_twoThreads() {
        queueSegmentQueue.offer(ITEM);
        return queueSegmentQueue.poll();
    }

    @Benchmark
    @Threads(2)
    public Integer peer_concurrentLinkedQueue_twoThreads() {
        concurrentLinkedQueue.offer(ITEM);
        return concurrentLinkedQueue.poll();
    }
}
