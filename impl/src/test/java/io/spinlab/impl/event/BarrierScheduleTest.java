package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.impl.testing.ScriptedPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Barrier phases on one thread and a recording platform: the other participant arrives from
 * inside a platform call of the waiting one, or the timeout runs out during the phase event's
 * spin, so no thread ever parks.
 */
class BarrierScheduleTest {

    private static SpinContext context(RecordingPlatform platform) {
        return SpinContext.of(platform, Tuning.parse("current,spin=unscaled,pause=raw"), new FixedPauseNormalizer());
    }

    @Test
    void shouldReleaseTheWaiterInThePhaseTheOtherParticipantCompletes() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        List<Long> postPhases = new ArrayList<>();
        Barrier barrier = new Barrier(context(platform), 2, b -> postPhases.add(b.currentPhase()));
        boolean[] lastArrival = new boolean[1];
        platform.afterCalls(2, () -> {
            assertThat(barrier.participantsRemaining()).isEqualTo(1);
            try {
                lastArrival[0] = barrier.signalAndWait(0, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });

        assertThat(barrier.signalAndWait(1, TimeUnit.SECONDS)).isTrue();

        assertThat(lastArrival[0]).isTrue();
        assertThat(platform.calls()).extracting(Object::toString).containsExactly("pause(4)", "pause(8)");
        assertThat(barrier.currentPhase()).isEqualTo(1);
        assertThat(postPhases).containsExactly(0L);
        assertThat(barrier.participantsRemaining()).isEqualTo(2);
    }

    @Test
    void shouldWithdrawTheArrivalWhenTheTimeoutRunsOutDuringTheSpin() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 2);

        assertThat(barrier.signalAndWait(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(platform.calls()).hasSize(10);
        assertThat(barrier.participantsRemaining()).isEqualTo(2);
        assertThat(barrier.currentPhase()).isZero();
    }

    @Test
    void shouldWithdrawAtOnceWithoutWaitingWhenTheTimeoutIsZero() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 3);
        platform.recordClockReads(true);

        assertThat(barrier.signalAndWait(0, TimeUnit.SECONDS)).isFalse();

        assertThat(platform.calls()).isEmpty();
        assertThat(barrier.participantsRemaining()).isEqualTo(3);
        assertThat(barrier.participantCount()).isEqualTo(3);
    }

    @Test
    void shouldCompleteAPhasePerCallAndReportTheActionsFailureWhenAlone() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 1, b -> {
            if (b.currentPhase() == 1) {
                throw new IllegalStateException("boom");
            }
        });

        assertThat(barrier.signalAndWait(0, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(barrier::signalAndWait).isInstanceOf(Barrier.PostPhaseException.class)
                .hasMessageContaining("phase 1").hasRootCauseMessage("boom");
        barrier.signalAndWait();

        assertThat(barrier.currentPhase()).isEqualTo(3);
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void shouldRefuseToWaitWithoutParticipants() {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 0);

        assertThatThrownBy(() -> barrier.signalAndWait(0, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> barrier.signalAndWait(-1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Barrier(context(platform), -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldAlternateThePhaseEventsOverSeveralRounds() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 2);
        for (int round = 0; round < 3; round++) {
            platform.clear();
            platform.afterCalls(1, () -> {
                try {
                    barrier.signalAndWait(0, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });

            assertThat(barrier.signalAndWait(1, TimeUnit.SECONDS)).as("round " + round).isTrue();

            assertThat(platform.calls()).as("round " + round).hasSize(1);
            assertThat(barrier.currentPhase()).isEqualTo(round + 1);
        }
    }

    @Test
    void shouldFinishThePhaseWhenRemovingLeavesOnlyThoseWhoArrived() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 3);
        assertThat(barrier).hasToString("Barrier[phase=0, participants=3, remaining=3]");
        String[] refused = new String[2];
        platform.afterCalls(2, () -> {
            assertThat(barrier.participantsRemaining()).isEqualTo(2);
            try {
                barrier.removeParticipants(3);
            } catch (IllegalStateException e) {
                refused[0] = e.getMessage();
            }
            try {
                barrier.removeParticipants(4);
            } catch (IllegalArgumentException e) {
                refused[1] = e.getMessage();
            }
            barrier.removeParticipants(2);
        });

        assertThat(barrier.signalAndWait(1, TimeUnit.SECONDS)).isTrue();

        assertThat(refused[0]).contains("would leave 0, fewer than the 1");
        assertThat(refused[1]).contains("cannot remove 4 participants from 3");
        assertThat(barrier.currentPhase()).isEqualTo(1);
        assertThat(barrier.participantCount()).isEqualTo(1);
        assertThat(barrier.participantsRemaining()).isEqualTo(1);
    }

    @Test
    void shouldAddAndRemoveParticipantsWithinTheBounds() {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 1);

        assertThat(barrier.addParticipants(2)).isZero();
        assertThat(barrier.participantCount()).isEqualTo(3);
        assertThat(barrier.participantsRemaining()).isEqualTo(3);
        barrier.removeParticipants(3);
        assertThat(barrier.participantCount()).isZero();
        assertThat(barrier.currentPhase()).as("nobody had arrived: no phase completes").isZero();
        assertThatThrownBy(() -> barrier.removeParticipants(1)).as("an empty barrier is not a finishing one")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("from 0");
        assertThat(barrier.addParticipants(Barrier.MAX_PARTICIPANTS)).isZero();
        assertThatThrownBy(() -> barrier.addParticipants(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> barrier.addParticipants(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> barrier.removeParticipants(0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Barrier(context(platform), Barrier.MAX_PARTICIPANTS).participantCount())
                .isEqualTo(Barrier.MAX_PARTICIPANTS);
        assertThatThrownBy(() -> new Barrier(context(platform), Barrier.MAX_PARTICIPANTS + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(platform.calls()).isEmpty();
    }

    /** A participant added after some phases joins the current phase, which addParticipants returns. */
    @Test
    void shouldReturnTheCurrentPhaseToParticipantsAddedOneAtATime() throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 1);
        barrier.signalAndWait();
        barrier.signalAndWait();

        assertThat(barrier.addParticipants(1)).isEqualTo(2);
        assertThat(barrier.participantCount()).isEqualTo(2);
        barrier.removeParticipants(1);
        assertThat(barrier.participantCount()).isEqualTo(1);
        assertThat(barrier.currentPhase()).isEqualTo(2);
    }

    /**
     * A waiter interrupted while it waits for the others takes its arrival back and throws: the phase
     * still needs every participant.
     */
    @Test
    void shouldWithdrawTheArrivalAndThrowWhenInterruptedWhileWaiting() {
        ScriptedPlatform platform = new ScriptedPlatform(2, 1_000);
        Barrier barrier = new Barrier(platform.context(Tuning.current()), 2);
        platform.atNext("parkNanos(100000000)", () -> Thread.currentThread().interrupt());

        assertThatThrownBy(() -> barrier.signalAndWait(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).as("the interrupt is consumed by the exception").isFalse();
        assertThat(barrier.participantsRemaining()).isEqualTo(2);
        assertThat(barrier.currentPhase()).isZero();
        assertThat(platform.pendingActions()).isZero();
    }

    /** An interrupted caller is refused before it arrives: alone on the barrier, it does not complete the phase. */
    @Test
    void shouldRefuseAnInterruptedCallerBeforeItArrives() {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        Barrier barrier = new Barrier(context(platform), 1);
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> barrier.signalAndWait(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(barrier.currentPhase()).isZero();
        assertThat(barrier.participantsRemaining()).isEqualTo(1);
    }
}
