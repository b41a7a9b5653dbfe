package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;

/**
 * Waiters on one ManualResetEvent that a setter sets and resets: {@code waiters} threads each wait
 * {@code rounds} times for at most {@code timeoutNanos} (0: untimed), {@code gapPauses} PAUSEs
 * apart; the setter sets the event after {@code setDelayPauses} PAUSEs and, until every waiter is
 * done, resets it and sets it again at that period. The event spins {@code spinCount} times before
 * it blocks, under {@code tuning}.
 */
public record EventWorld(Tuning tuning, MachineProfile machine, int waiters, int rounds, long timeoutNanos,
                         int gapPauses, int setDelayPauses, int spinCount, long seed, Faults faults) {

    @Override
    public String toString() {
        return "mre tuning=" + tuning.describe() + " machine=" + machine.name() + " waiters=" + waiters + " rounds="
                + rounds + " timeout=" + (timeoutNanos == 0 ? "none" : timeoutNanos + "ns") + " gap=" + gapPauses
                + " setDelay=" + setDelayPauses + " spinCount=" + spinCount + " seed=" + seed + " faults=" + faults;
    }
}
