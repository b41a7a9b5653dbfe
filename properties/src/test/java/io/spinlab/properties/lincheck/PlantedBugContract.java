package io.spinlab.properties.lincheck;

import org.jetbrains.lincheck.datastructures.Options;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Lincheck checker, run with the budget of the linearizability tests, rejects each of the
 * {@link PlantedBugs} as not linearizable: the checks can fail. One subclass per checker.
 */
abstract class PlantedBugContract {

    /** The checker under test, with the suite's budget. */
    abstract Options<?, ?> checker();

    @Test
    public void shouldRejectASemaphoreWithALostUpdate() {
        assertRejected(SemaphoreSlimLinearizabilityTest.Spec.class, PlantedBugs.RacySemaphore.class);
    }

    @Test
    public void shouldRejectACountdownEventWithALostSignal() {
        assertRejected(CountdownEventLinearizabilityTest.Spec.class, PlantedBugs.RacyCountdownEvent.class);
    }

    @Test
    public void shouldRejectASpinLockWithoutMutualExclusion() {
        assertRejected(SpinLockLinearizabilityTest.AnonymousSpec.class, PlantedBugs.RacySpinLock.class);
    }

    private void assertRejected(Class<?> spec, Class<?> broken) {
        Options<?, ?> options = checker().sequentialSpecification(spec).minimizeFailedScenario(false);
        AssertionError failure = assertThrows(AssertionError.class, () -> options.check(broken));
        assertTrue(failure.getMessage().contains("Invalid execution results"),
                () -> "expected a linearizability violation, got: " + failure.getMessage());
    }
}
