package io.spinlab.properties.interleave;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.properties.interleave.scenario.ThreadPoolInterleavings;
import io.spinlab.properties.mutation.Mutation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ThreadPoolInterleavings}' races on an instrumented copy of the real pool, which must pass each,
 * and on copies carrying PIT's race-only survivors ({@code impl/MUTATION.md}), which must fail.
 */
class ThreadPoolInterleavingTest {
    private static final String SCENARIO = "requestUndoneAfterTheLastWorkersLastLookTerminatesThePool";

    @Test
    void shouldTerminateWhenARequestUndoneAfterTheLastWorkersLastLookLeavesNoThread() {
        Breakpoints.run(ThreadPoolInterleavings.class, null, SCENARIO);
    }

    /** PIT: ThreadPool.maybeAddWorkingWorker L293, the undo's {@code maybeTerminate()} removed. */
    @Test
    void shouldCatchAnUndoneRequestThatLeavesTheTerminationToNobody() {
        AssertionError failure = Breakpoints.failure(ThreadPoolInterleavings.class,
                Mutation.callRemoved(ThreadPool.class, "maybeAddWorkingWorker", "maybeTerminate", 0), SCENARIO);
        assertThat(failure).hasMessageContaining("never terminated");
    }

    /** An item accepted while {@code shutdownNow()} ran starts interrupted on a worker started after it. */
    @Test
    void shouldStartAnItemAcceptedDuringShutdownNowInterrupted() {
        Breakpoints.run(ThreadPoolInterleavings.class, null, "itemAcceptedDuringShutdownNowStartsInterrupted");
    }

    /**
     * The worker's own interrupt removed (the pool as it was until this test): only the workers
     * {@code shutdownNow()} found registered were interrupted, and the item started uninterrupted.
     */
    @Test
    void shouldCatchAWorkerStartedAfterShutdownNowThatRunsAnItemUninterrupted() {
        AssertionError failure = Breakpoints.failure(ThreadPoolInterleavings.class,
                Mutation.callRemoved(Mutation.inPackage(ThreadPool.class, "PoolWorker"), "runItem", "interrupt", 0),
                "itemAcceptedDuringShutdownNowStartsInterrupted");
        assertThat(failure).hasMessage("an item that started after shutdownNow() was not interrupted");
    }

    @Test
    void shouldPutBackAnInterruptFromAShutdownNowBetweenAWorkersLookAndItsClearing() {
        Breakpoints.run(ThreadPoolInterleavings.class, null,
                "shutdownNowBetweenAWorkersLookAndItsClearingStillInterruptsTheItem");
    }

    /** The worker's re-check of the run state after clearing an interrupt skipped (its jump always taken). */
    @Test
    void shouldCatchAWorkerThatClearsAnInterruptFromShutdownNowForGood() {
        AssertionError failure = Breakpoints.failure(ThreadPoolInterleavings.class,
                Mutation.branchAlwaysTaken(Mutation.inPackage(ThreadPool.class, "PoolWorker"), "runItem", "IFEQ", 1),
                "shutdownNowBetweenAWorkersLookAndItsClearingStillInterruptsTheItem");
        assertThat(failure).hasMessageContaining("an item that started after shutdownNow() was not interrupted");
    }
}
