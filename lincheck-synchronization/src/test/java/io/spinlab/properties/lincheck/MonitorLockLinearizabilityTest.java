package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.spec.MonitorLockSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/**
 * {@link MonitorLock} is linearizable with respect to {@link MonitorLockSpec}, under each
 * Monitor algorithm ({@code barging}, the {@code current} tuning; {@code convoy}, {@code legacy};
 * {@code corert-lock}, {@code corert-2019-after}), in two kinds of scenario:
 *
 * <ul>
 *   <li><em>Ownership</em>: {@code tryEnter}, {@code exit}, {@code isLocked} and
 *       {@code isHeldByCurrentThread} by any thread, so that scenarios reach re-entry, exit by a
 *       thread that does not own the lock (rejected), and release by the owner. Each operation
 *       receives the calling thread's number (Lincheck's {@link ThreadIdGen}) and hands it to the
 *       spec, which models ownership with it. Lincheck runs the scenario's initial and final parts
 *       on the first parallel thread's Java thread while giving them other numbers, so these
 *       scenarios have no initial or final part.</li>
 *   <li><em>Critical sections</em>: {@code increment} enters the lock, increments a plain
 *       (unsynchronized) counter with a read and a separate write, and exits. Mutual exclusion
 *       makes the returned values those of a sequential counter. The platform reports one
 *       processor, so a contender skips the spin phase and queues and parks at once: the checks
 *       reach the blocking path (registration, parking, the wake-up and, under barging, the woken
 *       waiter's retry against arriving threads; under convoy, the direct handoff). With spinning, neither
 *       checker gets there: the model checker never lets a spin run out while the holder can still
 *       release, and in stress runs the spin outlasts every critical section (removing the
 *       release's wake-up went unnoticed; with one processor both checkers catch it). Model
 *       checking enters with {@code enter()}; stress testing with {@code tryEnter(timeout)}, so
 *       that a lost wake-up fails the check (a result of -1) instead of hanging the run.</li>
 * </ul>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class MonitorLockLinearizabilityTest {
    /** Long enough never to expire while the lock is handed on; only a lost wake-up reaches it. */
    static final long STRESS_ENTER_TIMEOUT_SECONDS = 5;

    @Test
    public void bargingOwnershipModelChecking() {
        ownership(LincheckBudget.modelChecking()).check(BargingOwnership.class);
    }

    @Test
    public void bargingOwnershipStress() {
        ownership(LincheckBudget.stress()).check(BargingOwnership.class);
    }

    @Test
    public void convoyOwnershipModelChecking() {
        ownership(LincheckBudget.modelChecking()).check(ConvoyOwnership.class);
    }

    @Test
    public void convoyOwnershipStress() {
        ownership(LincheckBudget.stress()).check(ConvoyOwnership.class);
    }

    @Test
    public void coreRtOwnershipModelChecking() {
        ownership(LincheckBudget.modelChecking()).check(CoreRtOwnership.class);
    }

    @Test
    public void coreRtOwnershipStress() {
        ownership(LincheckBudget.stress()).check(CoreRtOwnership.class);
    }

    /** An algorithm's fast-path CAS made a plain write: two threads that see the lock free both own it. */
    static Mutation ownedTwice(String algorithm) {
        return Mutation.casToPlainSet(Mutation.inPackage(MonitorLock.class, algorithm), "tryLock", "STATE", 0);
    }

    @Test
    public void plantedOwnedTwiceModelChecking() {
        Planted.assertCaught(ownership(LincheckBudget.modelChecking()), BargingOwnership.class,
                ownedTwice("BargingAwareLock"));
    }

    @Test
    public void plantedOwnedTwiceStress() {
        Planted.assertCaught(ownership(LincheckBudget.stress()), BargingOwnership.class,
                ownedTwice("BargingAwareLock"));
    }

    @Test
    public void plantedConvoyOwnedTwiceModelChecking() {
        Planted.assertCaught(ownership(LincheckBudget.modelChecking()), ConvoyOwnership.class,
                ownedTwice("ConvoyAwareLock"));
    }

    @Test
    public void plantedCoreRtOwnedTwiceModelChecking() {
        Planted.assertCaught(ownership(LincheckBudget.modelChecking()), CoreRtOwnership.class,
                ownedTwice("CoreRtLock"));
    }

    @Test
    public void plantedCoreRtOwnedTwiceStress() {
        Planted.assertCaught(ownership(LincheckBudget.stress()), CoreRtOwnership.class, ownedTwice("CoreRtLock"));
    }

    /** CoreRT's release skips its waiter check (taken as "no waiters"), so it wakes nobody: a lost wake-up. */
    static final Mutation CORERT_WOKEN_NEVER_CLEARED = Mutation.branchAlwaysTaken(
            Mutation.inPackage(MonitorLock.class, "CoreRtLock"), "needToWakeWaiter", "IFEQ", 0);

    @Test
    public void plantedCoreRtLostWakeUpModelChecking() {
        Planted.assertCaught(LincheckBudget.modelChecking().sequentialSpecification(MonitorLockSpec.class),
                CoreRtCriticalSections.class, CORERT_WOKEN_NEVER_CLEARED);
    }

    /** Three contenders: one holds the lock, one queues and parks, one arrives as it is released. */
    @Test
    public void bargingCriticalSectionsThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(LincheckBudget.modelChecking()).sequentialSpecification(MonitorLockSpec.class)
                .check(BargingCriticalSections.class);
    }

    @Test
    public void bargingCriticalSectionsThreeThreadsStress() {
        LincheckBudget.threeThreads(LincheckBudget.stress()).sequentialSpecification(MonitorLockSpec.class)
                .check(BargingTimedCriticalSections.class);
    }

    @Test
    public void bargingCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(MonitorLockSpec.class)
                .check(BargingCriticalSections.class);
    }

    @Test
    public void bargingCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(MonitorLockSpec.class)
                .check(BargingTimedCriticalSections.class);
    }

    @Test
    public void convoyCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(MonitorLockSpec.class)
                .check(ConvoyCriticalSections.class);
    }

    @Test
    public void coreRtCriticalSectionsThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(LincheckBudget.modelChecking()).sequentialSpecification(MonitorLockSpec.class)
                .check(CoreRtCriticalSections.class);
    }

    @Test
    public void coreRtCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(MonitorLockSpec.class)
                .check(CoreRtTimedCriticalSections.class);
    }

    @Test
    public void convoyCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(MonitorLockSpec.class)
                .check(ConvoyTimedCriticalSections.class);
    }

    static <O extends Options<O, ?>> O ownership(O options) {
        return options.actorsBefore(0).actorsAfter(0).sequentialSpecification(MonitorLockSpec.class);
    }

    /** Ownership operations on one lock; subclasses choose the tuning. */
    public abstract static class Ownership {
        private final MonitorLock lock;

        Ownership(Tuning tuning) {
            lock = new MonitorLock(CheckedContexts.of(tuning));
        }

        @Operation
        public boolean tryEnter(@Param(gen = ThreadIdGen.class) int threadId) {
            return lock.tryEnter();
        }

        @Operation
        public Object exit(@Param(gen = ThreadIdGen.class) int threadId) {
            return Outcomes.ofVoid(lock::exit);
        }

        @Operation
        public boolean isLocked() {
            return lock.isLocked();
        }

        @Operation
        public boolean isHeldByCurrentThread(@Param(gen = ThreadIdGen.class) int threadId) {
            return lock.isHeldByCurrentThread();
        }
    }

    /** Ownership under {@code monitor=barging}. */
    public static final class BargingOwnership extends Ownership {
        public BargingOwnership() {
            super(Tuning.current());
        }
    }

    /** Ownership under {@code monitor=convoy}. */
    public static final class ConvoyOwnership extends Ownership {
        public ConvoyOwnership() {
            super(Tuning.legacy());
        }
    }

    /** Ownership under {@code monitor=corert-lock}. */
    public static final class CoreRtOwnership extends Ownership {
        public CoreRtOwnership() {
            super(Tuning.parse("corert-2019-after"));
        }
    }

    /** Critical sections guarding a plain counter; subclasses choose the tuning and how to enter. */
    public abstract static class CriticalSections {
        final MonitorLock lock;
        private final boolean timed;
        private int counter;

        CriticalSections(Tuning tuning, boolean timed) {
            this(CheckedContexts.singleProcessor(tuning), timed);
        }

        CriticalSections(SpinContext context, boolean timed) {
            this.lock = new MonitorLock(context);
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
            try {
                int before = counter;
                counter = before + 1;
                return before;
            } finally {
                lock.exit();
            }
        }
    }

    /** {@code monitor=barging}, entering with {@code enter()}. */
    public static final class BargingCriticalSections extends CriticalSections {
        public BargingCriticalSections() {
            super(Tuning.current(), false);
        }
    }

    /**
     * {@code monitor=barging}, entering with {@code enter()} on two processors: a contender spins before
     * it blocks, so that the spinner's own paths run (its registration, a CAS lost to a barging thread
     * and the retry, the give-up into the queue).
     */
    public static final class BargingSpinningCriticalSections extends CriticalSections {
        public BargingSpinningCriticalSections() {
            super(CheckedContexts.of(Tuning.current()), false);
        }
    }

    @Test
    public void bargingSpinningCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(MonitorLockSpec.class)
                .check(BargingSpinningCriticalSections.class);
    }

    @Test
    public void bargingSpinningCriticalSectionsThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(LincheckBudget.modelChecking()).sequentialSpecification(MonitorLockSpec.class)
                .check(BargingSpinningCriticalSections.class);
    }

    /** {@code monitor=barging}, entering with {@code tryEnter(timeout)}. */
    public static final class BargingTimedCriticalSections extends CriticalSections {
        public BargingTimedCriticalSections() {
            super(Tuning.current(), true);
        }
    }

    /** {@code monitor=convoy}, entering with {@code enter()}. */
    public static final class ConvoyCriticalSections extends CriticalSections {
        public ConvoyCriticalSections() {
            super(Tuning.legacy(), false);
        }
    }

    /** {@code monitor=convoy}, entering with {@code tryEnter(timeout)}. */
    public static final class ConvoyTimedCriticalSections extends CriticalSections {
        public ConvoyTimedCriticalSections() {
            super(Tuning.legacy(), true);
        }
    }

    /** {@code monitor=corert-lock}, entering with {@code enter()}. */
    public static final class CoreRtCriticalSections extends CriticalSections {
        public CoreRtCriticalSections() {
            super(Tuning.parse("corert-2019-after"), false);
        }
    }

    /** {@code monitor=corert-lock}, entering with {@code tryEnter(timeout)}. */
    public static final class CoreRtTimedCriticalSections extends CriticalSections {
        public CoreRtTimedCriticalSections() {
            super(Tuning.parse("corert-2019-after"), true);
        }
    }

    /** A timed entry's patience, in ticks of {@link TickingClock}: enough to queue and wait a round, then give up. */
    static final long GIVE_UP_TICKS = 8;

    /**
     * Critical sections (an untimed {@code enter()}) beside timed entries that give up, on one processor
     * with a clock that ticks once per read ({@link TickingClock}). A timed waiter that runs out of time
     * abandons its wait; if the holder's release had already chosen it for the wake-up, it must take the
     * lock or pass the wake-up on, or an untimed waiter stays parked for good (a hang). The timed entry
     * returns nothing and leaves the counter alone, since whether it gets the lock depends on time.
     */
    public abstract static class GivingUp extends CriticalSections {
        GivingUp(Tuning tuning) {
            super(SpinContext.of(new TickingClock(1), tuning, CheckedContexts.FixedPauseNormalizer.INSTANCE), false);
        }

        @Operation
        public void enterBriefly() throws InterruptedException {
            if (lock.tryEnter(GIVE_UP_TICKS, TimeUnit.NANOSECONDS)) {
                lock.exit();
            }
        }
    }

    /** {@link GivingUp} under {@code monitor=barging}. */
    public static final class BargingGivingUp extends GivingUp {
        public BargingGivingUp() {
            super(Tuning.current());
        }
    }

    /** {@link GivingUp} under {@code monitor=corert-lock}. */
    public static final class CoreRtGivingUp extends GivingUp {
        public CoreRtGivingUp() {
            super(Tuning.parse("corert-2019-after"));
        }
    }

    /** {@link GivingUp}'s counterpart: the counter; a brief entry changes nothing. */
    public static final class GivingUpSpec extends MonitorLockSpec {
        public void enterBriefly() {
        }
    }

    static ModelCheckingOptions givingUpOptions() {
        return LincheckBudget.modelChecking().sequentialSpecification(GivingUpSpec.class);
    }

    @Test
    public void bargingGivingUpModelChecking() {
        givingUpOptions().check(BargingGivingUp.class);
    }

    @Test
    public void coreRtGivingUpModelChecking() {
        givingUpOptions().check(CoreRtGivingUp.class);
    }

    @Test
    public void bargingGivingUpThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(givingUpOptions()).check(BargingGivingUp.class);
    }
}
