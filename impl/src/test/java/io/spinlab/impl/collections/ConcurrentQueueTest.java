package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
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

    @Test
    void shouldAcceptTheSmallestAndLargestInitialSegmentLengths() {
        for (int length : new int[] {2, ConcurrentQueue.MAX_SEGMENT_LENGTH}) {
            ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(SpinContext.hardware(), length);
            queue.offer(length);
            assertThat(queue.poll()).as("length %d", length).isEqualTo(length);
            assertThat(queue.poll()).isNull();
        }
        assertThatThrownBy(() -> new ConcurrentQueue<Integer>(SpinContext.hardware(), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ConcurrentQueue<Integer>(SpinContext.hardware(),
                2 * ConcurrentQueue.MAX_SEGMENT_LENGTH)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A snapshot freezes the tail segment; an empty frozen segment still counts no element. */
    @Test
    void shouldCountNothingInAnEmptySegmentFrozenByASnapshot() {
        ConcurrentQueue<Integer> queue = newQueue();
        assertThat(queue.iterator().hasNext()).isFalse();

        assertThat(queue.size()).isZero();
        assertThat(queue.isEmpty()).isTrue();
        queue.offer(1);
        assertThat(queue.size()).isOne();
    }

    /** An exhausted snapshot iterator throws, as Iterator says, instead of waiting for a slot. */
    @Test
    void shouldThrowFromAnExhaustedSnapshotIterator() {
        ConcurrentQueue<Integer> queue = newQueue();
        queue.offer(1);
        Iterator<Integer> it = queue.iterator();
        assertThat(it.next()).isOne();

        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    /**
     * size() over three segments counts under the cross-segment lock and lets it go: a snapshot taken
     * afterwards on another thread does not wait for it.
     */
    @Test
    void shouldReleaseTheCrossSegmentLockAfterCountingSeveralSegments() throws Exception {
        ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(SpinContext.hardware(), 2);
        for (int i = 0; i < 7; i++) {
            queue.offer(i);
        }

        assertThat(queue.size()).isEqualTo(7);

        FutureTask<Integer> snapshot = new FutureTask<>(() -> {
            int n = 0;
            for (Integer ignored : queue) {
                n++;
            }
            return n;
        });
        Thread other = new Thread(snapshot, "snapshot");
        other.setDaemon(true);
        other.start();
        assertThat(snapshot.get(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS))
                .as("the snapshot on another thread finished: the lock was free").isEqualTo(7);
    }
}
