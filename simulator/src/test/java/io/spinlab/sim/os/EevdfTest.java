package io.spinlab.sim.os;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * EEVDF's rules on one processor with a 4 ms tick, by hand: each expected figure follows from the
 * rule named beside it (virtual runtimes are processor time; the slice on one processor is 0.7 ms).
 */
class EevdfTest {

    private static final long US = 1_000_000L;
    private static final long MS = 1_000_000_000L;
    private static final long TICK = 4 * MS;

    private final Scheduler scheduler = new Scheduler(1, TICK);
    private final Eevdf eevdf = new Eevdf(scheduler, TICK);

    @Test
    void shouldScaleTheBaseSliceWithTheLogarithmOfTheProcessorsUpToEight() {
        assertThat(Eevdf.slicePicos(1)).isEqualTo(700 * US);
        assertThat(Eevdf.slicePicos(2)).isEqualTo(1_400 * US);
        assertThat(Eevdf.slicePicos(3)).isEqualTo(1_400 * US);
        assertThat(Eevdf.slicePicos(4)).isEqualTo(2_100 * US);
        assertThat(Eevdf.slicePicos(8)).isEqualTo(2_800 * US);
        assertThat(Eevdf.slicePicos(256)).isEqualTo(2_800 * US);
    }

    /**
     * Thread 0 starts at 0 (new: v 0, deadline half a slice, 0.35 ms, protected to there). Thread 1
     * arrives at 1 ms: the runner's deadline, reached, is renewed from its v (1 ms + 0.7 ms), the
     * newcomer starts at the average, 1 ms, with half a slice; the runner is past its protected
     * slice, so the kernel reschedules at once, and the rule picks the newcomer (both eligible at
     * v = V = 1 ms; its deadline 1.35 ms is the earlier).
     */
    @Test
    void shouldPreemptARunnerPastItsProtectedSliceWhenAThreadArrives() {
        eevdf.setTickOrigin(0, 0);
        eevdf.run(0, 0, 0, true);
        assertThat(eevdf.deadline(0)).isEqualTo(350 * US);

        boolean preempts = eevdf.arrive(0, 1, MS, Eevdf.Arrival.NEW);
        scheduler.enqueue(1, 0, false, false);

        assertThat(eevdf.deadline(0)).isEqualTo(1_700 * US);
        assertThat(eevdf.vruntime(1, MS)).isEqualTo(MS);
        assertThat(eevdf.deadline(1)).isEqualTo(1_350 * US);
        assertThat(preempts).isTrue();
        assertThat(eevdf.wouldPickAnother(0, MS)).isTrue();
        eevdf.stepAside(0, MS);
        scheduler.enqueue(0, 0, false, false);
        assertThat(eevdf.pickQueued(0, MS)).isEqualTo(1);
    }

    /**
     * A runner within its protected slice keeps the processor when a thread arrives at the same
     * virtual runtime; the rule next looks at the first tick at or after the protected slice's end
     * (0.35 ms of running: the tick at 4 ms), and there picks the newcomer.
     */
    @Test
    void shouldLeaveAProtectedRunnerRunningToTheTickAfterItsSlice() {
        eevdf.setTickOrigin(0, 0);
        eevdf.run(0, 0, 0, true);

        boolean preempts = eevdf.arrive(0, 1, 100 * US, Eevdf.Arrival.NEW);
        scheduler.enqueue(1, 0, false, false);

        assertThat(preempts).as("v 0.1 ms < protected to 0.35 ms, and eligible").isFalse();
        assertThat(eevdf.nextCheck(0, 100 * US)).isEqualTo(TICK);
        assertThat(eevdf.picksAnother(0, TICK)).isTrue();
        // at the tick the runner's deadline (0.35 ms) was renewed from its v then: 4 ms + 0.7 ms
        assertThat(eevdf.deadline(0)).isEqualTo(4_700 * US);
    }

