package io.spinlab.model.tuning;

/** The Monitor-style lock's handoff (knob {@code monitor}). */
public enum MonitorPolicy {
    /** Legacy: while a waiter exists nobody else may take the lock; release hands it to the first waiter. */
    CONVOY,
    /** Current: arriving threads may barge; one waiter woken at a time, none while a spinner exists. */
    BARGING
}
