package io.spinlab.sim.engine;

import io.spinlab.model.platform.Platform;

import java.util.HashMap;
import java.util.Map;

/**
 * A simulated platform that counts, per thread name, the unparks each thread was sent and the
 * untimed parks it made, and notes when each first parked. For tests of primitives in virtual time.
 */
final class CountingPlatform implements Platform {
    private final SimulatedPlatform delegate;
    final Map<String, Integer> unparks = new HashMap<>();
    final Map<String, Integer> parks = new HashMap<>();
    final Map<String, Long> firstPark = new HashMap<>();

    CountingPlatform(SimulatedPlatform delegate) {
        this.delegate = delegate;
    }

    @Override public int processorCount() { return delegate.processorCount(); }
    @Override public long nanoTime() { return delegate.nanoTime(); }
    @Override public void pause(int count) { delegate.pause(count); }
    @Override public void yieldThread() { delegate.yieldThread(); }
    @Override public void sleep(long nanos) { delegate.sleep(nanos); }
    @Override public void park(Object blocker) {
        String name = Thread.currentThread().getName();
        firstPark.putIfAbsent(name, delegate.nanoTime());
        parks.merge(name, 1, Integer::sum);
        delegate.park(blocker);
    }
    @Override public void parkNanos(Object blocker, long nanos) { delegate.parkNanos(blocker, nanos); }
    @Override public void unpark(Thread thread) {
        if (thread != null) {
            unparks.merge(thread.getName(), 1, Integer::sum);
        }
        delegate.unpark(thread);
    }
    @Override public Thread startThread(String name, Runnable task) { return delegate.startThread(name, task); }
    @Override public int nextRandom(int bound) { return delegate.nextRandom(bound); }
}
