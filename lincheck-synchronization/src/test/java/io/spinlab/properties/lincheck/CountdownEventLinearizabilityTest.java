package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;

import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.model.spec.CountdownEventSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/**
 * {@link CountdownEvent}'s non-blocking surface is linearizable with respect to
 * {@link CountdownEventSpec}: {@code signal()}, {@code signal(n)}, {@code tryAddCount(n)},
 * {@code addCount(n)} with their rejections, {@code currentCount}, {@code isSet}.
 *
 * <p>The count starts at 2 and moves by 1..2, so scenarios reach zero (the event set), a signal
 * larger than the count, and adds refused by a set event. {@code reset} is left out: the
 * primitive documents it as not atomic with respect to concurrent signals.
 *
 * <p>{@link #awaitZeroAgreesWithTheCount()} adds {@code await(0)}: it once read the internal
 * event, set only after the CAS that reaches zero, so a thread could see a zero count and then
 * {@code await(0)} return false; it now reads the count first, as .NET does.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class CountdownEventLinearizabilityTest {
    static final int INITIAL_COUNT = 2;

    /*
     * No operations before the parallel part: with Lincheck's default of five generated ones (a fixed
     * seed), half of the budget's scenarios signalled the count of 2 down to zero before it, leaving an
     * event that only refuses and throws, where nothing can race.
     */
    static ModelCheckingOptions modelCheckingOptions() {
        return LincheckBudget.modelChecking().sequentialSpecification(Spec.class).actorsBefore(0);
    }

    static StressOptions stressOptions() {
        return LincheckBudget.stress().sequentialSpecification(Spec.class).actorsBefore(0);
    }

    @Test
    public void modelChecking() {
        modelCheckingOptions().check(Operations.class);
    }

    @Test
    public void stress() {
        stressOptions().check(Operations.class);
    }

    /** signal(n)'s CAS made a plain write: two signals that read one count both bring it down from there. */
    static final Mutation SIGNAL_LOST = Mutation.casToPlainSet(CountdownEvent.class, "signal(I)Z", "COUNT");

    /** Two signallers and an adder. */
    @Test
    public void threeThreadsModelChecking() {
        LincheckBudget.threeThreads(modelCheckingOptions()).check(Operations.class);
    }

    @Test
    public void threeThreadsStress() {
        LincheckBudget.threeThreads(stressOptions()).check(Operations.class);
    }

    @Test
    public void plantedSignalLostModelChecking() {
        Planted.assertCaught(modelCheckingOptions(), Operations.class,
                SIGNAL_LOST);
    }

    @Test
    public void plantedSignalLostStress() {
        Planted.assertCaught(stressOptions(), Operations.class,
                SIGNAL_LOST);
    }

    @Test
    public void awaitZeroAgreesWithTheCount() {
        modelCheckingOptions().check(WithWaitZero.class);
    }

    /** The spec in the state this test starts from. */
    public static final class Spec extends CountdownEventSpec {
        public Spec() {
            super(INITIAL_COUNT);
        }
    }

    /** The operations on one countdown event. */
    public static class Operations {
        final CountdownEvent event = new CountdownEvent(CheckedContexts.of(Tuning.current()), INITIAL_COUNT);

        @Operation
        public Object signal() {
            return Outcomes.of(() -> event.signal());
        }

        @Operation
        public Object signal(@Param(gen = IntGen.class, conf = "1:2") int signalCount) {
            return Outcomes.of(() -> event.signal(signalCount));
        }

        @Operation
        public Object tryAddCount(@Param(gen = IntGen.class, conf = "1:2") int signalCount) {
            return Outcomes.of(() -> event.tryAddCount(signalCount));
        }

        @Operation
        public Object addCount(@Param(gen = IntGen.class, conf = "1:2") int signalCount) {
            return Outcomes.ofVoid(() -> event.addCount(signalCount));
        }

        @Operation
        public int currentCount() {
            return event.currentCount();
        }

        @Operation
        public boolean isSet() {
            return event.isSet();
        }
    }

    /** The operations plus {@code await} with a zero timeout. */
    public static final class WithWaitZero extends Operations {
        @Operation
        public boolean waitZero() throws InterruptedException {
            return event.await(0, TimeUnit.NANOSECONDS);
        }
    }
}
