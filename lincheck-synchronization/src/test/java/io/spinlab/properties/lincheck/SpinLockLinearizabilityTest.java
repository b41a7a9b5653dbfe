package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.model.spec.SpinLockSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/**
 * {@link SpinLock} is linearizable with respect to {@link SpinLockSpec} in both modes, in three
 * kinds of scenario:
 *
 * <ul>
 *   <li><em>Tracking ownership</em>: {@code tryEnter}, {@code exit} (with and without the full
 *       fence), {@code isHeld}, {@code isHeldByCurrentThread} by any thread, so that scenarios
 *       reach recursion and exit by a non-owner (both rejected). Each operation receives the
 *       calling thread's number (Lincheck's {@link ThreadIdGen}); Lincheck runs a scenario's
 *       initial and final parts on the first parallel thread's Java thread under other numbers, so
 *       these scenarios have none.</li>
 *   <li><em>Anonymous ownership</em>: {@code tryEnter} and {@code isHeld} by any thread, {@code exit}
 *       by one dedicated thread ({@code nonParallelGroup}), which therefore releases locks taken by
 *       the other thread (allowed in anonymous mode) and exits free locks (rejected). Exits never
 *       race with each other: when two threads release one acquisition at once, a misuse, both
 *       pass the held check and neither is rejected (with the fenced exit the second decrement
 *       even clears the mode bit), so the spec's answer, one rejection, cannot be promised.</li>
 *   <li><em>Critical sections</em> (anonymous mode, both tunings: the {@code spinlock} knob chooses
 *       the contended path, {@code spinwait} or {@code spinning-factor}): {@code increment} enters,
 *       increments a plain counter with a read and a separate write, and exits, alternating the
 *       fenced and the release-store exit. Model checking enters with {@code enter()}; stress
 *       testing with {@code tryEnter(timeout)}, so that a lock that is never released fails the check
 *       (a result of -1) instead of hanging the run.</li>
 * </ul>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class SpinLockLinearizabilityTest {
    /** Long enough never to expire while the lock is passed on. */
    static final long STRESS_ENTER_TIMEOUT_SECONDS = 5;

    @Test
    public void trackingModelChecking() {
        LincheckBudget.modelChecking().actorsBefore(0).actorsAfter(0).sequentialSpecification(TrackingSpec.class)
                .check(Tracking.class);
    }

    @Test
    public void trackingStress() {
        LincheckBudget.stress().actorsBefore(0).actorsAfter(0).sequentialSpecification(TrackingSpec.class)
                .check(Tracking.class);
    }

    @Test
    public void anonymousModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(AnonymousSpec.class).check(Anonymous.class);
    }

    @Test
    public void anonymousStress() {
        LincheckBudget.stress().sequentialSpecification(AnonymousSpec.class).check(Anonymous.class);
    }

    /** tryEnter's CAS (anonymous mode) made a plain write: two threads that see the lock free both take it. */
    static final Mutation ENTERED_TWICE = Mutation.casToPlainSet(SpinLock.class, "tryEnter()Z", "OWNER");

    @Test
    public void plantedEnteredTwiceModelChecking() {
        Planted.assertCaught(LincheckBudget.modelChecking().sequentialSpecification(AnonymousSpec.class),
                Anonymous.class, ENTERED_TWICE);
    }

    @Test
    public void plantedEnteredTwiceStress() {
        Planted.assertCaught(LincheckBudget.stress().sequentialSpecification(AnonymousSpec.class),
                Anonymous.class, ENTERED_TWICE);
    }

    /** Two acquirers and a releaser: the releaser thread's exits race with both threads' tryEnter. */
    @Test
    public void anonymousThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(LincheckBudget.modelChecking()).sequentialSpecification(AnonymousSpec.class)
                .check(Anonymous.class);
    }

    @Test
    public void anonymousThreeThreadsStress() {
        LincheckBudget.threeThreads(LincheckBudget.stress()).sequentialSpecification(AnonymousSpec.class)
                .check(Anonymous.class);
    }

    @Test
    public void spinWaitCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(AnonymousSpec.class)
                .check(SpinWaitCriticalSections.class);
    }

    @Test
    public void spinWaitCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(AnonymousSpec.class)
                .check(SpinWaitTimedCriticalSections.class);
    }

    @Test
    public void spinningFactorCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(AnonymousSpec.class)
                .check(SpinningFactorCriticalSections.class);
    }

    @Test
    public void spinningFactorCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(AnonymousSpec.class)
                .check(SpinningFactorTimedCriticalSections.class);
    }

    /** The spec of a thread-tracking lock. */
    public static final class TrackingSpec extends SpinLockSpec {
        public TrackingSpec() {
            super(true);
        }
    }

    /** The spec of an anonymous lock. */
    public static final class AnonymousSpec extends SpinLockSpec {
        public AnonymousSpec() {
            super(false);
        }
    }

    /** Ownership operations on a thread-tracking lock. */
    public static final class Tracking {
        private final SpinLock lock = new SpinLock(CheckedContexts.of(Tuning.current()), true);

        @Operation
        public Object tryEnter(@Param(gen = ThreadIdGen.class) int threadId) {
            return Outcomes.of(lock::tryEnter);
        }

        @Operation
        public Object exit(@Param(gen = BooleanGen.class) boolean useMemoryBarrier,
                @Param(gen = ThreadIdGen.class) int threadId) {
            return Outcomes.ofVoid(() -> lock.exit(useMemoryBarrier));
        }

        @Operation
        public boolean isHeld() {
            return lock.isHeld();
        }

        @Operation
        public Object isHeldByCurrentThread(@Param(gen = ThreadIdGen.class) int threadId) {
            return Outcomes.of(lock::isHeldByCurrentThread);
        }
    }

    /** Ownership operations on an anonymous lock; one thread does every exit. */
    public static final class Anonymous {
        private final SpinLock lock = new SpinLock(CheckedContexts.of(Tuning.current()), false);

        @Operation
        public boolean tryEnter(@Param(gen = ThreadIdGen.class) int threadId) {
            return lock.tryEnter();
        }

        @Operation(nonParallelGroup = "releaser")
        public Object exit(@Param(gen = BooleanGen.class) boolean useMemoryBarrier,
                @Param(gen = ThreadIdGen.class) int threadId) {
            return Outcomes.ofVoid(() -> lock.exit(useMemoryBarrier));
        }

        @Operation
        public boolean isHeld() {
            return lock.isHeld();
        }
    }

    /** Critical sections on an anonymous lock guarding a plain counter. */
    public abstract static class CriticalSections {
        private final SpinLock lock;
        private final boolean timed;
        private int counter;

        CriticalSections(Tuning tuning, boolean timed) {
            this.lock = new SpinLock(CheckedContexts.of(tuning), false);
            this.timed = timed;
        }

        /** Returns the counter before the increment, or -1 if the timed enter gave up. */
        @Operation
        public int increment() throws InterruptedException {
            if (timed) {
                if (!lock.tryEnter(STRESS_ENTER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    return -1;
                }
            } else {
                lock.enter();
            }
            int before = counter;
            counter = before + 1;
            // Both exits: the fenced decrement and the release store, which may lose a waiter's registration.
            lock.exit((before & 1) == 0);
            return before;
        }
    }

    /** {@code spinlock=spinwait} (current), entering with {@code enter()}. */
    public static final class SpinWaitCriticalSections extends CriticalSections {
        public SpinWaitCriticalSections() {
            super(Tuning.current(), false);
        }
    }

    /** {@code spinlock=spinwait} (current), entering with {@code tryEnter(timeout)}. */
    public static final class SpinWaitTimedCriticalSections extends CriticalSections {
        public SpinWaitTimedCriticalSections() {
            super(Tuning.current(), true);
        }
    }

    /** {@code spinlock=spinning-factor} (legacy), entering with {@code enter()}. */
    public static final class SpinningFactorCriticalSections extends CriticalSections {
        public SpinningFactorCriticalSections() {
            super(Tuning.legacy(), false);
        }
    }

    /** {@code spinlock=spinning-factor} (legacy), entering with {@code tryEnter(timeout)}. */
    public static final class SpinningFactorTimedCriticalSections extends CriticalSections {
        public SpinningFactorTimedCriticalSections() {
            super(Tuning.legacy(), true);
        }
    }
}
