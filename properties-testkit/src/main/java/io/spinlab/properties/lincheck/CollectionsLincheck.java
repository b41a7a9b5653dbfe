package io.spinlab.properties.lincheck;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.Tuning;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

import java.util.concurrent.locks.LockSupport;

/**
 * Shared settings of the collection and pool Lincheck tests: CI-sized budgets from the
 * {@code spinlab.lincheck.iterations} / {@code spinlab.lincheck.invocations} system properties
 * (10 × 1,000 by default), and a {@link SpinContext} whose platform keeps model checking
 * deterministic: no PAUSE loops, no 1 ms sleeps (a Sleep becomes a yield), randomness from a
 * per-instance generator instead of {@code ThreadLocalRandom}, and {@code pause=raw} so that no
 * PAUSE calibration reads the clock.
 */
final class CollectionsLincheck {

    private CollectionsLincheck() {
    }

    static int iterations() {
        return Integer.getInteger("spinlab.lincheck.iterations", 10);
    }

    static int invocations() {
        return Integer.getInteger("spinlab.lincheck.invocations", 1000);
    }

    static ModelCheckingOptions modelChecking(Class<?> spec) {
        return new ModelCheckingOptions()
                .iterations(iterations())
                .invocationsPerIteration(invocations())
                .sequentialSpecification(spec);
    }

    static StressOptions stress(Class<?> spec) {
        return new StressOptions()
                .iterations(iterations())
                .invocationsPerIteration(invocations())
                .sequentialSpecification(spec);
    }

    /** The generation the structures are built under: the newest, unless {@link #checkUnder} says otherwise. */
    private static volatile Tuning tuning = Tuning.current();

    /** A fresh context per structure under test (Lincheck creates one test instance per invocation). */
    static SpinContext context() {
        return SpinContext.of(new CheckedPlatform(), tuning.with(Knob.PAUSE, PauseMode.RAW));
    }

    /**
     * Runs {@code check} with the structures built under {@code generation}'s tuning (its spin on a
     * lost race: where it sleeps, where it yields), then goes back to the newest. Lincheck builds
     * every test instance on the thread that runs the check, so the setting reaches each one.
     */
    static void checkUnder(String generation, Runnable check) {
        Tuning previous = tuning;
        tuning = Tuning.parse(generation);
        try {
            check.run();
        } finally {
            tuning = previous;
        }
    }

    /** A platform for checked code: real park/unpark, no busy PAUSE, deterministic jitter. */
    static final class CheckedPlatform implements Platform {
        private long seed = 0x9E3779B97F4A7C15L;

        @Override
        public int processorCount() {
            return 2;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void pause(int count) {
            // Nothing: the checker switches threads at the shared accesses around a spin anyway.
        }

        @Override
        public void yieldThread() {
            Thread.yield();
        }

        @Override
        public void sleep(long nanos) {
            Thread.yield();
        }

        @Override
        public void park(Object blocker) {
            LockSupport.park(blocker);
        }

        @Override
        public void parkNanos(Object blocker, long nanos) {
            if (nanos > 0) {
                LockSupport.parkNanos(blocker, nanos);
            }
        }

        @Override
        public void unpark(Thread thread) {
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }

        @Override
        public Thread startThread(String name, Runnable task) {
            throw new UnsupportedOperationException("no threads are started under the checker");
        }

        @Override
        public int nextRandom(int bound) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            return (int) ((seed >>> 33) % bound);
        }
    }
}
