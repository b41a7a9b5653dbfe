package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkStealingQueueTest {

    private final WorkStealingQueue<Integer> queue = new WorkStealingQueue<>(SpinContext.hardware(), 4);

    @Test
    void shouldPopNewestAndStealOldestWhenBothEndsAreUsed() {
        for (int i = 0; i < 5; i++) {
            queue.push(i);
        }

        assertThat(queue.pop()).isEqualTo(4);
        assertThat(queue.trySteal()).isZero();
        assertThat(queue.trySteal()).isEqualTo(1);
        assertThat(queue.pop()).isEqualTo(3);
        assertThat(queue.pop()).isEqualTo(2);
        assertThat(queue.pop()).isNull();
        assertThat(queue.trySteal()).isNull();
    }

    @Test
    void shouldKeepOrderWhenGrowingPastInitialSize() {
        for (int i = 0; i < 100; i++) {
            queue.push(i);
        }
        for (int i = 0; i < 10; i++) {
            assertThat(queue.trySteal()).isEqualTo(i);
        }
        for (int i = 100; i < 150; i++) {
            queue.push(i);
        }

        assertThat(queue.size()).isEqualTo(140);
        for (int i = 149; i >= 10; i--) {
            assertThat(queue.pop()).isEqualTo(i);
        }
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void shouldCountWhatIsBetweenHeadAndTailWhenStolenFrom() {
        queue.push(1);
        queue.push(2);
        queue.push(3);
        assertThat(queue.isEmpty()).isFalse();
        assertThat(queue.trySteal()).isEqualTo(1);

        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue).hasToString("WorkStealingQueue[size=2, capacity=4]");
        List<Integer> drained = new ArrayList<>();
        queue.clearOwner(drained::add);
        assertThat(drained).containsExactly(3, 2);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.size()).isZero();
    }

    @Test
    void shouldGrowWhenFewerThanTwoSlotsWouldStayFree() {
        WorkStealingQueue<Integer> small = new WorkStealingQueue<>(SpinContext.hardware(), 2);
        small.push(1);
        assertThat(small).hasToString("WorkStealingQueue[size=1, capacity=2]");

        small.push(2);

        assertThat(small).hasToString("WorkStealingQueue[size=2, capacity=4]");
        assertThat(small.trySteal()).isEqualTo(1);
        assertThat(small.pop()).isEqualTo(2);
    }

    @Test
    void shouldAcceptOnlyPowersOfTwoFromTwoAsTheInitialSize() {
        SpinContext context = SpinContext.hardware();
        assertThatThrownBy(() -> new WorkStealingQueue<Integer>(context, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WorkStealingQueue<Integer>(context, 6)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new WorkStealingQueue<Integer>(context, 2).size()).isZero();
        assertThatThrownBy(() -> queue.push(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void shouldNotReportMissedStealWhenEmpty() {
        WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();

        assertThat(queue.trySteal(missed)).isNull();
        assertThat(missed.missed()).isFalse();
    }

    @Test
    void shouldTakeEveryElementExactlyOnceWhenOwnerAndThievesRace() throws Exception {
        int total = 200_000;
        ConcurrentHashMap<Integer, Boolean> seen = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Integer> duplicates = new ConcurrentLinkedQueue<>();
        AtomicBoolean ownerDone = new AtomicBoolean();
        List<Thread> thieves = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            thieves.add(new Thread(() -> {
                WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();
                while (!ownerDone.get() || queue.canSteal()) {
                    missed.clear();
                    Integer item = queue.trySteal(missed);
                    if (item != null && seen.put(item, Boolean.TRUE) != null) {
                        duplicates.add(item);
                    }
                }
            }));
        }
        thieves.forEach(Thread::start);
        for (int i = 0; i < total; i++) {
            queue.push(i);
            if (i % 2 == 0) {
                Integer item = queue.pop();
                if (item != null && seen.put(item, Boolean.TRUE) != null) {
                    duplicates.add(item);
                }
            }
        }
        ownerDone.set(true);
        for (Thread t : thieves) {
            t.join(60_000);
        }
        for (Integer item = queue.pop(); item != null; item = queue.pop()) {
            if (seen.put(item, Boolean.TRUE) != null) {
                duplicates.add(item);
            }
        }

        assertThat(duplicates).isEmpty();
        assertThat(seen).hasSize(total);
    }

    @Test
    void shouldRememberAMissedStealUntilCleared() {
        WorkStealingQueue.MissedSteal missed = new WorkStealingQueue.MissedSteal();
        assertThat(missed.missed()).isFalse();

        missed.set();

        assertThat(missed.missed()).isTrue();
        missed.clear();
        assertThat(missed.missed()).isFalse();
    }
}
