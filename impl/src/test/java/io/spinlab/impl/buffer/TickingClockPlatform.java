package io.spinlab.impl.buffer;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.platform.Platform;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The hardware platform with a clock that ticks once per read: timestamps are unique and
 * strictly increasing in the order the reads happen, so tests can predict the stream order.
 */
final class TickingClockPlatform implements Platform {
    private final AtomicLong clock = new AtomicLong(1_000);

    /** The value the next read will return. */
    long peekNextTime() {
        return clock.get() + 1;
    }

    @Override
    public int processorCount() {
        return HardwarePlatform.INSTANCE.processorCount();
    }

    @Override
    public long nanoTime() {
        return clock.incrementAndGet();
    }

    @Override
    public void pause(int count) {
        HardwarePlatform.INSTANCE.pause(count);
    }

    @Override
    public void yieldThread() {
        HardwarePlatform.INSTANCE.yieldThread();
    }

    @Override
    public void sleep(long nanos) {
        HardwarePlatform.INSTANCE.sleep(nanos);
    }

    @Override
    public void park(Object blocker) {
        HardwarePlatform.INSTANCE.park(blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        HardwarePlatform.INSTANCE.parkNanos(blocker, nanos);
    }

    @Override
    public void unpark(Thread thread) {
        HardwarePlatform.INSTANCE.unpark(thread);
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        return HardwarePlatform.INSTANCE.startThread(name, task);
    }

    @Override
    public int nextRandom(int bound) {
        return HardwarePlatform.INSTANCE.nextRandom(bound);
    }
}
