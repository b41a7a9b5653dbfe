package com.example.spin;

/** A broken spin lock, on purpose: it sees the lock free with one read and takes it with a separate write. */
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
