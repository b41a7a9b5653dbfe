package io.spinlab.properties.lincheck;

import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stress checker, run with the budget of the linearizability tests, rejects each of the
 * {@link PlantedBugs} as not linearizable: the checks can fail.
 */
public class StressCheckerCatchesPlantedBugTest {

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

    private static void assertRejected(Class<?> spec, Class<?> broken) {
        StressOptions options = LincheckBudget.stress().sequentialSpecification(spec)
                .minimizeFailedScenario(false);
        AssertionError failure = assertThrows(AssertionError.class, () -> options.check(broken));
        assertTrue(failure.getMessage().contains("Invalid execution results"),
                () -> "expected a linearizability violation, got: " + failure.getMessage());
    }
}
