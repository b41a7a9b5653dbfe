package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.Tunings;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BarrierTest {

    static Stream<Tuning> tunings() {
        return Tunings.all();
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void phasesShouldNeverMix(Tuning tuning) throws InterruptedException {
        int participants = 4;
        int phases = 300;
        AtomicIntegerArray arrivals = new AtomicIntegerArray(phases + 1);
        AtomicInteger actions = new AtomicInteger();
        Barrier barrier = new Barrier(Tunings.hardware(tuning), participants, b -> {
            // Runs between phases (the current phase is still the finishing one, as in .NET):
            // every arrival of the finishing phase, none of the next.
            int finished = (int) b.currentPhase();
            assertThat(arrivals.get(finished)).isEqualTo(participants);
            assertThat(arrivals.get(finished + 1)).isZero();
            actions.incrementAndGet();
        });
        try (TestThreads threads = new TestThreads()) {
            for (int p = 0; p < participants; p++) {
                threads.start("participant-" + p, () -> {
                    for (int phase = 0; phase < phases; phase++) {
                        assertThat(barrier.currentPhase()).isEqualTo(phase);
                        arrivals.incrementAndGet(phase);
                        assertThat(barrier.signalAndWait(20, TimeUnit.SECONDS)).isTrue();
                        assertThat(arrivals.get(phase)).as("released before everyone arrived").isEqualTo(participants);
                    }
                });
            }
            threads.joinAll();
        }
        assertThat(actions.get()).isEqualTo(phases);
        assertThat(barrier.currentPhase()).isEqualTo(phases);
    }

    @Test
    void shouldWithdrawAnArrivalThatTimesOut() throws InterruptedException {
        Barrier barrier = new Barrier(Tunings.hardware(Tuning.current()), 2);
        assertThat(barrier.signalAndWait(30, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(barrier.participantsRemaining()).isEqualTo(2);
        assertThat(barrier.currentPhase()).isZero();
    }

    @Test
    void shouldGiveThePostPhaseFailureToEveryParticipant() throws InterruptedException {
        Barrier barrier = new Barrier(Tunings.hardware(Tuning.current()), 2, b -> {
            throw new IllegalStateException("boom");
        });
        try (TestThreads threads = new TestThreads()) {
            for (int p = 0; p < 2; p++) {
                threads.start("participant-" + p, () -> assertThatThrownBy(barrier::signalAndWait)
                        .isInstanceOf(Barrier.PostPhaseException.class).hasRootCauseMessage("boom"));
            }
            threads.joinAll();
        }
        assertThat(barrier.currentPhase()).isEqualTo(1);
    }

    @Test
    void removingTheLastMissingParticipantShouldFinishThePhase() throws InterruptedException {
        Barrier barrier = new Barrier(Tunings.hardware(Tuning.current()), 2);
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", barrier::signalAndWait);
            TestThreads.awaitBlocked(waiter);
            barrier.removeParticipants(1);
            threads.joinAll();
        }
        assertThat(barrier.currentPhase()).isEqualTo(1);
        assertThat(barrier.participantCount()).isEqualTo(1);
    }

    @Test
    void shouldRejectParticipantMisuse() throws InterruptedException {
        SpinContext context = Tunings.hardware(Tuning.current());
        assertThatThrownBy(() -> new Barrier(context, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("participants = -1");
        assertThatThrownBy(() -> new Barrier(context, 40_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0..32767");
        Barrier empty = new Barrier(context, 0);
        assertThatThrownBy(empty::signalAndWait).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no participants");
        assertThat(empty.addParticipants(3)).isZero();
        assertThatThrownBy(() -> empty.removeParticipants(4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> empty.addParticipants(Barrier.MAX_PARTICIPANTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
    }
}
