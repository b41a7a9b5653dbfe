package io.spinlab.impl.collections;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link ConcurrentFifo} promises (JCTools QueueSanityTest style); one subclass per
 * implementation. Small segments so that a few hundred elements cross many segment boundaries.
 */
abstract class ConcurrentFifoContractTest {

    static final int PRODUCERS = 2;
    static final int CONSUMERS = 2;
    static final int PER_PRODUCER = 100_000;

    /** A fresh, empty queue with short segments. */
    abstract ConcurrentFifo<Integer> newQueue();

    @Test
    void shouldReturnNullWhenPolledEmpty() {
        ConcurrentFifo<Integer> queue = newQueue();

        assertThat(queue.poll()).isNull();
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.size()).isZero();
    }

    @Test
    void shouldRejectNullWhenOffered() {
        ConcurrentFifo<Integer> queue = newQueue();

        assertThatThrownBy(() -> queue.offer(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void shouldKeepFifoOrderWhenCrossingManySegments() {
        ConcurrentFifo<Integer> queue = newQueue();
        for (int i = 0; i < 1_000; i++) {
            assertThat(queue.offer(i)).isTrue();
        }
        assertThat(queue.size()).isEqualTo(1_000);
        assertThat(queue.isEmpty()).isFalse();

        for (int i = 0; i < 1_000; i++) {
            assertThat(queue.poll()).isEqualTo(i);
        }
        assertThat(queue.poll()).isNull();
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void shouldKeepFifoOrderWhenOffersAndPollsInterleave() {
        ConcurrentFifo<Integer> queue = newQueue();
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 500; round++) {
            for (int i = 0; i < round % 7 + 1; i++) {
                queue.offer(next++);
            }
            for (int i = 0; i < round % 5 + 1; i++) {
                Integer polled = queue.poll();
                if (polled == null) {
                    assertThat(expected).isEqualTo(next);
                    break;
                }
                assertThat(polled).isEqualTo(expected++);
            }
            assertThat(queue.size()).isEqualTo(next - expected);
        }
    }

    @Test
    void shouldDeliverEveryElementExactlyOnceInProducerOrderWhenProducersAndConsumersRace() throws Exception {
        ConcurrentFifo<Integer> queue = newQueue();
        int total = PRODUCERS * PER_PRODUCER;
        AtomicInteger consumed = new AtomicInteger();
        ConcurrentHashMap<Integer, Boolean> seen = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            threads.add(new Thread(() -> {
                await(start);
                for (int i = 0; i < PER_PRODUCER; i++) {
                    queue.offer(producer * PER_PRODUCER + i);
                }
            }));
        }
        for (int c = 0; c < CONSUMERS; c++) {
            threads.add(new Thread(() -> {
                await(start);
                int[] lastPerProducer = new int[PRODUCERS];
                Arrays.fill(lastPerProducer, -1);
                while (consumed.get() < total) {
                    Integer item = queue.poll();
                    if (item == null) {
                        Thread.onSpinWait();
                        continue;
                    }
                    consumed.incrementAndGet();
                    if (seen.put(item, Boolean.TRUE) != null) {
                        record(failures, "duplicate " + item);
                    }
                    int producer = item / PER_PRODUCER;
                    if (item <= lastPerProducer[producer]) {
                        record(failures, "out of order: " + item + " after " + lastPerProducer[producer]);
                    }
                    lastPerProducer[producer] = item;
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread t : threads) {
            t.join(60_000);
            assertThat(t.isAlive()).as("thread finished").isFalse();
        }

        assertThat(failures).isEmpty();
        assertThat(seen).hasSize(total);
        assertThat(queue.poll()).isNull();
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void record(ConcurrentLinkedQueue<String> failures, String failure) {
        if (failures.size() < 10) {
            failures.add(failure);
        }
    }
}
