package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.SpinLockPolicy;
import io.spinlab.sim.engine.Faults;

/**
 * A few threads taking one anonymous-mode SpinLock a few times each: {@code threads} threads, each
 * entering {@code acquisitions} times and holding the lock for {@code holdPauses} PAUSEs, then
 * {@code gapPauses} PAUSEs outside it before the next entry. With {@code timeoutNanos} above 0 the
 * even-numbered threads enter with a timed {@code tryEnter} and skip that critical section if it
 * times out (so registered waiters leave the waiter count), the odd-numbered ones untimed. With
 * {@code releaseStoreExits} every exit is {@code exit(false)}, a release store of the word read at
 * its start, which may overwrite a waiter's concurrent registration or departure (.NET's
 * {@code Exit(false)}); else every exit is the fenced {@code exit()}, whose CAS loses nothing.
 */
public record SpinLockWorld(SpinLockPolicy spinLock, MachineProfile machine, int threads, int acquisitions,
                            int holdPauses, int gapPauses, long timeoutNanos, boolean releaseStoreExits, long seed,
                            Faults faults) {

    @Override
    public String toString() {
        return Knob.SPINLOCK.knobName() + "=" + Knob.nameOf(spinLock) + " machine=" + machine.name() + " threads="
                + threads + " acquisitions=" + acquisitions + " hold=" + holdPauses + " gap=" + gapPauses + " timeout="
                + (timeoutNanos == 0 ? "none" : timeoutNanos + "ns") + " exits="
                + (releaseStoreExits ? "release-store" : "fenced") + " seed=" + seed + " faults=" + faults;
    }
}
