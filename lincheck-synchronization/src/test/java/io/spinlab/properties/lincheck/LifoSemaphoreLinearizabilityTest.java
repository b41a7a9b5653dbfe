package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.pool.LifoSemaphore;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.spec.LifoSemaphoreSpec;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.PauseMode;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * LifoSemaphore's packed counts are linearizable against {@link LifoSemaphoreSpec} for its
 * non-blocking surface (release, tryAcquire, the signal count) and, in {@link SpinningAwait}, for a
 * wait that spins and then gives up at once: the spinner's registration, its spin and its last look
 * before it would block. Blocking waits are tested with real threads in impl.
 */
@Param(name = "count", gen = IntGen.class, conf = "1:2")
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class LifoSemaphoreLinearizabilityTest {
    private final LifoSemaphore semaphore = new LifoSemaphore(CollectionsLincheck.context(), 0, 1_000, 4);

    @Operation
    public void release(@Param(name = "count") int count) {
        semaphore.release(count);
    }

    @Operation
    public boolean tryAcquire() {
        return semaphore.tryAcquire();
    }

    @Operation
    public int signalCount() {
        return semaphore.signalCount();
    }

    /** The packed counts' one CAS (casCounts) made a plain write: a signal taken twice, a release lost. */
    static final Mutation COUNTS_WITHOUT_CAS = Mutation.casToPlainSet(LifoSemaphore.class, "casCounts", "COUNTS");

    /**
     * PIT's surviving mutant at {@code casCounts} (impl/MUTATION.md: race-only, since only a CAS that
     * fails can tell it): the CAS still runs, but a failed one is reported as a success, so two takers
     * that read the same last signal both get it.
     */
    static final Mutation FAILED_CAS_REPORTED_AS_SUCCESS = Mutation.returnsTrue(LifoSemaphore.class, "casCounts", 0);

    @Test
    void shouldBeLinearizableWhenModelChecked() {
        CollectionsLincheck.modelChecking(LifoSemaphoreSpec.class).check(getClass());
    }

    @Test
    void shouldBeLinearizableWhenStressed() {
        CollectionsLincheck.stress(LifoSemaphoreSpec.class).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenModelChecked() {
        LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(LifoSemaphoreSpec.class)).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenStressed() {
        LincheckBudget.threeThreads(CollectionsLincheck.stress(LifoSemaphoreSpec.class)).check(getClass());
    }

    @Test
    void shouldCatchPlantedBugWhenModelChecked() {
        Planted.assertCaught(CollectionsLincheck.modelChecking(LifoSemaphoreSpec.class), getClass(),
                COUNTS_WITHOUT_CAS);
    }

    @Test
    void shouldCatchPlantedBugWhenStressed() {
        Planted.assertCaught(CollectionsLincheck.stress(LifoSemaphoreSpec.class), getClass(), COUNTS_WITHOUT_CAS);
    }

    @Test
    void shouldCatchAFailedCasReportedAsASuccessWhenModelChecked() {
        Planted.assertCaught(CollectionsLincheck.modelChecking(LifoSemaphoreSpec.class), getClass(),
                FAILED_CAS_REPORTED_AS_SUCCESS);
    }

    @Test
    void shouldCatchAFailedCasReportedAsASuccessWhenStressed() {
        Planted.assertCaught(CollectionsLincheck.stress(LifoSemaphoreSpec.class), getClass(),
                FAILED_CAS_REPORTED_AS_SUCCESS);
    }

    /**
     * A waiter that spins for its signal and then times out without blocking: {@code await(1 ns)} on a
     * clock that ticks once per read ({@link TickingClock}), so the wait registers as a spinner, spins
     * four times, takes one last look at the counts and, if no signal is there, registers as a waiter
     * and gives up at its first deadline check. Such a wait takes a signal exactly when tryAcquire
     * would at some point of it, so its sequential counterpart is tryAcquire.
     */
    @Param(name = "count", gen = IntGen.class, conf = "1:2")
    public static class SpinningAwait {
        private final LifoSemaphore semaphore = new LifoSemaphore(
                SpinContext.of(new TickingClock(), Tuning.current().with(Knob.PAUSE, PauseMode.RAW)), 0, 1_000, 4);

        @Operation
        public void release(@Param(name = "count") int count) {
            semaphore.release(count);
        }

        @Operation
        public boolean awaitSpinning() {
            return semaphore.await(1, true);
        }

        @Operation
        public int signalCount() {
            return semaphore.signalCount();
        }
    }

    /** {@link SpinningAwait}'s counterpart: the wait is a tryAcquire. */
    public static final class SpinningAwaitSpec {
        private final LifoSemaphoreSpec semaphore = new LifoSemaphoreSpec();

        public void release(int count) {
            semaphore.release(count);
        }

        public boolean awaitSpinning() {
            return semaphore.tryAcquire();
        }

        public int signalCount() {
            return semaphore.signalCount();
        }
    }

    @Test
    void shouldBeLinearizableWhenASpinningWaitIsModelChecked() {
        CollectionsLincheck.modelChecking(SpinningAwaitSpec.class).check(SpinningAwait.class);
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenASpinningWaitIsModelChecked() {
        LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(SpinningAwaitSpec.class)).check(SpinningAwait.class);
    }

    /**
     * PIT's two race-only survivors of {@code spinThenWait} L223 (impl/MUTATION.md): a signal released
     * between the spin's last look and the spinner's final read of the counts. With the branch always
     * taken the spinner registers as a waiter yet reports the signal taken, which stays counted; with
     * {@code - 1} made {@code + 1} it adds a signal instead of taking one.
     */
    static List<Mutation> spinningWaitSurvivors() {
        return List.of(
                Mutation.branchAlwaysTaken(LifoSemaphore.class, "spinThenWait", "IFEQ", 1),
                Mutation.opcodeReplaced(LifoSemaphore.class, "spinThenWait", "LSUB", "LADD", 3));
    }

    @ParameterizedTest
    @MethodSource("spinningWaitSurvivors")
    void shouldCatchEachOfPitsSpinningWaitSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(CollectionsLincheck.modelChecking(SpinningAwaitSpec.class), SpinningAwait.class, survivor);
    }
}
