package io.spinlab.impl.testing;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The hardware with a clock that moves only when the test moves it, a one-shot action on a
 * chosen clock read, and a count of each thread's waiting calls (PAUSE, yield, sleep, park).
 * With a frozen clock a reader pass's bound equals the timestamps of the events written just
 * before it, so the buffer tests can pin which side of the bound an equal timestamp falls on; the
 * action lets the test thread stop the manager in the middle of a write, at its clock read; and a
 * timeout passes exactly when a test moves the clock past it.
 */
public final class ControlledClockPlatform extends DelegatingPlatform {
    private final AtomicLong now = new AtomicLong(1_000);
    private final AtomicReference<Runnable> onNextClockRead = new AtomicReference<>();
    private final Map<Thread, AtomicLong> waits = new ConcurrentHashMap<>();

    /** A context on this platform that never measures PAUSE (a frozen clock could not). */
    public SpinContext context(Tuning tuning) {
        return SpinContext.of(this, tuning, new FixedPauseNormalizer());
    }

    public void advance(long nanos) {
        now.addAndGet(nanos);
    }

    /** Runs {@code action} in the thread that makes the next clock read, before that read returns. */
    public void onNextClockRead(Runnable action) {
        onNextClockRead.set(action);
    }

    /** Waiting calls {@code thread} has made so far. */
    public long waits(Thread thread) {
        AtomicLong count = waits.get(thread);
        return count == null ? 0 : count.get();
    }

    /** Waits, bounded, until {@code thread} has made a waiting call through this platform or has ended. */
    public void awaitWaitingOrEnded(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
        while (waits(thread) == 0 && thread.isAlive()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(thread.getName() + " neither waited nor ended");
            }
            Thread.onSpinWait();
        }
    }

    private void waited() {
        waits.computeIfAbsent(Thread.currentThread(), t -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public long nanoTime() {
        Runnable action = onNextClockRead.getAndSet(null);
        if (action != null) {
            action.run();
        }
        return now.get();
    }

    @Override
    public void pause(int count) {
        waited();
        super.pause(count);
    }

    @Override
    public void yieldThread() {
        waited();
        super.yieldThread();
    }

    @Override
    public void sleep(long nanos) {
        waited();
        super.sleep(nanos);
    }

    @Override
    public void park(Object blocker) {
        waited();
        super.park(blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        waited();
        super.parkNanos(blocker, nanos);
    }
}
