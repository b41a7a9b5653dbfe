package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConcurrentStackTest {

    private final ConcurrentStack<Integer> stack = new ConcurrentStack<>(SpinContext.hardware());

    @Test
    void shouldPopInReverseOrderWhenPushedSequentially() {
        for (int i = 0; i < 5; i++) {
            stack.push(i);
        }

        assertThat(stack.size()).isEqualTo(5);
        assertThat(stack.isEmpty()).isFalse();
        assertThat(stack.peek()).isEqualTo(4);
        assertThat(stack.toList()).containsExactly(4, 3, 2, 1, 0);
        for (int i = 4; i >= 0; i--) {
            assertThat(stack.pop()).isEqualTo(i);
        }
        assertThat(stack.pop()).isNull();
        assertThat(stack.peek()).isNull();
        assertThat(stack.isEmpty()).isTrue();
    }

    @Test
    void shouldPushRangeWithLastElementOnTop() {
        stack.push(0);
        stack.pushRange(List.of(1, 2, 3));

        assertThat(stack.toList()).containsExactly(3, 2, 1, 0);
    }

    @Test
    void shouldPopAtMostMaxWhenPoppingRange() {
        stack.pushRange(List.of(1, 2, 3));

        assertThat(stack.popRange(2)).containsExactly(3, 2);
        assertThat(stack.popRange(5)).containsExactly(1);
        assertThat(stack.popRange(5)).isEmpty();
    }

    @Test
    void shouldRejectNonPositiveMaxWhenPoppingRange() {
        assertThatThrownBy(() -> stack.popRange(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectNullWhenPushed() {
        assertThatThrownBy(() -> stack.push(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void shouldPopEveryElementExactlyOnceWhenPushersAndPoppersRace() throws Exception {
        int perThread = 100_000;
        int pushers = 2;
        ConcurrentHashMap<Integer, Boolean> seen = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Integer> duplicates = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < pushers; p++) {
            int base = p * perThread;
            threads.add(new Thread(() -> {
                ConcurrentFifoContractTest.await(start);
                for (int i = 0; i < perThread; i++) {
                    stack.push(base + i);
                    if (i % 3 == 0) {
                        Integer popped = stack.pop();
                        if (popped != null && seen.put(popped, Boolean.TRUE) != null) {
                            duplicates.add(popped);
                        }
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread t : threads) {
            t.join(60_000);
        }
        for (Integer left = stack.pop(); left != null; left = stack.pop()) {
            if (seen.put(left, Boolean.TRUE) != null) {
                duplicates.add(left);
            }
        }

        assertThat(duplicates).isEmpty();
        assertThat(seen).hasSize(pushers * perThread);
    }

    @Test
    void shouldAcceptAnEmptyRangeAndPushNothing() {
        stack.pushRange(List.of());

        assertThat(stack.isEmpty()).isTrue();
        assertThat(stack.pop()).isNull();
    }
}
