package io.spinlab.impl.spin;

import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.SpinPolicy;

import java.util.function.Predicate;

/**
 * The spin phase a waiter runs before it blocks (ManualResetEvent, Task): the {@code spin} knob.
 * Strategies are stateless and shared; the waiter passes its target and a non-capturing
 * predicate so that no object is allocated per wait.
 */
public interface SpinBeforeBlock {

    /**
     * Spins up to {@code spinCount} iterations, returning as soon as {@code condition} holds.
     *
     * @return true if the condition held during the spin
     */
    <T> boolean spin(SpinContext context, int spinCount, T target, Predicate<? super T> condition);

    /** The spin count this policy uses when the primitive's creator does not choose one. */
    int defaultSpinCount(Platform platform);

    /** The strategy for a knob value. */
    static SpinBeforeBlock of(SpinPolicy policy) {
        return switch (policy) {
            case PROC_SCALED -> ScaledSpin.PROC_SCALED;
            case UNSCALED -> ScaledSpin.UNSCALED;
            case SPINONCE -> SpinOnceSpin.INSTANCE;
            case NONE -> NoSpin.INSTANCE;
        };
    }

    /**
     * .NET Core 2.0's own loop: for i below 10, {@code Thread.SpinWait(multiplier × (4 << i))} with a
     * yield at i = 5; from 10 on, Sleep(1) every 20th, Sleep(0) every 5th, else yield. The
     * multiplier is the processor count ({@code proc-scaled}) or 1 ({@code unscaled}, dotnet/coreclr #13631).
     */
    final class ScaledSpin implements SpinBeforeBlock {
        static final ScaledSpin PROC_SCALED = new ScaledSpin(true);
        static final ScaledSpin UNSCALED = new ScaledSpin(false);
        /** Default spin count on a multi-processor: 10. */
        static final int DEFAULT_SPIN_COUNT = SpinWait.YIELD_THRESHOLD;
        static final int YIELD_AT = 5;

        private final boolean scaleByProcessors;

        private ScaledSpin(boolean scaleByProcessors) {
            this.scaleByProcessors = scaleByProcessors;
        }

        @Override
        public <T> boolean spin(SpinContext context, int spinCount, T target, Predicate<? super T> condition) {
            Platform platform = context.platform();
            int multiplier = scaleByProcessors ? context.processorCount() : 1;
            context.beginSpinLoop();
            for (int i = 0; i < spinCount; i++) {
                if (condition.test(target)) {
                    return true;
                }
                if (i < SpinWait.YIELD_THRESHOLD) {
                    if (i == YIELD_AT) {
                        platform.yieldThread();
                    } else {
                        context.spinWait(saturatedProduct(multiplier, 4 << i));
                    }
                } else if (i % 20 == 0) {
                    platform.sleep(SpinWait.SLEEP1_NANOS);
                } else if (i % 5 == 0) {
                    platform.sleep(0);
                } else {
                    platform.yieldThread();
                }
            }
            return condition.test(target);
        }

        private static int saturatedProduct(int a, int b) {
            long product = (long) a * b;
            return (int) Math.min(Integer.MAX_VALUE, product);
        }

        @Override
        public int defaultSpinCount(Platform platform) {
            return platform.processorCount() == 1 ? 1 : DEFAULT_SPIN_COUNT;
        }

        @Override
        public String toString() {
            return scaleByProcessors ? "proc-scaled" : "unscaled";
        }
    }

    /** Since .NET Core 2.1: {@code spinCount} × {@code SpinOnce(sleep1Threshold: -1)}, default 35. */
    final class SpinOnceSpin implements SpinBeforeBlock {
        static final SpinOnceSpin INSTANCE = new SpinOnceSpin();

        @Override
        public <T> boolean spin(SpinContext context, int spinCount, T target, Predicate<? super T> condition) {
            SpinWait spinner = new SpinWait(context);
            while (spinner.count() < spinCount) {
                spinner.spinOnce(-1);
                if (condition.test(target)) {
                    return true;
                }
            }
            return condition.test(target);
        }

        @Override
        public int defaultSpinCount(Platform platform) {
            return platform.processorCount() == 1 ? 1 : SpinWait.SPIN_COUNT_FOR_SPIN_BEFORE_WAIT;
        }

        @Override
        public String toString() {
            return "spinonce";
        }
    }

    /** Block at once. */
    final class NoSpin implements SpinBeforeBlock {
        static final NoSpin INSTANCE = new NoSpin();

        @Override
        public <T> boolean spin(SpinContext context, int spinCount, T target, Predicate<? super T> condition) {
            return condition.test(target);
        }

        @Override
        public int defaultSpinCount(Platform platform) {
            return 0;
        }

        @Override
        public String toString() {
            return "none";
        }
    }
}
