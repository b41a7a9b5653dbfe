package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConcurrentQueueTest extends ConcurrentFifoContractTest {

    @Override
    ConcurrentQueue<Integer> newQueue() {
        return new ConcurrentQueue<>(SpinContext.hardware(), 4);
    }

    @Test
    void shouldRejectInitialSegmentLengthWhenNotPowerOfTwo() {
        assertThatThrownBy(() -> new ConcurrentQueue<Integer>(SpinContext.hardware(), 6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
    }

    @Test
    void shouldPeekHeadWithoutRemovingWhenNotEmpty() {
        ConcurrentQueue<Integer> queue = newQueue();
        assertThat(queue.peek()).isNull();
        for (int i = 0; i < 10; i++) {
            queue.offer(i);
        }

        assertThat(queue.peek()).isZero();
        assertThat(queue.poll()).isZero();
        assertThat(queue.peek()).isEqualTo(1);
        assertThat(queue).hasSize(9);
    }

    @Test
    void shouldKeepWorkingWhenPeekPreservedASegment() {
        ConcurrentQueue<Integer> queue = newQueue();
        int expected = 0;
        int next = 0;
        for (int round = 0; round < 200; round++) {
            queue.offer(next++);
            queue.offer(next++);
            assertThat(queue.peek()).isEqualTo(expected);
            assertThat(queue.poll()).isEqualTo(expected++);
        }
        assertThat(queue.size()).isEqualTo(next - expected);
    }

    @Test
    void shouldCountExactlyWhenElementsSpanManySegments() {
        ConcurrentQueue<Integer> queue = newQueue();
        for (int i = 0; i < 100; i++) {
            queue.offer(i);
        }
        for (int i = 0; i < 37; i++) {
            queue.poll();
        }

        assertThat(queue.size()).isEqualTo(63);
    }

    @Test
    void shouldIterateSnapshotWhenQueueChangesAfterwards() {
        ConcurrentQueue<Integer> queue = newQueue();
        for (int i = 0; i < 20; i++) {
            queue.offer(i);
        }
        queue.poll();
        queue.poll();

        Iterator<Integer> iterator = queue.iterator();
        for (int i = 0; i < 10; i++) {
            queue.poll();
        }
        queue.offer(100);
        List<Integer> seen = new ArrayList<>();
        iterator.forEachRemaining(seen::add);

        assertThat(seen).containsExactlyElementsOf(range(2, 20));
        List<Integer> after = new ArrayList<>(queue);
        List<Integer> expected = new ArrayList<>(range(12, 20));
        expected.add(100);
        assertThat(after).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldNotSupportRemovalWhenIterating() {
        ConcurrentQueue<Integer> queue = newQueue();
        queue.offer(1);
        Iterator<Integer> iterator = queue.iterator();
        iterator.next();

        assertThatThrownBy(iterator::remove).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldSeeEveryElementStillQueuedWhenIteratingDuringOffersAndPolls() throws Exception {
        ConcurrentQueue<Integer> queue = newQueue();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        for (int i = 0; i < 50; i++) {
            queue.offer(i);
        }
        Thread churn = new Thread(() -> {
            int next = 50;
            started.countDown();
            while (!stop.get()) {
                queue.offer(next++);
                queue.offer(next++);
                queue.poll();
                queue.poll();
            }
        });
        churn.start();
        started.await();
        try {
            for (int round = 0; round < 200; round++) {
                List<Integer> snapshot = new ArrayList<>();
                queue.iterator().forEachRemaining(snapshot::add);
                for (int i = 1; i < snapshot.size(); i++) {
                    assertThat(snapshot.get(i)).as("consecutive in a snapshot").isEqualTo(snapshot.get(i - 1) + 1);
                }
            }
        } finally {
            stop.set(true);
            churn.join();
        }
    }

    private static List<Integer> range(int fromInclusive, int toExclusive) {
        List<Integer> out = new ArrayList<>();
        for (int i = fromInclusive; i < toExclusive; i++) {
            out.add(i);
        }
        return out;
    }
}
