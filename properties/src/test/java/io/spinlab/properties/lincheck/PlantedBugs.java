package io.spinlab.properties.lincheck;

import io.spinlab.model.spec.Outcome;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * Deliberately broken primitives, with the same operations and specifications as the
 * linearizability tests of the real ones, to prove that the checks can fail: a check that
 * passes these is not checking anything.
 *
 * <p>Each bug is the classic one of its family: a shared count updated with a read and a
 * separate plain write instead of a CAS, so that two threads can both act on the same value (a
 * permit taken twice, a signal lost, a lock entered twice). A {@code Thread.yield()} between the
 * read and the write widens the window, so that the stress checker, which cannot choose
 * interleavings, meets it within the CI budget on two processors; the model checker needs no
 * help, it switches threads at the read.
 */
final class PlantedBugs {
    private PlantedBugs() {
    }

    /** A semaphore whose acquire and release lose updates; spec: {@link SemaphoreSlimLinearizabilityTest.Spec}. */
    public static final class RacySemaphore {
        private volatile int count = SemaphoreSlimLinearizabilityTest.INITIAL_COUNT;

        @Operation
        public boolean tryAcquire() {
            int c = count;
            if (c == 0) {
                return false;
            }
            Thread.yield();
            count = c - 1; // BUG: a plain write of a value read earlier; another acquire may have taken it
            return true;
        }

        @Operation
        public boolean tryAcquireZero() {
            return tryAcquire();
        }

        @Operation
        public Object release(@Param(gen = IntGen.class, conf = "1:3") int releaseCount) {
            int c = count;
            if (SemaphoreSlimLinearizabilityTest.MAX_COUNT - c < releaseCount) {
                return Outcome.thrown(IllegalStateException.class);
            }
            Thread.yield();
            count = c + releaseCount; // BUG: as in tryAcquire
            return c;
        }

        @Operation
        public int currentCount() {
            return count;
        }
    }

    /** A countdown event whose signals lose updates; spec: {@link CountdownEventLinearizabilityTest.Spec}. */
    public static final class RacyCountdownEvent {
        private volatile int count = CountdownEventLinearizabilityTest.INITIAL_COUNT;

        @Operation
        public Object signal() {
            return signal(1);
        }

        @Operation
        public Object signal(@Param(gen = IntGen.class, conf = "1:2") int signalCount) {
            int c = count;
            if (c < signalCount) {
                return Outcome.thrown(IllegalStateException.class);
            }
            Thread.yield();
            count = c - signalCount; // BUG: two signals can both bring the count to zero
            return c == signalCount;
        }

        @Operation
        public Object tryAddCount(@Param(gen = IntGen.class, conf = "1:2") int signalCount) {
            int c = count;
            if (c == 0) {
                return false;
            }
            Thread.yield();
            count = c + signalCount; // BUG: may raise a count that a signal has meanwhile brought to zero
            return true;
        }

        @Operation
        public Object addCount(@Param(gen = IntGen.class, conf = "1:2") int signalCount) {
            return Boolean.TRUE.equals(tryAddCount(signalCount)) ? Outcome.OK
                    : Outcome.thrown(IllegalStateException.class);
        }

        @Operation
        public int currentCount() {
            return count;
        }

        @Operation
        public boolean isSet() {
            return count == 0;
        }
    }

    /**
     * A spin lock that tests and then sets its flag in two steps, so two threads can both enter;
     * spec: {@link SpinLockLinearizabilityTest.AnonymousSpec}, as the critical sections of the real one.
     */
    public static final class RacySpinLock {
        private volatile boolean held;
        private int counter;

        @Operation
        public int increment() {
            while (held) {
                Thread.onSpinWait();
            }
            Thread.yield();
            held = true; // BUG: not a CAS; another thread may have seen the lock free too
            int before = counter;
            Thread.yield();
            counter = before + 1;
            held = false;
            return before;
        }
    }
}
