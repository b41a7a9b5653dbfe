package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.model.spec.ManualResetEventSpec;
import io.spinlab.model.tuning.Tuning;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/**
 * {@link ManualResetEvent}'s non-blocking surface is linearizable with respect to
 * {@link ManualResetEventSpec}: {@code set}, {@code reset}, {@code isSet}, and {@code await} with
 * a zero timeout.
 *
 * <p>The event starts unset. The tuning does not matter here: without blocked waiters
 * {@code set} never takes the lock, and a zero-timeout wait returns before the spin phase.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class ManualResetEventLinearizabilityTest {
    private final ManualResetEvent event = new ManualResetEvent(
            CheckedContexts.of(Tuning.current()));

    /** The spec in the state this test starts from. */
    public static final class Spec extends ManualResetEventSpec {
        public Spec() {
            super(false);
        }
    }

    @Operation
    public void set() {
        event.set();
    }

    @Operation
    public void reset() {
        event.reset();
    }

    @Operation
    public boolean isSet() {
        return event.isSet();
    }

    @Operation
    public boolean waitZero() throws InterruptedException {
        return event.await(0, TimeUnit.NANOSECONDS);
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
