package io.spinlab.reports.bench;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.Tuning;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * The cost of the {@link Platform} seam: a spin of {@code pauses} PAUSE instructions issued
 * through {@code Platform.pause(n)} on {@link HardwarePlatform}, and through a primitive's own
 * path ({@link SpinContext#spinWait(int)} with {@code pause=raw}, which is {@code platform.pause(n)}
 * behind a final field), against the same loop calling {@link Thread#onSpinWait()} directly.
 * The design promise: with only {@code HardwarePlatform} loaded the call is monomorphic and
 * inlines, so the ratio is 1 (goal: within 2 %).
 *
 * <p>The platform sits in a non-final field, as in the primitives, so the JIT cannot fold it to a
 * constant and must rely on the loaded class hierarchy or the call's type profile. Only
 * {@code HardwarePlatform} is loaded in the benchmark's fork, as in production.
 *
 * <p>Scenario {@code spin}, for each {@code pauses}; names follow the {@link BenchName} convention.
 * Only {@code HardwarePlatform} may call {@code Thread.onSpinWait} in {@code impl}; this
 * benchmark calls it directly for the baseline.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class SeamCostBenchmark {

    /** PAUSE instructions per op: 1 shows the call overhead best, 16 a typical short spin. */
    @Param({"1", "16"})
    public int pauses;

    private Platform platform;
    private SpinContext rawPauseContext;

    @Setup
    public void setUp() {
        platform = HardwarePlatform.INSTANCE;
        rawPauseContext = SpinContext.of(HardwarePlatform.INSTANCE, Tuning.current().with(Knob.PAUSE, PauseMode.RAW));
    }

    @Benchmark
    public void spinlab_platformPause_spin() {
        platform.pause(pauses);
    }

    @Benchmark
    public void spinlab_spinContextSpinWait_spin() {
        rawPauseContext.spinWait(pauses);
    }

    @Benchmark
    public void peer_onSpinWait_spin() {
        int n = pauses;
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }
}
