package io.spinlab.model.tuning;

/** The SpinLock slow path (knob {@code spinlock}). */
public enum SpinLockPolicy {
    /** Before .NET Core 3.0: a staged spin of {@code (turn + i) × 100 × processFactor} PAUSEs, then yields. */
    SPINNING_FACTOR,
    /** Since .NET Core 3.0: one SpinWait loop, Sleep(1) from the 40th iteration. */
    SPINWAIT
}
