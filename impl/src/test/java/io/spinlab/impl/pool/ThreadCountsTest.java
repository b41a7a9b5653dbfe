package io.spinlab.impl.pool;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Each transition of the processing/existing/goal word, single-threaded. */
class ThreadCountsTest {

    private static String decoded(ThreadCounts counts) {
        long t = counts.snapshot();
        return "p=" + ThreadCounts.processing(t) + " e=" + ThreadCounts.existing(t) + " g=" + ThreadCounts.goal(t);
    }

    @Test
    void shouldPackAndDecodeEachFieldApart() {
        long t = ThreadCounts.of(0xFFFF, 3, 0x7FFF);

        assertThat(ThreadCounts.processing(t)).isEqualTo(0xFFFF);
        assertThat(ThreadCounts.existing(t)).isEqualTo(3);
        assertThat(ThreadCounts.goal(t)).isEqualTo(0x7FFF);
        assertThat(decoded(new ThreadCounts(4))).isEqualTo("p=0 e=0 g=4");
    }

    @Test
    void shouldAddWorkingWorkersUpToTheGoalCreatingThreadsOnlyWhenNoneIsIdle() {
        ThreadCounts counts = new ThreadCounts(2);

        assertThat(counts.tryAddWorking()).isEqualTo(1);
        assertThat(counts.tryAddWorking()).isEqualTo(1);
        assertThat(counts.tryAddWorking()).isEqualTo(ThreadCounts.AT_GOAL);
        assertThat(decoded(counts)).isEqualTo("p=2 e=2 g=2");
        counts.update(-1, 0);
        assertThat(counts.tryAddWorking()).as("an idle worker exists: no thread to create").isZero();
        assertThat(decoded(counts)).isEqualTo("p=2 e=2 g=2");
    }

    @Test
    void shouldRetireAnIdleWorkerOnlyWhenOneIsIdleAndKeepTheGoalAtLeastTheMinimum() {
        ThreadCounts counts = new ThreadCounts(1);
        counts.tryAddWorking();
        counts.raiseGoal(8);
        counts.tryAddWorking();
        counts.raiseGoal(8);
        counts.tryAddWorking();
        assertThat(decoded(counts)).isEqualTo("p=3 e=3 g=3");
        assertThat(counts.tryRetireIdle(1)).as("every worker is processing").isFalse();

        counts.update(-1, 0);
        counts.update(-1, 0);
        assertThat(counts.tryRetireIdle(1)).isTrue();
        assertThat(decoded(counts)).isEqualTo("p=1 e=2 g=2");
        assertThat(counts.tryRetireIdle(1)).isTrue();
        assertThat(decoded(counts)).isEqualTo("p=1 e=1 g=1");
        assertThat(counts.tryRetireIdle(1)).isFalse();
    }

    @Test
    void shouldRaiseTheGoalOnlyWhenProcessingReachedItAndBelowTheMaximum() {
        ThreadCounts counts = new ThreadCounts(1);
        counts.raiseGoal(4);
        assertThat(decoded(counts)).as("processing below the goal").isEqualTo("p=0 e=0 g=1");

        counts.tryAddWorking();
        counts.raiseGoal(2);
        counts.tryAddWorking();
        counts.raiseGoal(2);
        assertThat(decoded(counts)).as("at the maximum").isEqualTo("p=2 e=2 g=2");
    }

    @Test
    void shouldClaimASlotForEveryIdleWorkerWhenTheExitIsAnnounced() {
        ThreadCounts counts = new ThreadCounts(3);
        counts.tryAddWorking();
        counts.tryAddWorking();
        counts.tryAddWorking();
        counts.update(-1, 0);
        counts.update(-1, 0);

        assertThat(counts.claimAllForExit()).isEqualTo(2);
        assertThat(decoded(counts)).isEqualTo("p=3 e=3 g=3");
        assertThat(counts.claimAllForExit()).isZero();
        assertThat(counts.update(-3, -3)).isEqualTo(ThreadCounts.of(0, 0, 3));
    }

    @Test
    void shouldClearOnlyProcessingAtTermination() {
        ThreadCounts counts = new ThreadCounts(3);
        counts.tryAddWorking();
        counts.tryAddWorking();
        counts.update(0, -2);

        counts.clearProcessing();

        assertThat(decoded(counts)).isEqualTo("p=0 e=0 g=3");
        counts.clearProcessing();
        assertThat(decoded(counts)).isEqualTo("p=0 e=0 g=3");
    }
}
