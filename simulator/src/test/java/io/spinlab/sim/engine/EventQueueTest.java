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
