package io.spinlab.reports.bench;

import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.impl.spin.SpinContext;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Acquire/release of {@link SemaphoreSlim} (hardware context, {@code current} tuning) against a
 * non-fair {@link Semaphore}, both with one permit, so that with two threads one of them waits
 * (SemaphoreSlim spins, then blocks; Semaphore parks). The permit guards a counter increment.
 *
 * <p>Why this peer: {@code Semaphore(1)} non-fair is the JDK's counting semaphore with the same
 * barging admission as SemaphoreSlim (an arriving thread may take a released permit ahead of a
 * waiter), so the pair compares the waiting strategy, not the admission policy. Contended
 * benchmarks count each thread's acquisitions ({@link AcquisitionLedger}) for the fairness column.
 *
 * <p>Scenarios: {@code uncontended} (one thread) and {@code contended} (two threads). Names follow
 * the {@link BenchName} convention.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SemaphoreBenchmark {

    private final SemaphoreSlim semaphoreSlim = new SemaphoreSlim(SpinContext.hardware(), 1);
    private final Semaphore semaphore = new Semaphore(1);
    /** Guarded by the permit of the benchmark that runs (one per fork). */
    private long counter;

    @Benchmark
    @Threads(1)
    public long spinlab_semaphoreSlim_uncontended() throws InterruptedException {
        return semaphoreSlimIncrement();
    }

    @Benchmark
    @Threads(1)
    public long peer_semaphore_uncontended() throws InterruptedException {
        return semaphoreIncrement();
    }

    @Benchmark
    @Threads(2)
    public long spinlab_semaphoreSlim_contended(AcquisitionLedger.PerThread acquisitions)
            throws InterruptedException {
        acquisitions.acquired();
        return semaphoreSlimIncrement();
    }

    @Benchmark
    @Threads(2)
    public long peer_semaphore_contended(AcquisitionLedger.PerThread acquisitions) throws InterruptedException {
        acquisitions.acquired();
        return semaphoreIncrement();
    }

    private long semaphoreSlimIncrement() throws InterruptedException {
        semaphoreSlim.acquire();
        try {
            return ++counter;
        } finally {
            semaphoreSlim.release();
        }
    }

    private long semaphoreIncrement() throws InterruptedException {
        semaphore.acquire();
        try {
            return ++counter;
        } finally {
            semaphore.release();
        }
    }
}
