package io.spinlab.junitfixtures;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A correct test-and-test-and-set spin lock, as a user would write one. */
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
