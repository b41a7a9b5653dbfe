package io.spinlab.reports.bench;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;

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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A chain-waiting QUWI benchmark (the simulator's {@code quwi} workload on real threads; the
 * published dotnet/coreclr #9234 table's drivers do not wait for their chains, see the
 * simulator's {@code QuwiSuite}): a driver queues a work item that queues the next one until the
 * chain is {@code depth} items long, then waits for the last; one operation = one chain, so work
 * items per µs = score × depth.
 * {@link ThreadPool} (current: net6's tuning; and legacy: netcore2.0's; both a ConcurrentQueue
 * global queue and per-item thread requests) against a fixed two-thread
 * {@link ThreadPoolExecutor}. Scenarios: {@code serial} (one driver) and {@code twoDrivers}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QuwiPoolBenchmark {

    @Param({"1", "16"})
    public int depth;

    private ThreadPool current;
    private ThreadPool legacy;
    private ExecutorService threadPoolExecutor;

    @Setup(Level.Trial)
    public void start() {
        current = ThreadPool.builder(SpinContext.hardware()).name("bench-current").build();
        legacy = ThreadPool.builder(SpinContext.hardware().withTuning(Tuning.legacy())).name("bench-legacy").build();
        threadPoolExecutor = new ThreadPoolExecutor(2, 2, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        current.shutdown();
        legacy.shutdown();
        threadPoolExecutor.shutdown();
        current.awaitTermination(10, TimeUnit.SECONDS);
        legacy.awaitTermination(10, TimeUnit.SECONDS);
        threadPoolExecutor.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Benchmark
    @Threads(1)
    public void spinlab_threadPool_serial() throws InterruptedException {
        Chain.run(current, depth);
    }

    @Benchmark
    @Threads(1)
    public void spinlab_threadPoolLegacy_serial() throws InterruptedException {
        Chain.run(legacy, depth);
    }

    @Benchmark
    @Threads(1)
    public void peer_threadPoolExecutor_serial() throws InterruptedException {
        Chain.run(threadPoolExecutor, depth);
    }

    @Benchmark
    @Threads(2)
    public void spinlab_threadPool_twoDrivers() throws InterruptedException {
        Chain.run(current, depth);
    }

    @Benchmark
    @Threads(2)
    public void spinlab_threadPoolLegacy_twoDrivers() throws InterruptedException {
        Chain.run(legacy, depth);
    }

    @Benchmark
    @Threads(2)
    public void peer_threadPoolExecutor_twoDrivers() throws InterruptedException {
        Chain.run(threadPoolExecutor, depth);
    }

    /** One QUWI chain: each link queues the next (a new work item, as QueueUserWorkItem does). */
    static final class Chain implements Runnable {
        private final Executor executor;
        private final int remaining;
        private final CountDownLatch done;

        private Chain(Executor executor, int remaining, CountDownLatch done) {
            this.executor = executor;
            this.remaining = remaining;
            this.done = done;
        }

        static void run(Executor executor, int depth) throws InterruptedException {
            CountDownLatch done = new CountDownLatch(1);
            executor.execute(new Chain(executor, depth, done));
            done.await();
        }

        @Override
        public void run() {
            if (remaining > 1) {
                executor.execute(new Chain(executor, remaining - 1, done));
            } else {
                done.countDown();
            }
        }
    }
}
