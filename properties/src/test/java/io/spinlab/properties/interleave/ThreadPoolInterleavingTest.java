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
}
