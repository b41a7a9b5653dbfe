package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.engine.Faults;

/**
 * A few participants meeting at one Barrier for a few phases: {@code participants} threads, each
 * arriving {@code phases} times, working {@code workPauses} PAUSEs before each arrival. With
 * {@code timeoutNanos} above 0 the even-numbered participants arrive with a timed
 * {@code signalAndWait} and arrive again when a wait times out and is withdrawn; the odd-numbered
 * ones wait untimed. With {@code joiner} one more thread, after {@code joinDelayPauses} PAUSEs, adds
 * a participant and removes it again {@code workPauses} PAUSEs later without arriving, so the phase
 * it joined ends at the removal if everyone else has arrived by then (a participant change that can
 * meet a finishing phase). With {@code leaverArrivals} above 0 the last participant arrives only
 * that many times (at most {@code phases}) and then removes itself, as a participant that is done
 * does: it returns from its last phase as soon as it sees the phase number move, which may be before
 * the last arriver has published the next phase, so its removal can meet a phase that is finishing.
 */
public record BarrierWorld(MachineProfile machine, int participants, int phases, int workPauses, long timeoutNanos,
                           boolean joiner, int joinDelayPauses, int leaverArrivals, long seed, Faults faults) {

    /** How many times participant {@code index} arrives. */
    public int arrivalsOf(int index) {
        return leaverArrivals > 0 && index == participants - 1 ? leaverArrivals : phases;
    }

    @Override
    public String toString() {
        return "barrier machine=" + machine.name() + " participants=" + participants + " phases=" + phases + " work="
                + workPauses + " timeout=" + (timeoutNanos == 0 ? "none" : timeoutNanos + "ns") + " joiner="
                + (joiner ? "after " + joinDelayPauses + " pauses" : "none") + " leaver="
                + (leaverArrivals > 0 ? "after " + leaverArrivals + " arrivals" : "none") + " seed=" + seed + " faults=" + faults;
    }
}
