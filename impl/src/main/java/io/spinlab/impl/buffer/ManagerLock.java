package io.spinlab.impl.buffer;

import io.spinlab.impl.lock.NativeSpinLock;
import io.spinlab.impl.spin.SpinContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The buffer manager's lock (EventPipe's {@code rt_lock}, an {@code ep_rt_spin_lock}, which on
 * CoreCLR is the runtime's native spin lock) with the two counters that show a lock caravan: every
 * acquisition, and the acquisitions made by writers that then failed to reserve a buffer. Counting
 * costs an uncontended plain increment, done while holding the lock.
 *
 * <p>Not reentrant; progress: blocking, as the {@link NativeSpinLock} it wraps.
 */
final class ManagerLock extends ManagerLockPad2 {
    /*
     * Implementation notes.
     *
     * Which lock: CoreCLR's native SpinLock in every generation spinlab models. EventPipe's C code
     * maps ep_rt_spin_lock_aquire to SpinLock::AcquireLock (dotnet/runtime
     * src/coreclr/vm/eventing/eventpipe/ep-rt-coreclr.h @ 00578ebc, 2021; the later
     * ep_rt_spin_lock_acquire likewise), and the C++ EventPipe before it held a `SpinLock m_lock`
     * (dotnet/coreclr src/vm/eventpipebuffermanager.h @ a1b757c7). Not System.Threading.SpinLock:
     * that one sleeps 1 ms from its 40th iteration, the native lock only after 32,768 switches.
     *
     * Invariants: the counters only grow, and only while the lock is held, so the holder's plain
     * read-increment-write cannot lose an update. dropPathAcquisitions <= acquisitions.
     *
     * Memory ordering: the counters are written with opaque stores (no tearing of the long,
     * nothing more) and read with opaque loads by diagnostics, which want a recent value, not a
     * consistent snapshot.
     *
     * Why the padding: under the `under-lock` policy every dropped event increments
     * `acquisitions`; without the pads that line could be the one holding another object's field
     * that every writer reads on every event (the manager's state word, say).
     */

    private final NativeSpinLock lock;

    ManagerLock(SpinContext context) {
        // Waiting for the lock is attributed to this object: metrics name it ManagerLock.
        this.lock = new NativeSpinLock(context, this);
    }

    void enter() {
        lock.enter();
        ACQUISITIONS.setOpaque(this, acquisitions + 1);
    }

    void exit() {
        lock.exit();
    }

    /** Records that the current holder took the lock only to learn that its reservation fails. Held only. */
    void countDropPathAcquisition() {
        assert lock.isHeld();
        DROP_PATH_ACQUISITIONS.setOpaque(this, dropPathAcquisitions + 1);
    }

    long acquisitions() {
        return (long) ACQUISITIONS.getOpaque(this);
    }

    long dropPathAcquisitions() {
        return (long) DROP_PATH_ACQUISITIONS.getOpaque(this);
    }

    boolean isHeld() {
        return lock.isHeld();
    }

    // VarHandle mechanics
    private static final VarHandle ACQUISITIONS;
    private static final VarHandle DROP_PATH_ACQUISITIONS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACQUISITIONS = lookup.findVarHandle(ManagerLockFields.class, "acquisitions", long.class);
            DROP_PATH_ACQUISITIONS = lookup.findVarHandle(ManagerLockFields.class, "dropPathAcquisitions",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}

/** 128 bytes before the counters; the int fills the gap a 12-byte header leaves before the longs. */
abstract class ManagerLockPad1 {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}

abstract class ManagerLockFields extends ManagerLockPad1 {
    long acquisitions;
    long dropPathAcquisitions;
}

/** 128 bytes after the counters. */
abstract class ManagerLockPad2 extends ManagerLockFields {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;
}
