package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.semaphore.SemaphoreSlim;
import io.spinlab.model.spec.SemaphoreSpec;
import io.spinlab.model.tuning.Tuning;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
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

    @Test
    public void modelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(Spec.class).check(getClass());
    }

    @Test
    public void stress() {
        LincheckBudget.stress().sequentialSpecification(Spec.class).check(getClass());
    }
}
