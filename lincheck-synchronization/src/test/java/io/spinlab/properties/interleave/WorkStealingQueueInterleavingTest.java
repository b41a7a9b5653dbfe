package io.spinlab.properties.interleave;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.properties.interleave.scenario.WorkStealingQueueInterleavings;
import io.spinlab.properties.mutation.Mutation;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * {@link WorkStealingQueueInterleavings}' races on an instrumented copy of the real queue, which must pass,
 * and on a copy carrying PIT's race-only survivor there ({@code impl/MUTATION.md}), which must fail.
 */
class WorkStealingQueueInterleavingTest {
    private static final String SCENARIO = "stealRightAfterTheTailIsMaskedDownFindsTheQueueEmpty";

    @Test
    void shouldLetAThiefFindTheQueueEmptyRightAfterTheTailIsMaskedDown() {
        Breakpoints.run(WorkStealingQueueInterleavings.class, null, SCENARIO);
    }

    /**
     * PIT: WorkStealingQueue.handleTailOverflow L209, the masked tail's store removed: until the push stores
     * its element the tail still reads Integer.MAX_VALUE above the masked head, and a thief steals from an
     * empty slot.
     */
    @Test
    void shouldCatchATailOverflowThatMasksTheHeadButNotTheTail() {
        Breakpoints.assertCaught(WorkStealingQueueInterleavings.class,
                Mutation.callRemoved(WorkStealingQueue.class, "handleTailOverflow", "setRelease", 1),
                List.of("thief"), SCENARIO);
    }
}