    /**
     * A thread that sleeps keeps its lag: thread 0 leaves at 2 ms with v 2 ms beside thread 1 at
     * v 0 (average 1 ms, lag −1 ms). It wakes at 3 ms beside thread 1, which ran from 2 ms (v 1
     * ms): placed at V − lag × (n + 1) / n = 1 ms + 2 ms = 3 ms. Thread 1 is past its protected
     * slice (0.35 ms), so the kernel reschedules, but the rule keeps it: the average is 2 ms and
     * the woken thread, at 3 ms, is not eligible.
     */
    @Test
    void shouldPlaceAWokenThreadByTheLagItLeftWith() {
        eevdf.setTickOrigin(0, 0);
        eevdf.run(0, 0, 0, true);
        eevdf.arrive(0, 1, 0, Eevdf.Arrival.NEW);
        scheduler.enqueue(1, 0, false, false);
        eevdf.leave(0, 2 * MS);
        scheduler.take(0, 1);
        eevdf.run(0, 1, 2 * MS, false);

        boolean preempts = eevdf.arrive(0, 0, 3 * MS, Eevdf.Arrival.WOKEN);
        scheduler.enqueue(0, 0, false, false);

        assertThat(eevdf.vruntime(0, 3 * MS)).isEqualTo(3 * MS);
        assertThat(eevdf.deadline(0)).isEqualTo(3_700 * US);
        assertThat(preempts).as("the runner is past its protected slice").isTrue();
        assertThat(eevdf.wouldPickAnother(0, 3 * MS)).as("the woken thread is not eligible").isFalse();
    }

    /**
     * {@code sched_yield} with "forfeit": thread 1 arrives at 0.1 ms at the average (v 0.1 ms,
     * deadline 0.45 ms); thread 0 (v 0.1 ms, eligible) yields then: its v jumps to its deadline,
     * 0.35 ms, its deadline moves a slice on, 1.05 ms, and it is no longer eligible (average 0.225
     * ms), so the rule picks thread 1. Thread 1, now running at v 0.1 ms and yielding at once, is
     * eligible, forfeits too (v 0.45 ms, deadline 1.15 ms), and the rule picks thread 0 again.
     */
    @Test
    void shouldForfeitTheRestOfTheSliceOnYield() {
        eevdf.setTickOrigin(0, 0);
        eevdf.run(0, 0, 0, true);
        eevdf.arrive(0, 1, 100 * US, Eevdf.Arrival.NEW);
        scheduler.enqueue(1, 0, false, false);

        int next = eevdf.yield(0, 100 * US);

        assertThat(next).isEqualTo(1);
        assertThat(eevdf.vruntime(0, 100 * US)).isEqualTo(350 * US);
        assertThat(eevdf.deadline(0)).isEqualTo(1_050 * US);

        eevdf.stepAside(0, 100 * US);
        scheduler.take(0, 1);
        scheduler.enqueue(0, 0, false, false);
        eevdf.run(0, 1, 100 * US, false);
        assertThat(eevdf.yield(0, 100 * US)).isEqualTo(0);
        assertThat(eevdf.vruntime(1, 100 * US)).isEqualTo(450 * US);
        assertThat(eevdf.deadline(1)).isEqualTo(1_150 * US);
    }

    /** An ineligible thread's yield forfeits nothing: thread 0 ran 1 ms beside thread 1 at v 0. */
    @Test
    void shouldLeaveAnIneligibleYieldersRuntimeAlone() {
        eevdf.setTickOrigin(0, 0);
        eevdf.run(0, 0, 0, true);
        eevdf.arrive(0, 1, 0, Eevdf.Arrival.NEW);
        scheduler.enqueue(1, 0, false, false);

        int next = eevdf.yield(0, MS);

        assertThat(next).isEqualTo(1);
        assertThat(eevdf.vruntime(0, MS)).isEqualTo(MS);
        // its deadline (0.35 ms) was reached and renewed by the yield's update: 1 ms + 0.7 ms
        assertThat(eevdf.deadline(0)).isEqualTo(1_700 * US);
    }

    /** Alone, a runner's slice ends at every tick (to stop PAUSE batches there); its deadline is renewed at each. */
    @Test
    void shouldEndALoneRunnersSliceAtEveryTick() {
        eevdf.setTickOrigin(0, 1 * MS);
        eevdf.run(0, 0, 2 * MS, true);

        assertThat(eevdf.nextCheck(0, 2 * MS)).isEqualTo(5 * MS);
        assertThat(eevdf.nextCheck(0, 5 * MS)).isEqualTo(9 * MS);
        assertThat(eevdf.picksAnother(0, 10 * MS)).isFalse();
        // renewed at the ticks 5 ms (v 3 ms) and 9 ms (v 7 ms): 7.7 ms
        assertThat(eevdf.deadline(0)).isEqualTo(7_700 * US);
    }
}
