package io.spinlab.properties.interleave;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.properties.interleave.scenario.MonitorLockInterleavings;
import io.spinlab.properties.mutation.Mutation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * {@link MonitorLockInterleavings}' races, staged access by access on an instrumented copy of the real
 * lock classes, which must pass each; and on copies carrying the survivors of PIT that only such a race
 * shows ({@code impl/MUTATION.md}, "race-only"), which must fail it. Lincheck's model checker reaches
 * neither race within its budget (each needs four or five well-placed switches among three parties),
 * and the simulator's generated worlds did not either.
 */
class MonitorLockInterleavingTest {
    private static final Class<?> BARGING = Mutation.inPackage(MonitorLock.class, "BargingAwareLock");

    /** The Monitors with a timed-out waiter's {@code abandonWait}: tuning, entry protocol class. */
    static List<Arguments> abandoningMonitors() {
        return List.of(Arguments.of("current", "BargingAwareLock"), Arguments.of("corert-2019-after", "CoreRtLock"));
    }

    @ParameterizedTest
    @MethodSource("abandoningMonitors")
    void shouldPassTheWakeUpOnWhenATimedOutWaiterFindsTheLockFreedBetweenTwoLooks(String tuning, String algorithm) {
        Breakpoints.run(MonitorLockInterleavings.class, null, "timedOutWaiterFindsTheLockFreedBetweenTwoLooks",
                tuning, algorithm);
    }

    /**
     * PIT: BargingAwareLock.abandonWait L345 and CoreRtLock.abandonWait L142, the lock-word test
     * {@code s & LOCKED} made {@code s | LOCKED}: the waiter gives its wake-up back with the lock free.
     */
    @ParameterizedTest
    @MethodSource("abandoningMonitors")
    void shouldCatchAWaiterThatGivesItsWakeUpBackWithTheLockFree(String tuning, String algorithm) {
        Class<?> protocol = Mutation.inPackage(MonitorLock.class, algorithm);
        Breakpoints.assertCaught(MonitorLockInterleavings.class,
                Mutation.opcodeReplaced(protocol, "abandonWait", "IAND", "IOR", 0),
                List.of("untimed did not finish: it parked with no wake-up pending"),
                "timedOutWaiterFindsTheLockFreedBetweenTwoLooks", tuning, algorithm);
    }

    @Test
    void shouldQueueASpinnerThatLosesTheFreedLockToABarger() {
        Breakpoints.run(MonitorLockInterleavings.class, null, "spinnerLosesTheFreedLockToABarger");
    }

    /** PIT: BargingAwareLock.unregisterSpinnerAndTryLock L174, the final {@code return false} made true. */
    @Test
    void shouldCatchASpinnerThatReportsAnEntryAfterLosingTheLock() {
        Breakpoints.assertCaught(MonitorLockInterleavings.class,
                Mutation.returnsTrue(BARGING, "unregisterSpinnerAndTryLock", 2),
                List.of("spinner was expected to park", "entered the lock while another held it"),
                "spinnerLosesTheFreedLockToABarger");
    }

    @Test
    void shouldRetryASpinnersCasThatFailedWithTheLockStillFree() {
        Breakpoints.run(MonitorLockInterleavings.class, null, "spinnerRetriesWhenAWaiterQueuesBeforeItsCas");
    }

    /**
     * PIT: BargingAwareLock.unregisterSpinnerAndTryLock L173, the retry's test {@code s & LOCKED} made
     * {@code s | LOCKED}.
     */
    @Test
    void shouldCatchASpinnerThatGivesUpWhenItsCasFailsWithAMaskThatTestsNothing() {
        Breakpoints.assertCaught(MonitorLockInterleavings.class,
                Mutation.opcodeReplaced(BARGING, "unregisterSpinnerAndTryLock", "IAND", "IOR", 1),
                List.of("spinner did not finish: it parked with no wake-up pending"),
                "spinnerRetriesWhenAWaiterQueuesBeforeItsCas");
    }

    /**
     * PIT: BargingAwareLock.unregisterSpinnerAndTryLock L173, the retry's loop condition removed (PIT's
     * "equality check replaced with false", the jump back always taken): after its CAS failed, the
     * spinner retries it with the lock word it read, which has the lock held, so the CAS "sets" the lock
     * bit already set and succeeds: an entry while the barger holds the lock.
     */
    @Test
    void shouldCatchASpinnerThatRetriesItsCasWithTheLockHeld() {
        Breakpoints.assertCaught(MonitorLockInterleavings.class,
                Mutation.branchAlwaysTaken(BARGING, "unregisterSpinnerAndTryLock", "IFEQ", 2),
                List.of("spinner was expected to park", "entered the lock while another held it"),
                "spinnerLosesTheFreedLockToABarger");
    }
}
