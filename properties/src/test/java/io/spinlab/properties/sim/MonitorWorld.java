package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.MonitorPolicy;
import io.spinlab.sim.engine.Faults;

/**
 * A few threads taking one Monitor lock a few times each: {@code threads} threads, each entering
 * {@code acquisitions} times and holding the lock for {@code holdPauses} PAUSEs, then
 * {@code gapPauses} PAUSEs outside it before the next entry. With {@code timeoutNanos} above 0 the
 * even-numbered threads enter with a timed {@code tryEnter}, and skip that critical section if it
 * times out (so waits time out and give their wake-ups back, and a thread may leave for good right
 * after), and the odd-numbered ones with an untimed {@code enter}, which
 * only a wake-up ends; with 0, every thread enters untimed. Small on purpose: the run ends soon
 * after the last release, so a wake-up lost near the end leaves a waiter parked with nobody left to
 * wake it, which the simulator reports as a deadlock.
 */
public record MonitorWorld(MonitorPolicy monitor, MachineProfile machine, int threads, int acquisitions,
                           int holdPauses, int gapPauses, long timeoutNanos, long seed,
                           Faults faults) {

    @Override
    public String toString() {
        return Knob.MONITOR.knobName() + "=" + Knob.nameOf(monitor) + " machine=" + machine.name() + " threads="
                + threads + " acquisitions=" + acquisitions + " hold=" + holdPauses + " gap=" + gapPauses + " timeout="
                + (timeoutNanos == 0 ? "none" : timeoutNanos + "ns") + " seed="
                + seed + " faults=" + faults;
    }
}
