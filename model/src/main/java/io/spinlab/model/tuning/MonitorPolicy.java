package io.spinlab.model.tuning;

/** The Monitor-style lock's algorithm (knob {@code monitor}). */
public enum MonitorPolicy {
    /**
     * .NET Core 2.0 (AwareLock before dotnet/coreclr #14216): raw PAUSE back-off 50 × 3^k while at
     * most 20,000 × processors; while a waiter exists nobody else may take the lock, and release
     * hands it to the first waiter (the convoy of dotnet/coreclr #13978).
     */
    CONVOY,
    /**
     * Since .NET Core 2.1 (dotnet/coreclr #14216): arriving threads may barge; one waiter woken at a
     * time, none while a spinner exists; a waiter starved for 100 ms stops the barging.
     */
    BARGING,
    /**
     * CoreRT's own managed {@code Lock} (dotnet/corert {@code System/Threading/Lock.cs}): barging,
     * spins of 1, 2, 4, … 8,192 {@code Thread.SpinWait} iterations, one waiter woken at a time.
     */
    CORERT_LOCK
}
