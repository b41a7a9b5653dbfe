package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.Tunings;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountdownEventTest {

    static Stream<Tuning> tunings() {
        return Tunings.all();
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void shouldReleaseWaitersWhenConcurrentSignalsReachZero(Tuning tuning) throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            CountdownEvent countdown = new CountdownEvent(Tunings.hardware(tuning), 4 * 100);
            try (TestThreads threads = new TestThreads()) {
                for (int w = 0; w < 2; w++) {
                    threads.start("waiter-" + w, () -> assertThat(countdown.await(20, TimeUnit.SECONDS)).isTrue());
                }
                for (int s = 0; s < 4; s++) {
                    threads.start("signaller-" + s, () -> {
                        for (int i = 0; i < 100; i++) {
                            countdown.signal();
                        }
                    });
                }
                threads.joinAll();
            }
            assertThat(countdown.currentCount()).isZero();
            assertThat(countdown.isSet()).isTrue();
        }
    }

    @Test
    void shouldCountUpWhilePositiveButNotFromZero() {
        CountdownEvent countdown = new CountdownEvent(Tunings.hardware(Tuning.current()), 1);
        countdown.addCount(2);
        assertThat(countdown.currentCount()).isEqualTo(3);
        assertThat(countdown.signal(2)).isFalse();
        assertThat(countdown.signal()).isTrue();
        assertThat(countdown.tryAddCount()).isFalse();
        assertThatThrownBy(countdown::addCount).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already zero");
        assertThatThrownBy(countdown::signal).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("below zero");
    }

    @Test
    void shouldRejectBadCounts() {
        SpinContext context = Tunings.hardware(Tuning.current());
        assertThatThrownBy(() -> new CountdownEvent(context, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initialCount = -1");
        CountdownEvent countdown = new CountdownEvent(context, 2);
        assertThatThrownBy(() -> countdown.signal(3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("signal(3)");
        assertThat(countdown.currentCount()).isEqualTo(2);
        assertThatThrownBy(() -> countdown.signal(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> countdown.addCount(Integer.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overflow");
        assertThatThrownBy(() -> countdown.reset(-5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> countdown.tryAddCount(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("signalCount = 0");
        assertThat(countdown.currentCount()).isEqualTo(2);
    }

    @Test
    void shouldAddOneWithTryAddCountAndReachTheMaximumExactly() {
        CountdownEvent countdown = new CountdownEvent(Tunings.hardware(Tuning.current()), 2);

        assertThat(countdown.tryAddCount()).isTrue();
        assertThat(countdown.currentCount()).isEqualTo(3);
        assertThat(countdown.tryAddCount(Integer.MAX_VALUE - 3)).isTrue();
        assertThat(countdown.currentCount()).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(countdown::tryAddCount).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overflow");
        assertThat(countdown).hasToString("CountdownEvent[count=" + Integer.MAX_VALUE + ", initial=2]");
    }

    @Test
    void shouldBlockAgainAfterReset() throws InterruptedException {
        CountdownEvent countdown = new CountdownEvent(Tunings.hardware(Tuning.current()), 0);
        assertThat(countdown.await(0, TimeUnit.MILLISECONDS)).isTrue();
        countdown.reset(1);
        assertThat(countdown.await(20, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(countdown.initialCount()).isEqualTo(1);
        countdown.signal();
        countdown.await();
        countdown.reset();
        assertThat(countdown.currentCount()).isEqualTo(1);
    }
}
