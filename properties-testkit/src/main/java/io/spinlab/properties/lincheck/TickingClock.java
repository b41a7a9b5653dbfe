package io.spinlab.properties.lincheck;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.platform.Platform;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The hardware platform with a clock that ticks once per read: distinct, real-time-ordered timestamps,
 * and timeouts that run out under the model checker (which makes {@code System.nanoTime} a constant).
 * A timed park only yields.
 */
final class TickingClock implements Platform {
    private final AtomicLong clock = new AtomicLong();
    private final Platform hardware = HardwarePlatform.INSTANCE;
    private final int processors;

    /**
     * The hardware's processor count, but at least two (as {@link CheckedContexts} reports), so that the
     * spin phases, which a single-processor platform skips, run on any machine and under a JVM told of one
     * processor.
     */
    TickingClock() {
        this(Math.max(2, HardwarePlatform.INSTANCE.processorCount()));
    }

    /** A chosen processor count: one makes the primitives skip their spin phases and block at once. */
    TickingClock(int processors) {
        this.processors = processors;
    }

    @Override
    public int processorCount() {
        return processors;
    }

    @Override
    public long nanoTime() {
        return clock.incrementAndGet();
    }

    /**
     * At most {@value CheckedContexts.CheckedPlatform#MAX_PAUSES_PER_CALL} PAUSEs, as on the
     * other checked platforms: the model checker takes a longer loop that touches no shared
     * memory (the 2017 Monitor's 50-PAUSE delays under netcore2.0) for a livelock.
     */
    @Override
    public void pause(int count) {
        hardware.pause(Math.min(count, CheckedContexts.CheckedPlatform.MAX_PAUSES_PER_CALL));
    }

    @Override
    public void yieldThread() {
        hardware.yieldThread();
    }

    @Override
    public void sleep(long nanos) {
        hardware.yieldThread();
    }

    @Override
    public void park(Object blocker) {
        hardware.park(blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        hardware.yieldThread();
    }

    @Override
    public void unpark(Thread thread) {
        hardware.unpark(thread);
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        return hardware.startThread(name, task);
    }

    @Override
    public int nextRandom(int bound) {
        return hardware.nextRandom(bound);
    }
}
