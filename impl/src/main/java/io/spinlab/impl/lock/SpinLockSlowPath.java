package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.SpinLockPolicy;

/**
 * How a registered waiter of an anonymous-mode {@link SpinLock} waits for it: one implementation
 * per shipped generation of {@code SpinLock.ContinueTryEnter}, chosen once from the
 * {@code spinlock} knob. Each polls {@link SpinLock#tryAcquireAsWaiter()} and gives up through
 * {@link SpinLock#giveUp}; neither blocks in the kernel.
 */
sealed interface SpinLockSlowPath permits SpinLockSlowPath.SpinWaitLoop, SpinLockSlowPath.SpinningFactor {

    /**
     * Waits as this generation did until the lock is taken (true) or the timeout passes (false,
     * the waiter unregistered).
     *
     * @param turn this waiter's position among the waiters when it registered
     */
    boolean await(SpinLock lock, SpinContext context, int turn, long start, long timeoutNanos, boolean interruptible)
            throws InterruptedException;

    static SpinLockSlowPath of(SpinLockPolicy policy) {
        return switch (policy) {
            case SPINWAIT -> SpinWaitLoop.INSTANCE;
            case SPINNING_FACTOR -> SpinningFactor.INSTANCE;
        };
    }

    /**
     * {@code spinlock=spinwait} (.NET Core 2.1+): one SpinWait loop with Sleep(1) from the 40th
     * iteration; a thread whose turn is beyond the processor count starts at the yield threshold.
     */
    final class SpinWaitLoop implements SpinLockSlowPath {
        static final SpinWaitLoop INSTANCE = new SpinWaitLoop();

        private SpinWaitLoop() {
        }

        @Override
        public boolean await(SpinLock lock, SpinContext context, int turn, long start, long timeoutNanos,
                boolean interruptible) throws InterruptedException {
            SpinWait spinner = new SpinWait(context, turn > context.processorCount() ? SpinWait.YIELD_THRESHOLD : 0);
            for (;;) {
                spinner.spinOnce(SpinLock.SLEEP_ONE_FREQUENCY);
                if (lock.tryAcquireAsWaiter()) {
                    return true;
                }
                if (spinner.count() % SpinLock.TIMEOUT_CHECK_FREQUENCY == 0
                        && lock.giveUp(start, timeoutNanos, interruptible)) {
                    return false;
                }
            }
        }
    }

    /**
     * {@code spinlock=spinning-factor} (before .NET Core 3.0): a staged spin of
     * {@code (turn + i) × 100 × processFactor} PAUSEs while the turn is below the processor count,
     * then a yield loop with Sleep(1) every 40th and Sleep(0) every 10th yield.
     */
    final class SpinningFactor implements SpinLockSlowPath {
        static final SpinningFactor INSTANCE = new SpinningFactor();

        private SpinningFactor() {
        }

        @Override
        public boolean await(SpinLock lock, SpinContext context, int turn, long start, long timeoutNanos,
                boolean interruptible) throws InterruptedException {
            int processors = context.processorCount();
            if (turn < processors) {
                context.beginSpinLoop();
                int processFactor = 1;
                for (int i = 1; i <= turn * SpinLock.SPINNING_FACTOR; i++) {
                    long spins = (long) (turn + i) * SpinLock.SPINNING_FACTOR * processFactor;
                    context.spinWait((int) Math.min(Integer.MAX_VALUE, spins));
                    if (processFactor < processors) {
                        processFactor++;
                    }
                    if (lock.tryAcquireAsWaiter()) {
                        return true;
                    }
                }
            }
            if (lock.giveUp(start, timeoutNanos, interruptible)) {
                return false;
            }
            Platform platform = context.platform();
            for (int yieldsSoFar = 0; ; yieldsSoFar++) {
                if (lock.tryAcquireAsWaiter()) {
                    return true;
                }
                if (yieldsSoFar % SpinLock.SLEEP_ONE_FREQUENCY == 0) {
                    platform.sleep(1_000_000L);
                } else if (yieldsSoFar % SpinLock.SLEEP_ZERO_FREQUENCY == 0) {
                    platform.sleep(0);
                } else {
                    platform.yieldThread();
                }
                if (yieldsSoFar % SpinLock.TIMEOUT_CHECK_FREQUENCY == 0
                        && lock.giveUp(start, timeoutNanos, interruptible)) {
                    return false;
                }
            }
        }
    }
}
