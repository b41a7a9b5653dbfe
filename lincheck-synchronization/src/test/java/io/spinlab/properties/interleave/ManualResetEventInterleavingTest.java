package io.spinlab.properties.interleave;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.properties.interleave.scenario.ManualResetEventInterleavings;
import io.spinlab.properties.mutation.Mutation;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * {@link ManualResetEventInterleavings}' races on an instrumented copy of the real event, which must pass,
 * and on a copy carrying PIT's race-only survivor there ({@code impl/MUTATION.md}), which must fail.
 */
class ManualResetEventInterleavingTest {
    private static final String SCENARIO = "setBetweenTheWaitersLookAndItsCountIsNotLost";

    @Test
    void shouldNotLoseASetBetweenAWaitersLookAndItsCount() {
        Breakpoints.run(ManualResetEventInterleavings.class, null, SCENARIO);
    }

    /** PIT: ManualResetEvent.awaitNanos L163, the re-check after counting the waiter skipped (jump always taken). */
    @Test
    void shouldCatchAWaiterThatSkipsItsLookAfterCountingItself() {
        Breakpoints.assertCaught(ManualResetEventInterleavings.class,
                Mutation.branchAlwaysTaken(ManualResetEvent.class, "awaitNanos", "IFEQ", 3),
                List.of("waiter did not finish: it parked with no wake-up pending"), SCENARIO);
    }
}
