package io.spinlab.sim.os;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulerTest {

    @Test
    void shouldPickLowestIdleProcessorWhenSeveralAreIdle() {
        Scheduler scheduler = new Scheduler(130, 1_000);
        for (int p = 0; p < 70; p++) {
            scheduler.occupy(p, p, 0);
        }
        scheduler.vacate(3);

        assertThat(scheduler.lowestIdleProcessor()).isEqualTo(3);
        scheduler.occupy(3, 99, 0);
        assertThat(scheduler.lowestIdleProcessor()).isEqualTo(70);
        assertThat(scheduler.idleCount()).isEqualTo(60);
    }

    @Test
    void shouldReportNoIdleProcessorWhenAllAreBusy() {
        Scheduler scheduler = new Scheduler(2, 1_000);
        scheduler.occupy(0, 0, 0);
        scheduler.occupy(1, 1, 0);

        assertThat(scheduler.lowestIdleProcessor()).isEqualTo(-1);
    }

    @Test
    void shouldPreemptOnlyWhenSliceIsUsedUpAndAnotherThreadWaits() {
        Scheduler scheduler = new Scheduler(1, 1_000);
        scheduler.occupy(0, 0, 100);

        assertThat(scheduler.shouldPreempt(0, 1_099)).isFalse();
        assertThat(scheduler.shouldPreempt(0, 1_100)).as("nobody waits: slice renewed").isFalse();
        assertThat(scheduler.processor(0).sliceStartPicos()).isEqualTo(1_100);
        scheduler.enqueue(1);
        assertThat(scheduler.shouldPreempt(0, 2_099)).isFalse();
        assertThat(scheduler.shouldPreempt(0, 2_100)).isTrue();
    }

    @Test
    void shouldServeRunQueueFirstInFirstOut() {
        RunQueue queue = new RunQueue();
        for (int i = 0; i < 40; i++) {
            queue.add(i);
        }
        for (int i = 0; i < 20; i++) {
            assertThat(queue.poll()).isEqualTo(i);
        }
        for (int i = 40; i < 60; i++) {
            queue.add(i);
        }
        assertThat(queue.remove(45)).isTrue();
        assertThat(queue.remove(45)).isFalse();

        assertThat(queue.size()).isEqualTo(39);
        assertThat(queue.toArray()).startsWith(20, 21).endsWith(58, 59).doesNotContain(45);
        assertThat(queue.poll()).isEqualTo(20);
    }
}
