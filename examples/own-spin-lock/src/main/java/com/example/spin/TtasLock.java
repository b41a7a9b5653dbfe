package com.example.spin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A test-and-test-and-set spin lock: spin reading until the lock looks free, then take it with one CAS. */
public final class TtasLock {
    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(TtasLock.class, "locked", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile boolean locked;

    public void lock() {
        while (true) {
            while (locked) {
                Thread.onSpinWait();
            }
            if (LOCKED.compareAndSet(this, false, true)) {
                return;
            }
        }
    }

    public void unlock() {
        locked = false;
    }
}
