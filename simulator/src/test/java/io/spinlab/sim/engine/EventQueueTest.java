package io.spinlab.sim.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EventQueueTest {

    @Test
    void shouldPopInTimeThenSchedulingOrderWhenTimesTie() {
        EventQueue queue = new EventQueue();
        SimRandom random = new SimRandom(3);
        List<long[]> added = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            long time = random.nextInt(50);
            queue.add(time, Event.RESUME, null, i);
            added.add(new long[] {time, i});
        }
        added.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));

        List<long[]> popped = new ArrayList<>();
        Event e;
        while ((e = queue.poll()) != null) {
            popped.add(new long[] {e.time, e.token});
            queue.recycle(e);
        }

        assertThat(popped).hasSize(2_000);
        for (int i = 0; i < popped.size(); i++) {
            assertThat(popped.get(i)).containsExactly(added.get(i));
        }
    }

    /**
     * As in a simulation: each poll is followed by zero to three adds, mostly a little after the
     * polled time (before most of the queue), sometimes far after it, and by peeks and size
     * checks in between. The queue must give the same order as a sorted reference list, whether
     * the next call after a poll is an add, a peek, a size check or another poll.
     */
    @Test
    void shouldKeepTheOrderWhenPollsAndAddsInterleave() {
        EventQueue queue = new EventQueue();
        SimRandom random = new SimRandom(11);
        java.util.TreeMap<Long, Long> reference = new java.util.TreeMap<>(); // seq-ordered key: time * 2^20 + token
        long token = 0;
        for (; token < 300; token++) {
            long time = random.nextInt(1_000);
            queue.add(time, Event.RESUME, null, token);
            reference.put(time * (1L << 20) + token, token);
        }
        for (int step = 0; step < 20_000; step++) {
            Event e = queue.poll();
            var expected = reference.pollFirstEntry();
            assertThat(e.token).isEqualTo(expected.getValue());
            long time = e.time;
            queue.recycle(e);
            int adds = random.nextInt(4);
            for (int a = 0; a < adds && token < (1L << 20) - 1; a++, token++) {
                long at = time + (random.nextInt(10) == 0 ? 500 + random.nextInt(5_000) : random.nextInt(8));
                queue.add(at, Event.RESUME, null, token);
                reference.put(at * (1L << 20) + token, token);
            }
            if (random.nextInt(5) == 0) {
                assertThat(queue.size()).isEqualTo(reference.size());
            }
            if (random.nextInt(5) == 0 && !reference.isEmpty()) {
                assertThat(queue.peek().token).isEqualTo(reference.firstEntry().getValue());
            }
            if (reference.isEmpty()) {
                assertThat(queue.isEmpty()).isTrue();
                break;
            }
        }
        assertThat(queue.size()).isEqualTo(reference.size());
    }

    @Test
    void shouldReuseRecycledEventsWhenSchedulingAgain() {
        EventQueue queue = new EventQueue();
        queue.add(5, Event.WAKE, null, 1);
        Event first = queue.poll();
        queue.recycle(first);

        queue.add(7, Event.READY, null, 2);

        assertThat(queue.peek()).isSameAs(first);
        assertThat(queue.peek().time).isEqualTo(7);
        assertThat(queue.peek().kind).isEqualTo(Event.READY);
        assertThat(queue.size()).isEqualTo(1);
    }
}
