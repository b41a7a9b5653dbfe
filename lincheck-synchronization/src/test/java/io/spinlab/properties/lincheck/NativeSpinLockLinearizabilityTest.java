package io.spinlab.properties.lincheck;

import io.spinlab.impl.lock.NativeSpinLock;
import io.spinlab.model.spec.SpinLockSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * {@link NativeSpinLock} (CoreCLR's native spin lock, the buffer manager's lock) gives mutual
 * exclusion: critical sections that increment a plain counter with a read and a separate write
 * are linearizable with respect to {@link SpinLockSpec}'s {@code increment}, in both poll steps
 * of the {@code native-spinlock} knob ({@code raw}, netcore2.1; {@code normalized}, current). The
 * lock has no timed enter, so a lock that is never released shows as a hang, which Lincheck
 * reports too.
 *
 * <p>A planted mutant, {@code tryEnter}'s CAS made a plain write (two threads that both see the
 * lock free both take it), must be caught under the same options.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class NativeSpinLockLinearizabilityTest {

    @Test
    public void normalizedCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(Spec.class).check(Normalized.class);
    }

    @Test
    public void normalizedCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(Spec.class).check(Normalized.class);
    }

    @Test
    public void rawCriticalSectionsModelChecking() {
        LincheckBudget.modelChecking().sequentialSpecification(Spec.class).check(Raw.class);
    }

    @Test
    public void rawCriticalSectionsStress() {
        LincheckBudget.stress().sequentialSpecification(Spec.class).check(Raw.class);
    }

    /** tryEnter's CAS made a plain write: both contenders that see the lock free enter. */
    static final Mutation ENTERED_TWICE = Mutation.casToPlainSet(NativeSpinLock.class, "tryEnter", "STATE");

    @Test
    public void plantedEnteredTwiceModelChecking() {
        Planted.assertCaught(LincheckBudget.modelChecking().sequentialSpecification(Spec.class), Normalized.class,
                ENTERED_TWICE);
    }

    @Test
    public void plantedEnteredTwiceStress() {
        Planted.assertCaught(LincheckBudget.stress().sequentialSpecification(Spec.class), Normalized.class,
                ENTERED_TWICE);
    }

    /** The spec of a lock without an owner, of which only the critical sections are used. */
    public static final class Spec extends SpinLockSpec {
        public Spec() {
            super(false);
        }
    }

    /** Critical sections guarding a plain counter. */
    public abstract static class CriticalSections {
        private final NativeSpinLock lock;
        private int counter;

        CriticalSections(Tuning tuning) {
            this.lock = new NativeSpinLock(CheckedContexts.of(tuning));
        }

        /** Returns the counter before the increment. */
        @Operation
        public int increment() {
            lock.enter();
            int before = counter;
            counter = before + 1;
            lock.exit();
            return before;
        }
    }

    /** {@code native-spinlock=normalized} (current: .NET Core 3.0 on). */
    public static final class Normalized extends CriticalSections {
        public Normalized() {
            super(Tuning.current());
        }
    }

    /** {@code native-spinlock=raw} (.NET Core 2.0 and 2.1). */
    public static final class Raw extends CriticalSections {
        public Raw() {
            super(Tuning.parse("netcore2.1"));
        }
    }
}
