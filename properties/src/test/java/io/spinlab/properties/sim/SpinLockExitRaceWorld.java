package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.engine.Faults;

/**
 * Two threads racing to release an anonymous-mode SpinLock that was entered once (a caller's bug
 * that anonymous mode cannot see by owner, only by the word): each waits its number of PAUSEs and
 * calls the fenced {@code exit()}; with {@code waiter} a third thread meanwhile enters the lock and
 * leaves it, so that an exit's CAS can also fail because a waiter registered.
 */
public record SpinLockExitRaceWorld(MachineProfile machine, int firstDelayPauses, int secondDelayPauses,
                                    boolean waiter, long seed, Faults faults) {

    @Override
    public String toString() {
        return "spinlock exit race machine=" + machine.name() + " delays=" + firstDelayPauses + "," + secondDelayPauses
                + " waiter=" + waiter + " seed=" + seed + " faults=" + faults;
    }
}
