package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.collections.ConcurrentStack;
import io.spinlab.model.spec.StackSpec;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/** ConcurrentStack, ranges included, is linearizable against {@link StackSpec}. */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class ConcurrentStackLinearizabilityTest {
    private final ConcurrentStack<Integer> stack = new ConcurrentStack<>(CollectionsLincheck.context());

    @Operation
    public void push(@Param(name = "value") int value) {
        stack.push(value);
    }

    @Operation
    public void pushTwo(@Param(name = "value") int first, @Param(name = "value") int second) {
        stack.pushRange(List.of(first, second));
    }

    @Operation
    public Integer pop() {
        return stack.pop();
    }

    @Operation
    public List<Integer> popTwo() {
        return stack.popRange(2);
    }

    @Operation
    public Integer peek() {
        return stack.peek();
    }

    @Operation
    public boolean isEmpty() {
        return stack.isEmpty();
    }

    @Operation
    public int size() {
        return stack.size();
    }

    /** push's CAS on head made a plain write: a push or pop in between is lost. */
    static final Mutation PUSH_WITHOUT_CAS = Mutation.casToPlainSet(ConcurrentStack.class, "push", "HEAD");

    @Test
    void shouldBeLinearizableWhenModelChecked() {
        CollectionsLincheck.modelChecking(StackSpec.class).check(getClass());
    }

    /** The retry spin of netcore2.0 (sleep-at-20); the newest generation's (no-sleep, from 3.0) above. */
    @Test
    void shouldBeLinearizableWhenModelCheckedUnderNetcore20sRetrySpin() {
        CollectionsLincheck.checkUnder("netcore2.0",
                () -> CollectionsLincheck.modelChecking(StackSpec.class).check(getClass()));
    }

    @Test
    void shouldBeLinearizableWhenStressed() {
        CollectionsLincheck.stress(StackSpec.class).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenModelChecked() {
        LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(StackSpec.class)).check(getClass());
    }

    @Test
    void shouldBeLinearizableWithThreeThreadsWhenStressed() {
        LincheckBudget.threeThreads(CollectionsLincheck.stress(StackSpec.class)).check(getClass());
    }

    @Test
    void shouldCatchPlantedBugWhenModelChecked() {
        Planted.assertCaught(CollectionsLincheck.modelChecking(StackSpec.class), getClass(), PUSH_WITHOUT_CAS);
    }

    @Test
    void shouldCatchPlantedBugWhenStressed() {
        Planted.assertCaught(CollectionsLincheck.stress(StackSpec.class), getClass(), PUSH_WITHOUT_CAS);
    }

    /**
     * PIT's mutants of {@link ConcurrentStack} that impl's tests cannot kill (impl/MUTATION.md, twelfth measurement:
     * reached only when another thread acts between two of the method's reads, or only after a lost
     * race), each caught by the model checker under this suite's configuration.
     */
    static List<Mutation> pitSurvivors() {
        return List.of(
                Mutation.callRemoved(ConcurrentStack.class, "push", "pushCore", 0),
                Mutation.branchAlwaysTaken(ConcurrentStack.class, "pop", "IFNONNULL", 1),
                Mutation.returnsNull(ConcurrentStack.class, "pop", 2)
        );
    }

    @ParameterizedTest
    @MethodSource("pitSurvivors")
    void shouldCatchEachOfPitsSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(CollectionsLincheck.modelChecking(StackSpec.class), getClass(), survivor);
    }
}
