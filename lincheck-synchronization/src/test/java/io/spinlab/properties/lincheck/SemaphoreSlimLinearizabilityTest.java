package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.lock.MonitorLock;
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
 * {@link SemaphoreSpec} under each value of the {@code semaphore} knob: {@code tryAcquire} (plain,
 * and timed with a zero timeout), {@code release(n)} with its maximum-count check,
 * {@code currentCount}. {@code until-yield} runs under {@code netcore2.0} (whose Monitor is the
 * convoy lock), {@code spinonce} under {@code current} (the barging Monitor), {@code lock-free}
 * under {@code current,semaphore=lock-free}.
 *
 * <p>A semaphore of at most 3 permits starting at 1, with releases of 1..3 permits, so that
 * scenarios reach the empty semaphore, the full one and the rejected release. Under
 * {@code until-yield} and {@code spinonce} every operation but {@code currentCount} and a failed
 * try on an empty semaphore takes the internal Monitor, so the checks also explore the Monitor's
 * contention (its spin and, on a lost race, its parking); a try that saw a permit at its first
 * look and none by the time it reaches the spin spins first, as in .NET.
 *
 * <p>The blocking path (waiting on the count, the wake-up) is not reached by Lincheck: an
 * acquirer always spins before it blocks, the model checker never lets such a spin run out while
 * the holder can still release, and in stress runs the spin outlasts every critical section
 * (checked for the lock-free protocol: critical sections on a binary semaphore passed both
 * checkers with the wake-up removed from {@code release}). Lost wake-ups are for the real-thread
 * and simulator checks.
 *
 * <p>Planted bugs, one instruction of a real class each: under {@code lock-free}, the permit
 * CAS made a plain write; under the two .NET policies, which change the count only under the
 * Monitor, the Monitor's uncontended-entry CAS made a plain write (the barging branch for
 * {@code spinonce}, the convoy branch for {@code until-yield}), so that two Waits both own the
 * lock and take one permit.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class SemaphoreSlimLinearizabilityTest {
    static final int INITIAL_COUNT = 1;
    static final int MAX_COUNT = 3;

    /** The spec in the state this test starts from. */
    public static final class Spec extends SemaphoreSpec {
        public Spec() {
            super(INITIAL_COUNT, MAX_COUNT);
        }
    }

    /** The operations on one semaphore; subclasses choose the tuning. */
    public abstract static class Operations {
        private final SemaphoreSlim semaphore;

        Operations(Tuning tuning) {
            semaphore = new SemaphoreSlim(CheckedContexts.of(tuning), INITIAL_COUNT, MAX_COUNT);
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
    }

    /** {@code semaphore=until-yield}: .NET Core 2.0, with its convoy Monitor. */
    public static final class UntilYield extends Operations {
        public UntilYield() {
            super(Tuning.parse("netcore2.0"));
        }
    }

    /** {@code semaphore=spinonce}: the {@code current} tuning, with the barging Monitor. */
    public static final class SpinOnce extends Operations {
        public SpinOnce() {
            super(Tuning.current());
        }
    }

    /** {@code semaphore=lock-free}: the what-if with one-CAS fast paths. */
    public static final class LockFree extends Operations {
        public LockFree() {
            super(Tuning.parse("current,semaphore=lock-free"));
        }
    }

    /** Lock-free tryAcquire's CAS made a plain write: two acquirers that read one permit both take it. */
    static final Mutation PERMIT_TAKEN_TWICE = Mutation.casToPlainSet(
            Mutation.inPackage(SemaphoreSlim.class, "LockFreeProtocol"), "tryAcquire", "STATE");
    /** The barging Monitor's entry CAS made a plain write: two Waits own the lock and take one permit. */
    static final Mutation BARGING_MONITOR_OWNED_TWICE = Mutation.casToPlainSet(
            Mutation.inPackage(MonitorLock.class, "BargingAwareLock"), "tryLock", "STATE", 0);
    /** The convoy Monitor's entry CAS made a plain write: two Waits own the lock and take one permit. */
    static final Mutation CONVOY_MONITOR_OWNED_TWICE = Mutation.casToPlainSet(
            Mutation.inPackage(MonitorLock.class, "ConvoyAwareLock"), "tryLock", "STATE", 0);

    /**
     * Lincheck's model checker takes a loop that runs more than its bound (50 by default) while
     * every other thread has finished for a livelock. A try that passed the fail-fast check and
     * then lost its permit to another thread spins {@code spinonce}'s 140 iterations with nobody
     * left to release, as .NET does, and then fails: a bounded loop, so the bound is raised above it.
     */
    static final int LOOP_BOUND = 2 * SemaphoreSlim.SPIN_ITERATIONS;

    static ModelCheckingOptions modelChecking() {
        return LincheckBudget.modelChecking().loopBound(LOOP_BOUND);
    }

    static ModelCheckingOptions modelCheckingOptions() {
        return modelChecking().sequentialSpecification(Spec.class);
    }

    static StressOptions stressOptions() {
        return LincheckBudget.stress().sequentialSpecification(Spec.class);
    }

    /** Two acquirers and a releaser: three threads of two operations. */
    static <O extends Options<O, ?>> O threeThreads(O options) {
        return LincheckBudget.threeThreads(options).sequentialSpecification(Spec.class);
    }

    // ---------------------------------------------------------------- until-yield

    @Test
    public void untilYieldModelChecking() {
        modelCheckingOptions().check(UntilYield.class);
    }

    @Test
    public void untilYieldStress() {
        stressOptions().check(UntilYield.class);
    }

    @Test
    public void untilYieldThreeThreadsModelChecking() {
        threeThreads(modelChecking()).check(UntilYield.class);
    }

    @Test
    public void untilYieldThreeThreadsStress() {
        threeThreads(LincheckBudget.stress()).check(UntilYield.class);
    }

    @Test
    public void plantedUntilYieldMonitorOwnedTwiceModelChecking() {
        Planted.assertCaught(modelCheckingOptions(), UntilYield.class, CONVOY_MONITOR_OWNED_TWICE);
    }

    @Test
    public void plantedUntilYieldMonitorOwnedTwiceStress() {
        Planted.assertCaught(stressOptions(), UntilYield.class, CONVOY_MONITOR_OWNED_TWICE);
    }

    // ---------------------------------------------------------------- spinonce

    @Test
    public void spinOnceModelChecking() {
        modelCheckingOptions().check(SpinOnce.class);
    }

    @Test
    public void spinOnceStress() {
        stressOptions().check(SpinOnce.class);
    }

    @Test
    public void spinOnceThreeThreadsModelChecking() {
        threeThreads(modelChecking()).check(SpinOnce.class);
    }

    @Test
    public void spinOnceThreeThreadsStress() {
        threeThreads(LincheckBudget.stress()).check(SpinOnce.class);
    }

    @Test
    public void plantedSpinOnceMonitorOwnedTwiceModelChecking() {
        Planted.assertCaught(modelCheckingOptions(), SpinOnce.class, BARGING_MONITOR_OWNED_TWICE);
    }

    @Test
    public void plantedSpinOnceMonitorOwnedTwiceStress() {
        Planted.assertCaught(stressOptions(), SpinOnce.class, BARGING_MONITOR_OWNED_TWICE);
    }

    // ---------------------------------------------------------------- lock-free

    @Test
    public void lockFreeModelChecking() {
        modelCheckingOptions().check(LockFree.class);
    }

    @Test
    public void lockFreeStress() {
        stressOptions().check(LockFree.class);
    }

    @Test
    public void lockFreeThreeThreadsModelChecking() {
        threeThreads(modelChecking()).check(LockFree.class);
    }

    @Test
    public void lockFreeThreeThreadsStress() {
        threeThreads(LincheckBudget.stress()).check(LockFree.class);
    }

    @Test
    public void plantedLockFreePermitTakenTwiceModelChecking() {
        Planted.assertCaught(modelCheckingOptions(), LockFree.class, PERMIT_TAKEN_TWICE);
    }

    @Test
    public void plantedLockFreePermitTakenTwiceStress() {
        Planted.assertCaught(stressOptions(), LockFree.class, PERMIT_TAKEN_TWICE);
    }
}
