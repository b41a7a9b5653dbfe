package io.spinlab.reports.bench;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.spin.SpinContext;

import org.jctools.queues.MpmcUnboundedXaddArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * The offer+poll pairs of {@link ConcurrentQueueBenchmark}, with JCTools'
 * {@link MpmcUnboundedXaddArrayQueue} (1,024-slot chunks, the fastest unbounded MPMC queue we
 * know of on the JVM) as the peer. Scenarios: {@code oneThread}, {@code twoThreads}.
 *
 * <p>Why this peer: like ConcurrentQueue it is a linked list of array segments that reuses
 * slots and allocates nothing per element, so the pair compares the index protocols (JCTools'
 * fetch-and-add against .NET's CAS on the tail index), not allocation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConcurrentQueueJctoolsQueueBenchmark {

    private static final Integer ITEM = 42;

    private final ConcurrentQueue<Integer> concurrentQueue = new ConcurrentQueue<>(SpinContext.hardware());
    private final MpmcUnboundedXaddArrayQueue<Integer> xaddQueue = new MpmcUnboundedXaddArrayQueue<>(1024);

    @Benchmark
    @Threads(1)
    public Integer spinlab_concurrentQueue_oneThread() {
        concurrentQueue.offer(ITEM);
        return concurrentQueue.poll();
    }

    @Benchmark
    @Threads(1)
    public Integer peer_mpmcUnboundedXadd_oneThread() {
        xaddQueue.offer(ITEM);
        return xaddQueue.poll();
    }

    @Benchmark
    @Threads(2)
    public Integer spinlab_concurrentQueue_twoThreads() {
        concurrentQueue.offer(ITEM);
        return concurrentQueue.poll();
    }

    @Benchmark
    @Threads(2)
    public Integer peer_mpmcUnboundedXadd_twoThreads() {
        xaddQueue.offer(ITEM);
        return xaddQueue.poll();
    }
}
