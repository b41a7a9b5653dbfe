package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.model.spec.SemaphoreSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/**
 * {@link SemaphoreSlim}'s non-blocking surface is linearizable with respect to
 * {@link SemaphoreSpec}: {@code tryAcquire} (plain, and timed with a zero timeout), {@code release(n)}
 * with its maximum-count check, {@code currentCount}.
 *
 * <p>A semaphore of at most 3 permits starting at 1, with releases of 1..3 permits, so that
 * scenarios reach the empty semaphore, the full one and the rejected release. The tuning does not
 * matter here: without blocked waiters no operation reaches the spin, the lock or the wake-up.
 *
 * <p>The blocking path (waiter registration under the internal lock, the wake-up) is not
 * reached by Lincheck: an acquirer always spins 140 SpinOnce iterations before it blocks, the
 * model checker never lets such a spin run out while the holder can still release, and in stress
 * runs the spin outlasts every critical section (checked: critical sections on a binary semaphore
 * passed both checkers with the wake-up removed from {@code release}). Lost wake-ups are for the
 * real-thread and simulator checks.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class SemaphoreSlimLinearizabilityTest {
    static final int INITIAL_COUNT = 1;
    static final int MAX_COUNT = 3;

    private final SemaphoreSlim semaphore = new SemaphoreSlim(
            CheckedContexts.of(Tuning.current()), INITIAL_COUNT, MAX_COUNT);

    /** The spec in the state this test starts from. */
    public static final class Spec extends SemaphoreSpec {
        public Spec() {
            super(INITIAL_COUNT, MAX_COUNT);
        }
    }

    @Operation
    public boolean tryAcquire() {
        return semaphore.tryAcquire();
    }

    /** The timed acquire with a zero timeout (only tries); the spec's answer is {@code tryAcquire}'s. */
    @Operation
    public boolean tryAcquireZero() throws InterruptedException {
        return semaphore.tryAcquire(0, TimeUnit.NANOSECONDS);
    }

    @Operation
    public Object release(@Param(gen = IntGen.class, conf = "1:3") int releaseCount) {
        return Outcomes.of(() -> semaphore.release(releaseCount));
    }

    @Operation
    public int currentCount() {
        return semaphore.currentCount();
    }

    /** tryAcquire's CAS made a plain write: two acquirers that read one permit both take it. */
    static final Mutation PERMIT_TAKEN_TWICE = Mutation.casToPlainSet(SemaphoreSlim.class, "tryAcquire()Z", "STATE");

    static ModelCheckingOptions modelCheckingOptions() {
        return LincheckBudget.modelChecking().sequentialSpecification(Spec.class);
    }

    static StressOptions stressOptions() {
        return LincheckBudget.stress().sequentialSpecification(Spec.class);
    }

    /** Two acquirers and a releaser: three threads of two operations. */
    static <O extends Options<O, ?>> O threeThreads(O options) {
        return LincheckBudget.threeThreads(options).sequentialSpecification(Spec.class);
    }

    @Test
    public void modelChecking() {
        modelCheckingOptions().check(getClass());
    }

    @Test
    public void stress() {
        stressOptions().check(getClass());
    }

    @Test
    public void threeThreadsModelChecking() {
        threeThreads(LincheckBudget.modelChecking()).check(getClass());
    }

    @Test
    public void threeThreadsStress() {
        threeThreads(LincheckBudget.stress()).check(getClass());
    }

    @Test
    public void plantedPermitTakenTwiceModelChecking() {
        Planted.assertCaught(modelCheckingOptions(), getClass(), PERMIT_TAKEN_TWICE);
    }

    @Test
    public void plantedPermitTakenTwiceStress() {
        Planted.assertCaught(stressOptions(), getClass(), PERMIT_TAKEN_TWICE);
    }
}
