package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.model.spec.ConcurrentQueueSpec;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * ConcurrentQueue is linearizable against {@link ConcurrentQueueSpec}. Segments of two slots
 * make a handful of operations freeze segments, grow, drop drained ones and peek across them.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class ConcurrentQueueLinearizabilityTest {
    private final ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(CollectionsLincheck.context(), 2);

    @Operation
    public boolean offer(@Param(name = "value") int value) {
        return queue.offer(value);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    @Operation
    public Integer peek() {
        return queue.peek();
    }

    @Operation
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    @Operation
    public int size() {
        return queue.size();
    }

    /** The segment's tail CAS made a plain write: two producers reserve one position, one item is lost. */
    static final Mutation POSITION_RESERVED_TWICE = Mutation.casToPlainSet(
            Mutation.nested(ConcurrentQueue.class, "Segment"), "tryEnqueue", "TAIL");

    @Test
    void shouldBeLinearizableWhenModelChecked() {
        CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class).check(getClass());
    }

    /** The segment spin of the other generations: sleep-at-20 (netcore2.0), no-sleep (netcore3.0); net6's above. */
    @ParameterizedTest
    @ValueSource(strings = {"netcore2.0", "netcore3.0"})
    void shouldBeLinearizableWhenModelCheckedUnderEachGenerationsSegmentSpin(String generation) {
        CollectionsLincheck.checkUnder(generation,
                () -> CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class).check(getClass()));
    }

    @Test
    void shouldBeLinearizableWhenStressed() {
        CollectionsLincheck.stress(ConcurrentQueueSpec.class).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenModelChecked() {
        LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class)).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenStressed() {
        LincheckBudget.threeThreads(CollectionsLincheck.stress(ConcurrentQueueSpec.class)).check(getClass());
    }

    @Test
    void shouldCatchPlantedBugWhenModelChecked() {
        Planted.assertCaught(CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class), getClass(),
                POSITION_RESERVED_TWICE);
    }

    @Test
    void shouldCatchPlantedBugWhenStressed() {
        Planted.assertCaught(CollectionsLincheck.stress(ConcurrentQueueSpec.class), getClass(),
                POSITION_RESERVED_TWICE);
    }

    /**
     * PIT's mutants of {@link ConcurrentQueue} that impl's tests cannot kill (impl/MUTATION.md, twelfth measurement:
     * reached only when another thread acts between two of the method's reads, or only after a lost
     * race), each caught by the model checker under this suite's configuration.
     */
    static List<Mutation> pitSurvivors() {
        return List.of(
                Mutation.branchAlwaysTaken(ConcurrentQueue.class, "dequeueSlow", "IFNONNULL", 0),
                Mutation.branchAlwaysTaken(Mutation.nested(ConcurrentQueue.class, "Segment"), "tryDequeue", "IFNONNULL", 0),
                Mutation.branchAlwaysTaken(Mutation.nested(ConcurrentQueue.class, "Segment"), "isEmptyAt", "IFLE", 0),
                Mutation.branchAlwaysTaken(Mutation.nested(ConcurrentQueue.class, "Segment"), "tryPeek", "IFEQ", 0),
                Mutation.branchAlwaysTaken(Mutation.nested(ConcurrentQueue.class, "Segment"), "tryPeek", "IFNONNULL", 0)
        );
    }

    @ParameterizedTest
    @MethodSource("pitSurvivors")
    void shouldCatchEachOfPitsSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class), getClass(), survivor);
    }

    /**
     * The queue's operations with a snapshot beside them: {@code iterator()} is a moment-in-time view (it
     * freezes the segments and waits for items whose slots were reserved but not yet written), so its
     * elements must be the queue's contents at one point of the call. Snapshots also make later offers
     * open new segments, so that the size and dequeue paths across several segments run.
     */
    @Param(name = "value", gen = IntGen.class, conf = "1:9")
    public static class WithSnapshots {
        private final ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(CollectionsLincheck.context(), 2);

        @Operation
        public boolean offer(@Param(name = "value") int value) {
            return queue.offer(value);
        }

        @Operation
        public Integer poll() {
            return queue.poll();
        }

        @Operation
        public int size() {
            return queue.size();
        }

        /** The snapshot's elements, oldest first. */
        @Operation
        public String snapshot() {
            List<Integer> items = new ArrayList<>();
            queue.iterator().forEachRemaining(items::add);
            return items.toString();
        }
    }

    /** {@link WithSnapshots}' counterpart: a FIFO queue whose snapshot lists its elements. */
    public static class WithSnapshotsSpec {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();

        public WithSnapshotsSpec() {
        }

        /** A queue that holds {@code first} … {@code first + count - 1} at the start. */
        WithSnapshotsSpec(int first, int count) {
            for (int i = 0; i < count; i++) {
                items.addLast(first + i);
            }
        }

        public boolean offer(int value) {
            items.addLast(value);
            return true;
        }

        public Integer poll() {
            return items.pollFirst();
        }

        public int size() {
            return items.size();
        }

        public String snapshot() {
            return new ArrayList<>(items).toString();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof WithSnapshotsSpec that && new ArrayList<>(items).equals(new ArrayList<>(that.items));
        }

        @Override
        public int hashCode() {
            return new ArrayList<>(items).hashCode();
        }
    }

    @Test
    void shouldBeLinearizableWithSnapshotsWhenModelChecked() {
        CollectionsLincheck.modelChecking(WithSnapshotsSpec.class).check(WithSnapshots.class);
    }

    @Test
    void shouldBeLinearizableWithSnapshotsAndThreeThreadsWhenModelChecked() {
        LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(WithSnapshotsSpec.class)).check(WithSnapshots.class);
    }

    /**
     * PIT's race-only survivors that only a snapshot reaches (impl/MUTATION.md, twelfth measurement): the
     * wait for a slot reserved but not yet written skipped (L576) or cut short (L578), so the snapshot
     * shows an item that is not there yet; and the freeze offset taken as 0 (L458), so a snapshot's end
     * counts the frozen tail's jump as items; and {@code sizeUnderLock}'s "count again" (-1, when a size()
     * that saw three or more segments finds one or two under the lock, a consumer having dropped the
     * others meanwhile) answered as 0 (L299), so size() reports an empty queue. Snapshots make offers open
     * new segments, which is how a size meets three of them.
     */
    static List<Mutation> snapshotSurvivors() {
        Class<?> segment = Mutation.nested(ConcurrentQueue.class, "Segment");
        return List.of(
                Mutation.branchAlwaysTaken(segment, "itemWhenAvailable", "IF_ICMPEQ", 0),
                Mutation.branchAlwaysTaken(segment, "itemWhenAvailable", "IF_ICMPEQ", 1),
                Mutation.returnsZero(segment, "freezeOffset", "IRETURN", 0),
                Mutation.returnsZero(ConcurrentQueue.class, "sizeUnderLock", "LRETURN", 0));
    }

    @ParameterizedTest
    @MethodSource("snapshotSurvivors")
    void shouldCatchEachOfPitsSnapshotSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(CollectionsLincheck.modelChecking(WithSnapshotsSpec.class), WithSnapshots.class, survivor);
    }

    /**
     * The queue's offer, poll and size starting from three segments of two items each (six offers, a
     * snapshot after every second one, so that each next segment starts small), with nothing generated
     * before the parallel part: every size() of the parallel part that runs before two polls have drained
     * the head segment takes the locked path for three or more segments, beside polls that move the head
     * segment's index and offers that move the tail's.
     */
    @Param(name = "value", gen = IntGen.class, conf = "1:9")
    public static class AcrossSegments {
        static final int FIRST = 11;
        static final int PREFILLED = 6;
        private final ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(CollectionsLincheck.context(), 2);

        public AcrossSegments() {
            for (int i = 1; i <= PREFILLED; i++) {
                queue.offer(FIRST + i - 1);
                if (i % 2 == 0) {
                    queue.iterator();
                }
            }
        }

        @Operation
        public boolean offer(@Param(name = "value") int value) {
            return queue.offer(value);
        }

        @Operation
        public Integer poll() {
            return queue.poll();
        }

        @Operation
        public int size() {
            return queue.size();
        }
    }

    /** {@link AcrossSegments}' counterpart: a FIFO queue holding the same six items at the start. */
    public static final class AcrossSegmentsSpec extends WithSnapshotsSpec {
        public AcrossSegmentsSpec() {
            super(AcrossSegments.FIRST, AcrossSegments.PREFILLED);
        }
    }

    static ModelCheckingOptions acrossSegmentsOptions() {
        return CollectionsLincheck.modelChecking(AcrossSegmentsSpec.class).actorsBefore(0);
    }

    @Test
    void shouldBeLinearizableAcrossSegmentsWhenModelChecked() {
        acrossSegmentsOptions().check(AcrossSegments.class);
    }

    @Test
    void shouldBeLinearizableAcrossSegmentsWithThreeThreadsWhenModelChecked() {
        LincheckBudget.threeThreads(acrossSegmentsOptions()).check(AcrossSegments.class);
    }

    /**
     * PIT's race-only survivors at {@code sizeUnderLock}'s double read of the head segment's index
     * (impl/MUTATION.md, thirteenth measurement): a poll that moves the index between the two reads must
     * make the size count again; with the re-read's branch always taken (L303) the stale index is
     * counted against later tails, and with the retry answered as 0 (L304) size() reports an empty queue.
     */
    static List<Mutation> acrossSegmentsSurvivors() {
        return List.of(
                Mutation.branchAlwaysTaken(ConcurrentQueue.class, "sizeUnderLock", "IF_ICMPEQ", 0),
                Mutation.returnsZero(ConcurrentQueue.class, "sizeUnderLock", "LRETURN", 1));
    }

    @ParameterizedTest
    @MethodSource("acrossSegmentsSurvivors")
    void shouldCatchEachOfPitsAcrossSegmentsSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(acrossSegmentsOptions(), AcrossSegments.class, survivor);
    }

    /** Invocations of the one second-look scenario: at the budget's 1,000 neither of its mutants was caught. */
    static final int SECOND_LOOK_INVOCATIONS = 20_000;

    /**
     * One custom scenario for {@code dequeueSlow}'s second look: a poll that, having found the head segment
     * drained, re-reads the head after another poll moved it on to the (small, unfrozen) tail segment and
     * took its one item, and finds it empty; offers then fill that segment and open the next before the
     * first poll's second look. Built with a snapshot that freezes the first segment after two offers, so
     * that the second starts with two slots; polls afterwards check what is left.
     */
    static ModelCheckingOptions secondLookOptions(Class<?> testClass) {
        try {
            Method offer = testClass.getMethod("offer", int.class);
            Actor poll = new Actor(testClass.getMethod("poll"), List.of());
            List<Actor> init = List.of(new Actor(offer, List.of(1)), new Actor(offer, List.of(2)),
                    new Actor(testClass.getMethod("snapshot"), List.of()), new Actor(offer, List.of(3)), poll, poll);
            List<List<Actor>> parallel = List.of(List.of(poll),
                    List.of(new Actor(offer, List.of(4)), new Actor(offer, List.of(5))), List.of(poll));
            return CollectionsLincheck.modelChecking(WithSnapshotsSpec.class).iterations(0)
                    .invocationsPerIteration(SECOND_LOOK_INVOCATIONS)
                    .addCustomScenario(new ExecutionScenario(init, parallel, List.of(poll, poll, poll), null));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldBeLinearizableWhenAPollsSecondLookRacesOffersWhenModelChecked() {
        secondLookOptions(WithSnapshots.class).check(WithSnapshots.class);
    }

    /**
     * PIT's race-only survivors at {@code dequeueSlow}'s second look (impl/MUTATION.md, thirteenth
     * measurement): the item it finds ignored (L201: the poll moves on and the item is lost), or
     * returned as null (L202: the item is taken and lost).
     */
    static List<Mutation> secondLookSurvivors() {
        return List.of(Mutation.branchAlwaysTaken(ConcurrentQueue.class, "dequeueSlow", "IFNULL", 1),
                Mutation.returnsNull(ConcurrentQueue.class, "dequeueSlow", 2));
    }

    @ParameterizedTest
    @MethodSource("secondLookSurvivors")
    void shouldCatchEachOfPitsSecondLookSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(ConcurrentQueueLinearizabilityTest::secondLookOptions, WithSnapshots.class, survivor);
    }
}
