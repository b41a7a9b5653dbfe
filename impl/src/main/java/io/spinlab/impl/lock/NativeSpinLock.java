package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.NativeSpinLockPolicy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * CoreCLR's native spin lock ({@code SpinLock} in {@code src/vm/spinlock.cpp}), the lock the
 * runtime's own C++ code takes for short critical sections; EventPipe's buffer-manager lock
 * ({@code rt_lock}, an {@code ep_rt_spin_lock}) is one on CoreCLR. Not the managed
 * {@code System.Threading.SpinLock} ({@link SpinLock}): it never sleeps early and has no waiter count.
 *
 * <p>A contender polls the lock word up to {@value #POLLS_PER_SWITCH} times, then tries to take
 * it, then calls {@code SwitchToThread} ({@link Platform#yieldThread()}) and starts over. What it
 * does on each poll is the {@code native-spinlock} knob: {@code raw} (.NET Core 2.0 and 2.1) polls
 * and then issues one PAUSE; {@code normalized} (from .NET Core 3.0, dotnet/coreclr #21586) issues
 * one normalized yield ({@link SpinContext#spinWait(int) Thread.SpinWait(1)}'s PAUSEs) and then
 * polls. Only after {@value #SLEEP_START_THRESHOLD} switches does a contender also sleep 1 ms
 * before every further switch ({@code __SwitchToThread}'s back-off, {@code src/vm/hosting.cpp}).
 *
 * <p>Not reentrant, no owner: any thread may release. {@link #enter()} is not interruptible and
 * has no timeout. Progress: blocking (a preempted holder stalls every contender).
 */
public final class NativeSpinLock {
    /*
     * Implementation notes.
     *
     * Sources (dotnet/coreclr unless said): SpinLock::SpinToAcquire and GetLockNoWait in
     * src/vm/spinlock.cpp @ a1b757c7 (raw, the parent of #21586) and @ 3621a2a1 (#21586 itself,
     * normalized); dotnet/runtime src/coreclr/vm/spinlock.cpp @ 66d61063 is unchanged from the latter.
     * __SwitchToThread / __DangerousSwitchToThread in src/vm/hosting.cpp @ 3621a2a1 and dotnet/runtime
     * src/coreclr/vm/hosting.cpp @ 5444ac21: SLEEP_START_THRESHOLD is 32 * 1024 (5 * 1024 on 32-bit
     * ARM only, which spinlab does not model). impl/GENERATION-SOURCES.md, Q6, has the loop verbatim.
     *
     * State: `state` is 0 (free) or 1 (held), CoreCLR's m_lock.
     *
     * Linearization points: acquisition at the CAS from 0 to 1; release at the release store of 0.
     *
     * Memory ordering: the polls are volatile loads (VolatileLoad); the exit is a release store
     * (VolatileStore), which orders the critical section's writes before it. CoreCLR acquires with
     * InterlockedExchange(&m_lock, 1) == 0 after a load that saw 0; a CAS from 0 to 1 has the same
     * outcome and is one locked read-modify-write on x86 as well, so it costs the same.
     *
     * Spin/wait policy, exactly as SpinToAcquire, after one failed GetLockNoWait:
     *   loop: up to 10,000 times { raw: poll, then PAUSE | normalized: normalized yield, then poll },
     *         leaving early when a poll sees 0; then GetLockNoWait (load, and CAS if 0) — done if
     *         it succeeds; else __SwitchToThread(0, backoffs++): SwitchToThread, preceded by
     *         Sleep(1) once backoffs >= 32,768.
     * A poll that sees the lock free and then loses the race still switches before polling again.
     * The 10,000 are counted per round (the for loop's bound is ulSpins + 10000); the normalized
     * variant builds its YieldProcessorNormalizationInfo once per contended acquisition, which in
     * .NET 6 may schedule a PAUSE re-measurement (beginSpinLoop()).
     *
     * Why no waiter count or owner: CoreCLR's lock has neither (the owner is a debug-build field).
     */

    /** Polls of the lock word between two {@code SwitchToThread} calls ({@code SpinToAcquire}'s 10000). */
    public static final int POLLS_PER_SWITCH = 10_000;
    /** {@code __SwitchToThread} sleeps 1 ms before switching once the caller's switch count is this or more. */
    public static final int SLEEP_START_THRESHOLD = 32 * 1024;
    /** The sleep of {@code ClrSleepEx(1, FALSE)}. */
    static final long SLEEP_ONE_NANOS = 1_000_000;

    static final int FREE = 0;
    static final int HELD = 1;

    private final SpinContext context;
    private final Platform platform;
    private final NativeSpinLockPolicy policy;
    private final Object blocker;
    private volatile int state;

    /**
     * @param context the platform, and the tuning whose {@code native-spinlock} knob chooses the poll step
     * @param blocker what a contended acquisition is reported waiting for ({@link Platform#beginSpinWait}):
     *                the object that owns this lock, so that metrics name it; null for this lock itself
     */
    public NativeSpinLock(SpinContext context, Object blocker) {
        this.context = context;
        this.platform = context.platform();
        this.policy = context.tuning().nativeSpinLock();
        this.blocker = blocker != null ? blocker : this;
    }

    /** A lock that reports contended waits as waits on itself. */
    public NativeSpinLock(SpinContext context) {
        this(context, null);
    }

    /** Acquires the lock, spinning and switching as long as it takes ({@code SpinLock::GetLock}). */
    public void enter() {
        if (!tryEnter()) {
            spinToAcquire();
        }
    }

    /** Acquires the lock only if it is free now ({@code GetLockNoWait}): a load, then a CAS if it was free. */
    public boolean tryEnter() {
        // LP: the CAS from FREE to HELD.
        return state == FREE && STATE.compareAndSet(this, FREE, HELD);
    }

    /** Releases the lock ({@code FreeLock}); the caller must hold it (not checked: there is no owner). */
    public void exit() {
        assert state == HELD : "exit of a free NativeSpinLock";
        // LP: the release store.
        STATE.setRelease(this, FREE);
    }

    /** True if some thread holds the lock (a recent value). */
    public boolean isHeld() {
        return state == HELD;
    }

    /** The {@code native-spinlock} policy this lock was built with. */
    public NativeSpinLockPolicy policy() {
        return policy;
    }

    @Override
    public String toString() {
        return "NativeSpinLock[" + (isHeld() ? "held" : "free") + ", " + policy + "]";
    }

    private void spinToAcquire() {
        platform.beginSpinWait(blocker);
        try {
            if (policy == NativeSpinLockPolicy.NORMALIZED) {
                // YieldProcessorNormalizationInfo, built once per SpinToAcquire.
                context.beginSpinLoop();
            }
            for (int backoffs = 0; ; backoffs++) {
                switch (policy) {
                    case RAW -> pollThenPause();
                    case NORMALIZED -> yieldThenPoll();
                }
                if (tryEnter()) {
                    return;
                }
                switchToThread(backoffs);
            }
        } finally {
            platform.endSpinWait(blocker);
        }
    }

    /** Before dotnet/coreclr #21586: {@code if (VolatileLoad(&m_lock) == 0) break; YieldProcessor();}. */
    private void pollThenPause() {
        for (int i = 0; i < POLLS_PER_SWITCH; i++) {
            if (state == FREE) {
                return;
            }
            platform.pause(1);
        }
    }

    /** From dotnet/coreclr #21586: {@code YieldProcessorNormalized(info); if (VolatileLoad(&m_lock) == 0) break;}. */
    private void yieldThenPoll() {
        for (int i = 0; i < POLLS_PER_SWITCH; i++) {
            context.spinWait(1);
            if (state == FREE) {
                return;
            }
        }
    }

    /** {@code __SwitchToThread(0, switchCount)}: Sleep(1) first once the count reaches the threshold. */
    private void switchToThread(int switchCount) {
        if (switchCount >= SLEEP_START_THRESHOLD) {
            platform.sleep(SLEEP_ONE_NANOS);
        }
        platform.yieldThread();
    }

    // VarHandle mechanics
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NativeSpinLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
