package io.spinlab.reports.bench;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The QUWI chains of {@link QuwiPoolBenchmark} with a {@link ForkJoinPool} of the processor
 * count as the peer (its workers, like ours, queue from inside a work item to their own local
 * queue). Scenarios: {@code serial} and {@code twoDrivers}; score × depth = work items per µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QuwiForkJoinPoolBenchmark {

    @Param({"1", "16"})
    public int depth;

    private ThreadPool current;
    private ForkJoinPool forkJoinPool;

    @Setup(Level.Trial)
    public void start() {
        current = ThreadPool.builder(SpinContext.hardware()).name("bench-current").build();
        forkJoinPool = new ForkJoinPool(Runtime.getRuntime().availableProcessors());
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        current.shutdown();
        forkJoinPool.shutdown();
        current.awaitTermination(10, TimeUnit.SECONDS);
        forkJoinPool.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Benchmark
    @Threads(1)
    public void spinlab_threadPool_serial() throws InterruptedException {
        QuwiPoolBenchmark.Chain.run(current, depth);
    }

    @Benchmark
    @Threads(1)
    public void peer_forkJoinPool_serial() throws InterruptedException {
        QuwiPoolBenchmark.Chain.run(forkJoinPool, depth);
    }

    @Benchmark
    @Threads(2)
    public void spinlab_threadPool_twoDrivers() throws InterruptedException {
        QuwiPoolBenchmark.Chain.run(current, depth);
    }

    @Benchmark
    @Threads(2)
    public void peer_forkJoinPool_twoDrivers() throws InterruptedException {
        QuwiPoolBenchmark.Chain.run(forkJoinPool, depth);
    }
}
