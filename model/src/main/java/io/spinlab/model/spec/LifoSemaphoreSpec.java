package io.spinlab.model.spec;

/**
 * Sequential specification of a counting semaphore's non-blocking surface (LifoSemaphore):
 * release adds signals, tryAcquire takes one if there is one. Not thread-safe.
 */
public final class LifoSemaphoreSpec {
    private int signals;

    public void release(int count) {
        signals += count;
    }

    public boolean tryAcquire() {
        if (signals == 0) {
            return false;
        }
        signals--;
        return true;
    }

    public int signalCount() {
        return signals;
    }
}
