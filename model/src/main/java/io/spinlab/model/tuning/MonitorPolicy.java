package io.spinlab.model.tuning;

/** The Monitor-style lock's handoff (knob {@code monitor}). */
public enum MonitorPolicy {
    /**
     * .NET Core 2.0 (AwareLock before dotnet/coreclr #14216): while a waiter exists nobody else may
     * take the lock; release hands it to the first waiter.
     */
    CONVOY,
    /**
     * Since .NET Core 2.1 (dotnet/coreclr #14216): arriving threads may barge; one waiter woken at a
     * time, none while a spinner exists.
     */
    BARGING
}
