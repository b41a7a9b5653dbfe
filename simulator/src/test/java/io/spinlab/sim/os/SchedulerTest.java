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
    void shouldPreemptOnlyWhenSliceIsUsedUpAndAnotherThreadWaitsOnTheSameProcessor() {
        Scheduler scheduler = new Scheduler(2, 1_000);
        scheduler.occupy(0, 0, 100);
        scheduler.occupy(1, 1, 100);

        assertThat(scheduler.shouldPreempt(0, 1_099)).isFalse();
        assertThat(scheduler.shouldPreempt(0, 1_100)).as("nobody waits: slice renewed").isFalse();
        assertThat(scheduler.processor(0).sliceStartPicos()).isEqualTo(1_100);
        scheduler.enqueue(2, 1, false, false);
        assertThat(scheduler.shouldPreempt(0, 2_100)).as("the waiter is on cpu1's queue").isFalse();
        assertThat(scheduler.shouldPreempt(1, 1_099)).isFalse();
        assertThat(scheduler.shouldPreempt(1, 1_100)).isTrue();
    }

    @Test
    void shouldServeBoostedThreadsFirstAndPutAPreemptedThreadAheadOfItsLevel() {
        Scheduler scheduler = new Scheduler(1, 1_000);
        scheduler.enqueue(1, 0, false, false);
        scheduler.enqueue(2, 0, true, false);
        scheduler.enqueue(3, 0, false, true);
        scheduler.enqueue(4, 0, true, false);

        assertThat(scheduler.readyCount(0)).isEqualTo(4);
        assertThat(scheduler.boostedReadyCount(0)).isEqualTo(2);
        assertThat(scheduler.readyThreads()).containsExactly(2, 4, 3, 1);
        assertThat(new int[] {scheduler.pollLocal(0), scheduler.pollLocal(0), scheduler.pollLocal(0),
                scheduler.pollLocal(0), scheduler.pollLocal(0)}).containsExactly(2, 4, 3, 1, -1);
        assertThat(scheduler.readyCount()).isZero();
    }

    @Test
    void shouldStealABoostedThreadFirstThenFromTheFullestQueueWhenItsOwnQueueIsEmpty() {
        Scheduler scheduler = new Scheduler(4, 1_000);
        scheduler.enqueue(10, 0, false, false);
        scheduler.enqueue(11, 0, false, false);
        scheduler.enqueue(12, 2, false, false);
        scheduler.enqueue(13, 2, false, false);
        scheduler.enqueue(14, 3, true, false);

        assertThat(scheduler.pollForIdle(1)).as("a boosted thread anywhere comes first").isEqualTo(14);
        assertThat(scheduler.pollForIdle(1)).as("the fullest queues tie: the first after cpu1").isEqualTo(12);
        assertThat(scheduler.pollForIdle(1)).as("cpu0 is now the fullest").isEqualTo(10);
        assertThat(scheduler.pollForIdle(2)).as("its own queue first").isEqualTo(13);
        assertThat(scheduler.pollForIdle(2)).isEqualTo(11);
        assertThat(scheduler.pollForIdle(2)).isEqualTo(-1);
        assertThat(scheduler.readyCount()).isZero();
    }

    @Test
    void shouldRemoveAReadyThreadFromWhicheverQueueHoldsIt() {
        Scheduler scheduler = new Scheduler(3, 1_000);
        scheduler.enqueue(5, 2, true, false);
        scheduler.enqueue(6, 1, false, false);

        assertThat(scheduler.removeReady(5)).isTrue();
        assertThat(scheduler.removeReady(5)).isFalse();
        assertThat(scheduler.readyCount()).isEqualTo(1);
        assertThat(scheduler.readyThreads()).containsExactly(6);
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
        queue.addFirst(99);
        assertThat(queue.poll()).isEqualTo(99);
        assertThat(queue.poll()).isEqualTo(21);
    }

    @Test
    void shouldFindAWholeIdleCoreWhenSiblingsShareCores() {
        Scheduler scheduler = new Scheduler(6, 2, 1_000);
        scheduler.occupy(1, 7, 0);

        assertThat(scheduler.coreIdle(0)).as("cpu0's sibling cpu1 runs").isFalse();
        assertThat(scheduler.coreIdle(3)).isTrue();
        assertThat(scheduler.firstOfCore(5)).isEqualTo(4);
        assertThat(scheduler.lowestIdleCoreProcessor()).isEqualTo(2);
        scheduler.occupy(3, 8, 0);
        assertThat(scheduler.lowestIdleCoreProcessor()).isEqualTo(4);
        scheduler.occupy(4, 9, 0);
        assertThat(scheduler.lowestIdleCoreProcessor()).isEqualTo(-1);
        assertThat(scheduler.lowestIdleProcessor()).isZero();
    }
}
