package io.spinlab.properties.interleave.scenario;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.interleave.Interleaving;
import io.spinlab.properties.interleave.Interleaving.Party;
import io.spinlab.properties.lincheck.CheckedContexts;

/**
 * Races inside {@link ManualResetEvent}'s blocking wait that only an interleaving of single accesses
 * reaches, staged with {@link Interleaving}.
 */
public final class ManualResetEventInterleavings {
    private ManualResetEventInterleavings() {
    }

    /**
     * The event is set after an untimed waiter, inside the event's lock, found it unset, and before the
     * waiter counted itself: the setter sees no waiter and pulses nobody. The waiter must look again after
     * counting itself, or it waits for a pulse that never comes.
     */
    public static void setBetweenTheWaitersLookAndItsCountIsNotLost() {
        try (Interleaving il = Interleaving.begin(1, 1_000_000_000L)) {
            SpinContext context = SpinContext.of(il.platform(), Tuning.current(),
                    CheckedContexts.FixedPauseNormalizer.INSTANCE);
            ManualResetEvent event = new ManualResetEvent(context, false, 0);
            Party waiter = il.party("waiter", event::await);
            waiter.runUntil("ManualResetEvent.addWaiter:state"); // in the lock, found it unset: counts itself next
            event.set(); // no waiter counted: nobody pulsed
            waiter.runToEnd();
        }
    }
}
