package io.spinlab.impl.testing;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.platform.Platform;

/** A platform that forwards everything to the hardware; tests override what they fake. */
public class DelegatingPlatform implements Platform {
    private final Platform delegate = HardwarePlatform.INSTANCE;

    @Override
    public int processorCount() {
        return delegate.processorCount();
    }

    @Override
    public long nanoTime() {
        return delegate.nanoTime();
    }

    @Override
    public void pause(int count) {
        delegate.pause(count);
    }

    @Override
    public void yieldThread() {
        delegate.yieldThread();
    }

    @Override
    public void sleep(long nanos) {
        delegate.sleep(nanos);
    }

    @Override
    public void park(Object blocker) {
        delegate.park(blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        delegate.parkNanos(blocker, nanos);
    }

    @Override
    public void beginSpinWait(Object blocker) {
        delegate.beginSpinWait(blocker);
    }

    @Override
    public void endSpinWait(Object blocker) {
        delegate.endSpinWait(blocker);
    }

    @Override
    public void unpark(Thread thread) {
        delegate.unpark(thread);
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        return delegate.startThread(name, task);
    }

    @Override
    public int nextRandom(int bound) {
        return delegate.nextRandom(bound);
    }
}
