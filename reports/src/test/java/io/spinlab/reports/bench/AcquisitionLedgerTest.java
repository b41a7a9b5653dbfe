package io.spinlab.reports.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fairness figure and the hand-over between benchmark threads and the profiler; nothing timed. */
class AcquisitionLedgerTest {

    @Test
    void shouldGiveTheFewestOverTheMostAcquisitions() {
        assertThat(AcquisitionLedger.fairness(List.of(300L, 100L, 200L))).isEqualTo(1.0 / 3);
        assertThat(AcquisitionLedger.fairness(List.of(50L, 50L))).isEqualTo(1.0);
        assertThat(AcquisitionLedger.fairness(List.of(0L, 70L))).isZero();
    }

    @Test
    void shouldGiveNoFigureWithFewerThanTwoThreadsOrNoAcquisitions() {
        assertThat(AcquisitionLedger.fairness(List.of(10L))).isNaN();
        assertThat(AcquisitionLedger.fairness(List.of())).isNaN();
        assertThat(AcquisitionLedger.fairness(List.of(0L, 0L))).isNaN();
    }

    @Test
    void shouldHandOverWhatThePerThreadStatesPublishedAndForgetItAfterwards() {
        AcquisitionLedger.drain();
        AcquisitionLedger.PerThread first = new AcquisitionLedger.PerThread();
        AcquisitionLedger.PerThread second = new AcquisitionLedger.PerThread();
        first.reset();
        second.reset();
        first.acquired();
        first.acquired();
        second.acquired();
        first.publish();
        second.publish();

        assertThat(AcquisitionLedger.drain()).containsExactly(2L, 1L);
        assertThat(AcquisitionLedger.drain()).isEmpty();
    }
}
