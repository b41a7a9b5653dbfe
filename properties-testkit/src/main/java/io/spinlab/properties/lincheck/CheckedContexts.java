package io.spinlab.properties.lincheck;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.PauseNormalizer;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.ForwardingPlatform;
import io.spinlab.model.tuning.Tuning;

/**
 * The {@link SpinContext}s the linearizability tests build primitives with: the tuning under
 * test on real hardware, with two changes that keep Lincheck's model checker able to run the
 * code and that change no operation's result, only how long a spin lasts.
 *
 * <ul>
 *   <li>A PAUSE calibration fixed in advance. The model checker replaces {@code System.nanoTime}
 *       with a constant, so the sampled measurement, which PAUSEs until a microsecond has passed,
 *       would never end.</li>
 *   <li>At most {@value CheckedPlatform#MAX_PAUSES_PER_CALL} PAUSEs per {@code pause(n)}. The
 *       model checker takes a long loop that touches no shared memory for a livelock once every
 *       other thread has finished; the legacy spin lock's staged spin (up to tens of thousands of
 *       PAUSEs per step) is such a loop. Shorter spins also make stress runs reach the blocking
 *       paths more often.</li>
 * </ul>
 * The platform also reports at least two processors, so that the spin phases, which a
 * single-processor platform skips, run on any machine.
 */
public final class CheckedContexts {
    private CheckedContexts() {
    }

    /** A fresh context for {@code tuning}; each Lincheck invocation builds its own primitive with one. */
    static SpinContext of(Tuning tuning) {
        return SpinContext.of(CheckedPlatform.MULTIPROCESSOR, tuning, FixedPauseNormalizer.INSTANCE);
    }

    /**
     * A context whose platform reports one processor, where the primitives skip (or shorten) their
     * spin phases and a contender blocks at once: the way to make checks reach the blocking path.
     */
    static SpinContext singleProcessor(Tuning tuning) {
        return SpinContext.of(CheckedPlatform.SINGLE_PROCESSOR, tuning, FixedPauseNormalizer.INSTANCE);
    }

    /** {@link HardwarePlatform} with short PAUSE runs and a chosen processor count. */
    static final class CheckedPlatform extends ForwardingPlatform {
        static final int MAX_PAUSES_PER_CALL = 4;
        static final CheckedPlatform MULTIPROCESSOR = new CheckedPlatform(false);
        static final CheckedPlatform SINGLE_PROCESSOR = new CheckedPlatform(true);

        private final boolean singleProcessor;

        private CheckedPlatform(boolean singleProcessor) {
            super(HardwarePlatform.INSTANCE);
            this.singleProcessor = singleProcessor;
        }

        /** One when asked for; else the real count, but at least two. */
        @Override
        public int processorCount() {
            return singleProcessor ? 1 : Math.max(2, super.processorCount());
        }

        @Override
        public void pause(int count) {
            super.pause(Math.min(count, MAX_PAUSES_PER_CALL));
        }

        @Override
        public String toString() {
            return "checked(" + delegate() + (singleProcessor ? ", 1 processor" : "") + ")";
        }
    }

    /** The default calibration (a Skylake-class PAUSE), never re-measured. */
    public static final class FixedPauseNormalizer implements PauseNormalizer {
        public static final FixedPauseNormalizer INSTANCE = new FixedPauseNormalizer();

        private FixedPauseNormalizer() {
        }

        @Override
        public int yieldsPerNormalizedYield() {
            return DEFAULT_YIELDS_PER_NORMALIZED_YIELD;
        }

        @Override
        public int optimalMaxNormalizedYieldsPerSpinIteration() {
            return DEFAULT_OPTIMAL_MAX_NORMALIZED_YIELDS_PER_SPIN_ITERATION;
        }

        @Override
        public double nsPerPause() {
            return TARGET_NS_PER_NORMALIZED_YIELD;
        }

        @Override
        public void refreshIfDue() {
            // Fixed: nothing to measure.
        }

        @Override
        public String toString() {
            return "fixed(" + nsPerPause() + " ns/PAUSE)";
        }
    }
}
