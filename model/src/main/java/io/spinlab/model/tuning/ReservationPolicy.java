package io.spinlab.model.tuning;

/** How the event buffer manager reserves buffer bytes against its global limit (knob {@code reservation}). */
public enum ReservationPolicy {
    /** Up to .NET 5: take the manager's lock, compare with the limit, add. */
    UNDER_LOCK,
    /** Since .NET 6 (dotnet/runtime #50797): a CAS loop on the total outside the lock. */
    LOCKLESS
}
