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
 * Enter/exit of spinlab's locks against {@link ReentrantLock}: {@link SpinLock} in anonymous and
 * thread-tracking mode and {@link MonitorLock}, all built with {@link SpinContext#hardware()}
 * (the {@code current} tuning). The critical section increments a counter.
 *
 * <p>Scenarios: {@code uncontended} (one thread) and {@code contended} (two threads on one lock).
 * Names follow the {@link BenchName} convention, so {@link BenchRunner} pairs every
 * {@code spinlab_*_S} method with {@code peer_reentrantLock_S}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LockBenchmark {

    private final SpinLock spinLockAnonymous = new SpinLock(SpinContext.hardware(), false);
    private final SpinLock spinLockTracking = new SpinLock(SpinContext.hardware(), true);
    private final MonitorLock monitorLock = new MonitorLock(SpinContext.hardware());
    private final ReentrantLock reentrantLock = new ReentrantLock();
    /** The critical section's work; guarded by the lock of the benchmark that runs (one per fork). */
    private long counter;

    // ---------------------------------------------------------------- uncontended

    @Benchmark
    @Threads(1)
    public long spinlab_spinLockAnonymous_uncontended() {
        return spinLockAnonymousIncrement();
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
    public long peer_reentrantLock_uncontended() {
        return reentrantLockIncrement();
    }

    // ---------------------------------------------------------------- contended

    @Benchmark
    @Threads(2)
    public long spinlab_spinLockAnonymous_contended() {
        return spinLockAnonymousIncrement();
    }

    @Benchmark
    @Threads(2)
    public long spinlab_spinLockTracking_contended() {
        return spinLockTrackingIncrement();
    }

    @Benchmark
    @Threads(2)
    public long spinlab_monitorLock_contended() {
        return monitorLockIncrement();
    }

    @Benchmark
    @Threads(2)
    public long peer_reentrantLock_contended() {
        return reentrantLockIncrement();
    }

    // ---------------------------------------------------------------- critical sections

    private long spinLockAnonymousIncrement() {
        spinLockAnonymous.enter();
        try {
            return ++counter;
        } finally {
            spinLockAnonymous.exit();
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

    private long reentrantLockIncrement() {
        reentrantLock.lock();
        try {
            return ++counter;
        } finally {
            reentrantLock.unlock();
        }
    }
}
