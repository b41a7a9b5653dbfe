package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.model.spec.ConcurrentQueueSpec;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * The legacy QueueSegment global queue is linearizable against {@link ConcurrentQueueSpec}.
 * Two-slot segments make a handful of operations link new segments and advance both ends.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class QueueSegmentQueueLinearizabilityTest {
    private final QueueSegmentQueue<Integer> queue = new QueueSegmentQueue<>(CollectionsLincheck.context(), 2);

    @Operation
    public boolean offer(@Param(name = "value") int value) {
        return queue.offer(value);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    @Operation
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /** The segment's index CAS in tryEnqueue made a plain write: two producers reserve one slot. */
    static final Mutation SLOT_RESERVED_TWICE = Mutation.casToPlainSet(
            Mutation.nested(QueueSegmentQueue.class, "Segment"), "tryEnqueue", "INDEXES");

    @Test
    void shouldBeLinearizableWhenModelChecked() {
        CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class).check(getClass());
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
                SLOT_RESERVED_TWICE);
    }

    @Test
    void shouldCatchPlantedBugWhenStressed() {
        Planted.assertCaught(CollectionsLincheck.stress(ConcurrentQueueSpec.class), getClass(), SLOT_RESERVED_TWICE);
    }

    /**
     * PIT's mutants of {@link QueueSegmentQueue} that impl's tests cannot kill (impl/MUTATION.md, twelfth measurement:
     * reached only when another thread acts between two of the method's reads, or only after a lost
     * race), each caught by the model checker under this suite's configuration.
     */
    static List<Mutation> pitSurvivors() {
        return List.of(
                Mutation.branchAlwaysTaken(QueueSegmentQueue.class, "poll", "IFNE", 0),
                Mutation.returnsTrue(Mutation.nested(QueueSegmentQueue.class, "Segment"), "isUsedUp", 0)
        );
    }

    @ParameterizedTest
    @MethodSource("pitSurvivors")
    void shouldCatchEachOfPitsSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class), getClass(), survivor);
    }
}
