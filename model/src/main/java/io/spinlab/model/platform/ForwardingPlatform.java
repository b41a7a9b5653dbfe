package io.spinlab.model.platform;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A {@link Platform} that hands every call to another one: the base of a platform that watches or changes a
 * few calls (counts them, times the threads it starts, fakes a clock) and leaves the rest as they were.
 * Subclasses override what they change and call {@code super} for the original behaviour.
 *
 * <p>Every method of {@link Platform} is forwarded, the default ones included, so that a subclass does not
 * silently replace the delegate's bookkeeping with an interface default. A forwarding layer adds one interface
 * call to each {@code Platform} call and makes the primitives' call sites see more than one implementation:
 * code that times the primitives should not run through one.
 */
public class ForwardingPlatform implements Platform {
    private final Platform delegate;

    /** A platform that hands every call to {@code delegate}. */
    public ForwardingPlatform(Platform delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The platform the calls go to. */
    protected final Platform delegate() {
        return delegate;
    }

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
    public void measuredWindow(long startNanos, long endNanos) {
        delegate.measuredWindow(startNanos, endNanos);
    }

    @Override
    public void measuredWindow(long startNanos, long endNanos, LongSupplier counted) {
        delegate.measuredWindow(startNanos, endNanos, counted);
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

    @Override
    public String toString() {
        return delegate.toString();
    }
}
