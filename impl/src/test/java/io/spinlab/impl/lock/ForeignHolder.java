package io.spinlab.impl.lock;

import java.lang.reflect.Field;

/**
 * Holds a {@link MonitorLock} as another thread would, for tests in other packages that play every
 * party on one thread: the lock is taken through its entry protocol with no owner recorded, so the
 * test thread's own {@code enter} contends for it (spins, queues, parks) instead of re-entering.
 */
public final class ForeignHolder {
    private ForeignHolder() {
    }

    /** Takes {@code lock} for "another thread"; it must be free. */
    public static void hold(MonitorLock lock) {
        if (!entryOf(lock).tryLock()) {
            throw new IllegalStateException("the lock is not free: " + lock);
        }
    }

    /** Lets go of a lock taken by {@link #hold}, waking a queued waiter as any release does. */
    public static void letGo(MonitorLock lock) {
        entryOf(lock).release();
    }

    private static EntryProtocol entryOf(MonitorLock lock) {
        try {
            Field entry = MonitorLock.class.getDeclaredField("entry");
            entry.setAccessible(true);
            return (EntryProtocol) entry.get(lock);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
