package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CountdownEvent's answers and its wake-ups: which signal is the last, what a reset to zero does
 * to a blocked waiter, and that an interrupt is reported before anything else.
 */
class CountdownEventScheduleTest {

    private static SpinContext recording() {
        return SpinContext.of(new RecordingPlatform(4, 40, 20), Tuning.current(), new FixedPauseNormalizer());
    }

    @Test
    void shouldReportOnlyTheLastSignalAndBeSetOnlyAtZero() throws InterruptedException {
        CountdownEvent countdown = new CountdownEvent(recording(), 2);

        assertThat(countdown.isSet()).isFalse();
        assertThat(countdown.signal()).isFalse();
        assertThat(countdown.isSet()).isFalse();
        assertThat(countdown.signal()).isTrue();
        assertThat(countdown.isSet()).isTrue();
        assertThat(countdown.await(0, TimeUnit.SECONDS)).isTrue();
        assertThat(countdown).hasToString("CountdownEvent[count=0, initial=2]");
    }

    @Test
    void shouldThrowWhenInterruptedBeforeWaitingEvenIfAlreadySet() {
        CountdownEvent countdown = new CountdownEvent(recording(), 0);

        Thread.currentThread().interrupt();
        assertThatThrownBy(countdown::await).isInstanceOf(InterruptedException.class);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> countdown.await(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void shouldReleaseABlockedWaiterWhenResetToZero() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        CountdownEvent countdown = new CountdownEvent(platform.context(Tuning.current()), 1);
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", countdown::await);
            platform.awaitParked(waiter, 0);

            countdown.reset(0);

            threads.joinAll();
        }
        assertThat(countdown.isSet()).isTrue();
        assertThat(countdown.initialCount()).isZero();
    }

    @Test
    void shouldThrowWhenInterruptedBeforeWaitingOnASetManualResetEvent() {
        ManualResetEvent event = new ManualResetEvent(recording(), true);

        Thread.currentThread().interrupt();
        assertThatThrownBy(event::await).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();
    }
}
