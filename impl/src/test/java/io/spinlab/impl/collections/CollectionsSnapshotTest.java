package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** One thread: the collections' snapshots (size, toList, toString), range edges and empty cases. */
class CollectionsSnapshotTest {

    @Test
    void shouldShowTheStackTopFirstAndPopRangesAcrossItsEnd() {
        ConcurrentStack<Integer> stack = new ConcurrentStack<>(SpinContext.hardware());
        assertThat(stack.popRange(3)).isEmpty();
        assertThat(stack.pop()).isNull();
        assertThat(stack.peek()).isNull();
        for (int i = 1; i <= 4; i++) {
            stack.push(i);
        }

        assertThat(stack).hasToString("ConcurrentStack[4, 3, 2, 1]");
        assertThat(stack.size()).isEqualTo(4);
        assertThat(stack.popRange(1)).containsExactly(4);
        assertThat(stack.popRange(2)).containsExactly(3, 2);
        assertThat(stack.toList()).containsExactly(1);
        assertThat(stack.popRange(5)).containsExactly(1);
        assertThat(stack.isEmpty()).isTrue();
        stack.pushRange(List.of(7, 8));
        stack.clear();
        assertThat(stack.size()).isZero();
        assertThat(stack).hasToString("ConcurrentStack[]");
    }

    @Test
    void shouldCountAndDrainAcrossSegmentsOfTheSmallestLength() {
        QueueSegmentQueue<Integer> queue = new QueueSegmentQueue<>(SpinContext.hardware(), 2);
        for (int i = 0; i < 5; i++) {
            queue.offer(i);
        }

        assertThat(queue.size()).isEqualTo(5);
        assertThat(queue).hasToString("QueueSegmentQueue[size~5]");
        List<Integer> drained = new ArrayList<>();
        for (Integer e = queue.poll(); e != null; e = queue.poll()) {
            drained.add(e);
            assertThat(queue.size()).isEqualTo(4 - e);
            assertThat(queue.isEmpty()).isEqualTo(e == 4);
        }
        assertThat(drained).containsExactly(0, 1, 2, 3, 4);
        assertThat(queue.poll()).isNull();
    }

    @Test
    void shouldAcceptSegmentLengthsOnlyFromTwoToTheMaximum() {
        SpinContext context = SpinContext.hardware();
        QueueSegmentQueue<Integer> largest = new QueueSegmentQueue<>(context, QueueSegmentQueue.MAX_SEGMENT_LENGTH);
        largest.offer(1);

        assertThat(largest.poll()).isEqualTo(1);
        assertThatIllegalArgumentException().isThrownBy(() -> new QueueSegmentQueue<Integer>(context, 1))
                .withMessage("segmentLength = 1 is out of range; allowed 2..32768");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new QueueSegmentQueue<Integer>(context, QueueSegmentQueue.MAX_SEGMENT_LENGTH + 1))
                .withMessage("segmentLength = 32769 is out of range; allowed 2..32768");
    }

    @Test
    void shouldHandTheOwnersElementsNewestFirstWhenCleared() {
        WorkStealingQueue<Integer> queue = new WorkStealingQueue<>(SpinContext.hardware());
        WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();
        assertThat(queue.canSteal()).isFalse();
        assertThat(queue.trySteal(missed)).isNull();
        assertThat(missed.missed()).as("an empty queue is not a missed steal").isFalse();
        for (int i = 0; i < 3; i++) {
            queue.push(i);
        }
        assertThat(queue.canSteal()).isTrue();
        List<Integer> sink = new ArrayList<>();

        queue.clearOwner(sink::add);

        assertThat(sink).containsExactly(2, 1, 0);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue).hasToString("WorkStealingQueue[size=0, capacity=32]");
    }
}
