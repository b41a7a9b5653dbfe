package io.spinlab.junitfixtures;

/** A planted bug: the lock is taken with a read and a separate write, so two threads can both see it free. */
public final class CheckThenActLock {
    private volatile boolean locked;

    public void lock() {
        while (locked) {
            Thread.onSpinWait();
        }
        locked = true;
    }

    public void unlock() {
        locked = false;
    }
}
