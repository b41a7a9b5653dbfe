package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owner's indices passing {@code Integer.MAX_VALUE}: after about 2^31 pushes the tail reaches it
 * and the owner masks both indices down under the lock, keeping their distance. The test starts the
 * indices just below the bound (set through the fields, as 2^31 pushes would leave them), so every
 * element pushed across it must still come out, popped newest first or stolen oldest first.
 */
class WorkStealingQueueTailOverflowTest {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup =
                    MethodHandles.privateLookupIn(WorkStealingQueue.class, MethodHandles.lookup());
            HEAD = lookup.findVarHandle(WorkStealingQueue.class, "head", int.class);
            TAIL = lookup.findVarHandle(WorkStealingQueue.class, "tail", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An empty queue of 32 slots whose indices both stand at {@code index}. */
    private static WorkStealingQueue<Integer> emptyAt(int index) {
        WorkStealingQueue<Integer> queue = new WorkStealingQueue<>(SpinContext.hardware(), 32);
        HEAD.setVolatile(queue, index);
        TAIL.setVolatile(queue, index);
        return queue;
    }

    @Test
    void shouldPopEveryElementNewestFirstAcrossTheBound() {
        WorkStealingQueue<Integer> queue = emptyAt(Integer.MAX_VALUE - 3);
        for (int i = 0; i < 6; i++) {
            queue.push(i); // the fourth push finds the tail at Integer.MAX_VALUE
        }

        assertThat((int) TAIL.getVolatile(queue)).as("masked down").isLessThan(64);
        assertThat(queue.size()).isEqualTo(6);
        for (int i = 5; i >= 0; i--) {
            assertThat(queue.pop()).isEqualTo(i);
        }
        assertThat(queue.pop()).isNull();
        assertThat(queue.trySteal()).isNull();
    }

    @Test
    void shouldStealEveryElementOldestFirstAcrossTheBoundWithTheLockFree() {
        WorkStealingQueue<Integer> queue = emptyAt(Integer.MAX_VALUE - 3);
        for (int i = 0; i < 6; i++) {
            queue.push(i);
        }

        WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();
        for (int i = 0; i < 6; i++) {
            assertThat(queue.trySteal(missed)).isEqualTo(i);
        }
        assertThat(missed.missed()).as("the lock was left free").isFalse();
        assertThat(queue.trySteal(missed)).isNull();
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void shouldKeepTheDistanceOfANonEmptyQueueWhenMaskingDown() {
        WorkStealingQueue<Integer> queue = emptyAt(Integer.MAX_VALUE - 3);
        queue.push(0);
        queue.push(1);
        assertThat(queue.trySteal()).isZero(); // head MAX_VALUE - 2, tail MAX_VALUE - 1
        queue.push(2); // tail reaches MAX_VALUE
        queue.push(3); // masked down here, with two elements queued

        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.trySteal()).isEqualTo(1);
        assertThat(queue.pop()).isEqualTo(3);
        assertThat(queue.pop()).isEqualTo(2);
        assertThat(queue.pop()).isNull();
    }
}
