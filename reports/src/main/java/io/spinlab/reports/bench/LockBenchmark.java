package io.spinlab.reports.bench;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.spin.SpinContext;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Enter/exit of spinlab's locks against {@link ReentrantLock}: {@link SpinLock} in anonymous
 * mode (with {@code exit()}, a full-fence release as .NET's {@code Exit()}, and with
 * {@code exit(false)}, a release store as .NET's {@code Exit(false)}) and thread-tracking mode,
 * and {@link MonitorLock}, all built with {@link SpinContext#hardware()} (the {@code current}
 * tuning). The critical section increments a counter.
 *
 * <p>Two peers, because neither alone is fair to every subject:
 * <ul>
 *   <li>{@code reentrantLockUnfair} ({@code new ReentrantLock()}, barging): the JDK's fastest
 *       lock and the algorithm closest to ours, which all let an arriving thread take a free lock
 *       ahead of waiters;</li>
 *   <li>{@code reentrantLockFair} ({@code new ReentrantLock(true)}): FIFO hand-off, so what
 *       barging buys in throughput is visible, and what it costs in fairness: contended
 *       benchmarks count each thread's acquisitions ({@link AcquisitionLedger}), and the table
 *       prints the fewest over the most per iteration beside the throughput.</li>
 * </ul>
 *
 * <p>Scenarios: {@code uncontended} (one thread) and {@code contended} (two threads on one lock).
 * Names follow the {@link BenchName} convention, so {@link BenchRunner} pairs every
 * {@code spinlab_*_S} method with both {@code peer_*_S}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LockBenchmark {

    private final SpinLock spinLockAnonymous = new SpinLock(SpinContext.hardware(), false);
    private final SpinLock spinLockTracking = new SpinLock(SpinContext.hardware(), true);
    private final MonitorLock monitorLock = new MonitorLock(SpinContext.hardware());
    private final ReentrantLock reentrantLockUnfair = new ReentrantLock(false);
    private final ReentrantLock reentrantLockFair = new ReentrantLock(true);
    /** The critical section's work; guarded by the lock of the benchmark that runs (one per fork). */
    private long counter;

    // ---------------------------------------------------------------- uncontended

    @Benchmark
    @Threads(1)
    public long spinlab_spinLockAnonymous_uncontended() {
        return spinLockAnonymousIncrement(true);
    }

    @Benchmark
    @Threads(1)
    public long spinlab_spinLockAnonymousNoBarrier_uncontended() {
        return spinLockAnonymousIncrement(false);
    }

    @Benchmark
    @Threads(1)
    public long spinlab_spinLockTracking_uncontended() {
        return spinLockTrackingIncrement();
    }

    @Benchmark
    @Threads(1)
    public long spinlab_monitorLock_uncontended() {
        return monitorLockIncrement();
    }

    @Benchmark
    @Threads(1)
    public long peer_reentrantLockUnfair_uncontended() {
        return reentrantLockIncrement(reentrantLockUnfair);
    }

    @Benchmark
    @Threads(1)
    public long peer_reentrantLockFair_uncontended() {
        return reentrantLockIncrement(reentrantLockFair);
    }

    // ---------------------------------------------------------------- contended

    @Benchmark
    @Threads(2)
    public long spinlab_spinLockAnonymous_contended(AcquisitionLedger.PerThread acquisitions) {
        acquisitions.acquired();
        return spinLockAnonymousIncrement(true);
    }

    @Benchmark
    @Threads(2)
    public long spinlab_spinLockAnonymousNoBarrier_contended(AcquisitionLedger.PerThread acquisitions) {
        acquisitions.acquired();
        return spinLockAnonymousIncrement(false);
    }

    @Benchmark
    @Threads(2)
    public long spinlab_spinLockTracking_contended(AcquisitionLedger.PerThread acquisitions) {
        acquisitions.acquired();
        return spinLockTrackingIncrement();
    }

    @Benchmark
    @Threads(2)
    public long spinlab_monitorLock_contended(AcquisitionLedger.PerThread acquisitions) {
        acquisitions.acquired();
        return monitorLockIncrement();
    }

    @Benchmark
    @Threads(2)
    public long peer_reentrantLockUnfair_contended(AcquisitionLedger.PerThread acquisitions) {
        acquisitions.acquired();
        return reentrantLockIncrement(reentrantLockUnfair);
    }

    @Benchmark
    @Threads(2)
    public long peer_reentrantLockFair_contended(AcquisitionLedger.PerThread acquisitions) {
        acquisitions.acquired();
        return reentrantLockIncrement(reentrantLockFair);
    }

    // ---------------------------------------------------------------- critical sections

    private long spinLockAnonymousIncrement(boolean useMemoryBarrier) {
        spinLockAnonymous.enter();
        try {
            return ++counter;
        } finally {
            spinLockAnonymous.exit(useMemoryBarrier);
        }
    }

    private long spinLockTrackingIncrement() {
        spinLockTracking.enter();
        try {
            return ++counter;
        } finally {
            spinLockTracking.exit();
        }
    }

    private long monitorLockIncrement() {
        monitorLock.enter();
        try {
            return ++counter;
        } finally {
            monitorLock.exit();
        }
    }

    private long reentrantLockIncrement(ReentrantLock lock) {
        lock.lock();
        try {
            return ++counter;
        } finally {
            lock.unlock();
        }
    }
}
