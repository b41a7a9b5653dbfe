package io.spinlab.impl.spin;

import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.SpinWaitShape;

/**
 * What one {@code SpinWait.SpinOnce} at a given count does: one class per shipped shape (knob
 * {@code spinwait}). Stateless; the count lives in {@link SpinWait}.
 */
interface SpinOnceSchedule {

    /** True if the iteration at {@code count} gives up the processor instead of spinning. */
    boolean yieldsAt(int count, boolean singleProcessor);

    /** Runs the iteration at {@code count}; {@code sleep1Threshold} −1 never sleeps 1 ms. */
    void spinOnce(SpinContext context, int count, int sleep1Threshold);

    /** The schedule of a knob value. */
    static SpinOnceSchedule of(SpinWaitShape shape) {
        return switch (shape) {
            case EXPONENTIAL -> Exponential.INSTANCE;
            case CAPPED -> Capped.INSTANCE;
        };
    }

    /**
     * .NET Core 2.0 ({@code src/mscorlib/src/System/Threading/SpinWait.cs} before dotnet/coreclr
     * #13670; read at dotnet/runtime e2d70ff4, the imported coreclr history). {@code NextSpinWillYield}
     * is {@code count > 10}: counts 0–10 call {@code Thread.SpinWait(4 << count)}, 4 … 4,096, 8,188
     * in all; from count 11 every iteration yields, numbered from count − 10: a Sleep(1) when that
     * number is 19 mod 20 (counts 29, 49, …), a Sleep(0) when it is 4 mod 5, else a yield. On one
     * processor every iteration yields, numbered from 0 below count 10.
     */
    final class Exponential implements SpinOnceSchedule {
        static final Exponential INSTANCE = new Exponential();
        static final int SLEEP1_EVERY_HOW_MANY_YIELDS = 20;

        private Exponential() {
        }

        @Override
        public boolean yieldsAt(int count, boolean singleProcessor) {
            return count > SpinWait.YIELD_THRESHOLD || singleProcessor;
        }

        @Override
        public void spinOnce(SpinContext context, int count, int sleep1Threshold) {
            if (!yieldsAt(count, context.singleProcessor())) {
                context.spinWait(4 << count);
                return;
            }
            Platform platform = context.platform();
            int yieldsSoFar = count >= SpinWait.YIELD_THRESHOLD ? count - SpinWait.YIELD_THRESHOLD : count;
            int every = SpinWait.SLEEP0_EVERY_HOW_MANY_YIELDS;
            if (sleep1Threshold >= 0 && yieldsSoFar % SLEEP1_EVERY_HOW_MANY_YIELDS == SLEEP1_EVERY_HOW_MANY_YIELDS - 1) {
                platform.sleep(SpinWait.SLEEP1_NANOS);
            } else if (yieldsSoFar % every == every - 1) {
                platform.sleep(0);
            } else {
                platform.yieldThread();
            }
        }
    }

    /**
     * Since dotnet/coreclr #13670 ({@code src/mscorlib/shared/System/Threading/SpinWait.cs} @
     * 26654ca1): counts 0–9 call {@code Thread.SpinWait(min(2^count, OptimalMaxSpinWaitsPerSpinIteration))};
     * from count 10 on, even counts yield and odd ones spin the cap, every 5th yield is a Sleep(0),
     * and from the Sleep(1) threshold on every iteration sleeps 1 ms. On one processor every
     * iteration yields.
     */
    final class Capped implements SpinOnceSchedule {
        static final Capped INSTANCE = new Capped();

        private Capped() {
        }

        @Override
        public boolean yieldsAt(int count, boolean singleProcessor) {
            return count >= SpinWait.YIELD_THRESHOLD || singleProcessor;
        }

        @Override
        public void spinOnce(SpinContext context, int count, int sleep1Threshold) {
            boolean sleep1Due = sleep1Threshold >= 0 && count >= sleep1Threshold;
            int threshold = SpinWait.YIELD_THRESHOLD;
            boolean yieldTurn = count >= threshold && (sleep1Due || ((count - threshold) & 1) == 0);
            if (context.singleProcessor() || yieldTurn) {
                Platform platform = context.platform();
                if (sleep1Due) {
                    platform.sleep(SpinWait.SLEEP1_NANOS);
                } else {
                    int yieldsSoFar = count >= threshold ? (count - threshold) / 2 : count;
                    int every = SpinWait.SLEEP0_EVERY_HOW_MANY_YIELDS;
                    if (yieldsSoFar % every == every - 1) {
                        platform.sleep(0);
                    } else {
                        platform.yieldThread();
                    }
                }
                return;
            }
            int n = context.optimalMaxSpinWaitsPerSpinIteration();
            if (count <= 30 && (1 << count) < n) {
                n = 1 << count;
            }
            context.spinWait(n);
        }
    }
}
