package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.spec.ManualResetEventSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
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

    /**
     * addWaiter's CAS made a plain write: a waiter registering itself rewrites the state word it
     * read before a concurrent {@code set()}, clearing SIGNALED; the event reads unset after set.
     */
    static final Mutation SET_LOST_TO_WAITER = Mutation.casToPlainSet(ManualResetEvent.class, "addWaiter", "STATE");

    @Test
    public void withTimedWaitModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(WithTimedWaitSpec.class).check(WithTimedWait.class);
    }

    /**
     * netcore2.0's spin before blocking (processor-scaled raw PAUSEs, then SpinWait's exponential
     * schedule); the newest generation's (SpinOnce) above. #13556's unscaled spin differs from it
     * only in the PAUSE count.
     */
    @Test
    public void withTimedWaitNetcore20ModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(WithTimedWaitSpec.class)
                .check(WithTimedWaitNetcore20.class);
    }

    /** {@link WithTimedWait} under netcore2.0. */
    public static final class WithTimedWaitNetcore20 extends WithTimedWait {
        public WithTimedWaitNetcore20() {
            super(Tuning.parse("netcore2.0"));
        }
    }

    @Test
    public void withTimedWaitStress() {
        LincheckBudget.stress().sequentialSpecification(WithTimedWaitSpec.class).check(WithTimedWait.class);
    }

    /** A setter, a resetter and a waiter that blocks, each on its own thread. */
    @Test
    public void withTimedWaitThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(LincheckBudget.modelChecking()).sequentialSpecification(WithTimedWaitSpec.class)
                .check(WithTimedWait.class);
    }

    @Test
    public void withTimedWaitThreeThreadsStress() {
        LincheckBudget.threeThreads(LincheckBudget.stress()).sequentialSpecification(WithTimedWaitSpec.class)
                .check(WithTimedWait.class);
    }

    @Test
    public void plantedSetLostToWaiterModelChecking() {
        Planted.assertCaught(LincheckBudget.modelChecking().sequentialSpecification(WithTimedWaitSpec.class),
                WithTimedWait.class, SET_LOST_TO_WAITER);
    }

    @Test
    public void plantedSetLostToWaiterStress() {
        Planted.assertCaught(LincheckBudget.stress().sequentialSpecification(WithTimedWaitSpec.class),
                WithTimedWait.class, SET_LOST_TO_WAITER);
    }

    /** The spec with a timed wait: it returns whether the event is set (when it times out, it was not). */
    public static final class WithTimedWaitSpec extends ManualResetEventSpec {
        public WithTimedWaitSpec() {
            super(false);
        }

        public boolean awaitTimed() {
            return isSet();
        }
    }

    /**
     * The operations plus a wait with a short timeout, which reaches the blocking path: the
     * waiter registration under the lock, the re-check, the timed wait on the lock's condition.
     * The platform's clock ticks once per read and its timed parks return at once (a spurious
     * wake-up, which the wait allows), so the wait times out after a few reads of the clock under
     * either checker instead of hanging the model checker, whose timed waits never expire. One
     * spin iteration before blocking, as on a single processor.
     */
    public static class WithTimedWait {
        /** Clock reads, each one tick, before the timed wait gives up. */
        static final long TIMEOUT_TICKS = 3;

        private final ManualResetEvent event;

        public WithTimedWait() {
            this(Tuning.current());
        }

        WithTimedWait(Tuning tuning) {
            event = new ManualResetEvent(SpinContext.of(new TickingClock(),
                    tuning, CheckedContexts.FixedPauseNormalizer.INSTANCE), false, 1);
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

        @Operation
        public boolean awaitTimed() throws InterruptedException {
            return event.await(TIMEOUT_TICKS, TimeUnit.NANOSECONDS);
        }
    }
}
