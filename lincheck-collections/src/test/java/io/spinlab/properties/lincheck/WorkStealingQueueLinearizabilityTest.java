package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.model.spec.WorkStealingQueueSpec;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * WorkStealingQueue is linearizable as a deque against {@link WorkStealingQueueSpec}: push
 * and pop run on one owner thread (a non-parallel group), steals in parallel. A steal that
 * reports a miss (busy lock, lost race for the last element) is retried, as the pool does by
 * requesting another look. A four-slot array makes the locked push, the growth and the
 * last-element race reachable.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class WorkStealingQueueLinearizabilityTest {
    private final WorkStealingQueue<Integer> queue = new WorkStealingQueue<>(CollectionsLincheck.context(), 4);

    @Operation(nonParallelGroup = "owner")
    public void push(@Param(name = "value") int value) {
        queue.push(value);
    }

    @Operation(nonParallelGroup = "owner")
    public Integer pop() {
        return queue.pop();
    }

    @Operation
    public Integer steal() {
        WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();
        for (;;) {
            missed.clear();
            Integer item = queue.trySteal(missed);
            if (item != null || !missed.missed()) {
                return item;
            }
        }
    }

    /** pop skips its re-check under the lock: the owner takes the last element a thief has just taken. */
    static final Mutation POP_SKIPS_RECHECK_UNDER_LOCK = Mutation.branchNeverTaken(
            WorkStealingQueue.class, "pop", "IF_ICMPGT", 1);

    @Test
    void shouldBeLinearizableWhenModelChecked() {
        CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class).check(getClass());
    }

    @Test
    void shouldBeLinearizableWhenStressed() {
        CollectionsLincheck.stress(WorkStealingQueueSpec.class).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenModelChecked() {
        LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class)).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenStressed() {
        LincheckBudget.threeThreads(CollectionsLincheck.stress(WorkStealingQueueSpec.class)).check(getClass());
    }

    @Test
    void shouldCatchPlantedBugWhenModelChecked() {
        Planted.assertCaught(CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class), getClass(),
                POP_SKIPS_RECHECK_UNDER_LOCK);
    }

    @Test
    void shouldCatchPlantedBugWhenStressed() {
        Planted.assertCaught(CollectionsLincheck.stress(WorkStealingQueueSpec.class), getClass(),
                POP_SKIPS_RECHECK_UNDER_LOCK);
    }

    /**
     * PIT's mutants of {@link WorkStealingQueue} that impl's tests cannot kill (impl/MUTATION.md, twelfth measurement:
     * reached only when another thread acts between two of the method's reads, or only after a lost
     * race), each caught by the model checker under this suite's configuration.
     */
    static List<Mutation> pitSurvivors() {
        return List.of(
                Mutation.opcodeReplaced(WorkStealingQueue.class, "pop", "IF_ICMPLT", "IF_ICMPLE", 0),
                Mutation.branchAlwaysTaken(WorkStealingQueue.class, "pop", "IF_ICMPLT", 0),
                Mutation.callRemoved(WorkStealingQueue.class, "pop", "enter", 0),
                Mutation.opcodeReplaced(WorkStealingQueue.class, "pop", "IF_ICMPGT", "IF_ICMPGE", 1),
                Mutation.branchAlwaysTaken(WorkStealingQueue.class, "pop", "IF_ICMPGT", 1),
                Mutation.opcodeReplaced(WorkStealingQueue.class, "pop", "IAND", "IOR", 1),
                Mutation.returnsNull(WorkStealingQueue.class, "pop", 2),
                Mutation.opcodeReplaced(WorkStealingQueue.class, "pop", "IADD", "ISUB", 0),
                Mutation.callRemoved(WorkStealingQueue.class, "pop", "setRelease", 0),
                Mutation.callRemoved(WorkStealingQueue.class, "pop", "exit", 0),
                Mutation.opcodeReplaced(WorkStealingQueue.class, "trySteal(Lio/spinlab/impl/collections/WorkStealingQueue$MissedSteal;)Ljava/lang/Object;", "IF_ICMPGE", "IF_ICMPGT", 0),
                Mutation.branchAlwaysTaken(WorkStealingQueue.class, "trySteal(Lio/spinlab/impl/collections/WorkStealingQueue$MissedSteal;)Ljava/lang/Object;", "IFNULL", 0),
                Mutation.callRemoved(WorkStealingQueue.class, "trySteal(Lio/spinlab/impl/collections/WorkStealingQueue$MissedSteal;)Ljava/lang/Object;", "set", 0)
        );
    }

    @ParameterizedTest
    @MethodSource("pitSurvivors")
    void shouldCatchEachOfPitsSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class), getClass(), survivor);
    }
}
