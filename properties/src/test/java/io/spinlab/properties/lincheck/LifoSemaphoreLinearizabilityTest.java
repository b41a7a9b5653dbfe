package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.pool.LifoSemaphore;
import io.spinlab.model.spec.LifoSemaphoreSpec;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * LifoSemaphore's packed counts are linearizable against {@link LifoSemaphoreSpec} for its
 * non-blocking surface (release, tryAcquire, the signal count); blocking waits are tested
 * with real threads in impl.
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
}
