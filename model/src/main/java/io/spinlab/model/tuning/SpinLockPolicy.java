package io.spinlab.model.tuning;

/** The SpinLock slow path (knob {@code spinlock}). */
public enum SpinLockPolicy {
    /** .NET Core 2.0 and older: a staged spin of {@code (turn + i) × 100 × processFactor} PAUSEs, then yields. */
    SPINNING_FACTOR,
    /** Since .NET Core 2.1 (dotnet/coreclr #13670): one SpinWait loop, Sleep(1) from the 40th iteration. */
    SPINWAIT
}
