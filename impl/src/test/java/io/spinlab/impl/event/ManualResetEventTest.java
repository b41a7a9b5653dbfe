package io.spinlab.impl.event;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.RecordingPlatform;
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

class ManualResetEventTest {

    static Stream<Tuning> tunings() {
        return Tunings.all();
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void shouldNeverLoseAWakeupAcrossRounds(Tuning tuning) throws InterruptedException {
        SpinContext context = Tunings.hardware(tuning);
        for (int waiters : new int[] {1, 2, 5}) {
            assertThat(WakeupChecker.run(() -> WakeupChecker.of(new ManualResetEvent(context)), waiters, 300, 20_000))
                    .as("%d waiters under %s", waiters, tuning).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("tunings")
    void shouldReleaseEveryBlockedWaiterWhenSet(Tuning tuning) throws InterruptedException {
        ManualResetEvent event = new ManualResetEvent(Tunings.hardware(tuning));
        try (TestThreads threads = new TestThreads()) {
            Thread[] waiters = new Thread[4];
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, event::await);
            }
            for (Thread waiter : waiters) {
                TestThreads.awaitBlocked(waiter);
            }
            assertThat(event.waiterCount()).isEqualTo(waiters.length);
            event.set();
            threads.joinAll();
        }
        assertThat(event.waiterCount()).isZero();
    }

    @Test
    void checkerShouldCatchAPlantedLostWakeup() throws InterruptedException {
        SpinContext context = Tunings.hardware(Tuning.current());
        assertThat(WakeupChecker.run(() -> new LostWakeupEvent(context), 2, 2_000, 300)).isPresent();
    }

    @Test
    void shouldTimeOutWhenNeverSet() throws InterruptedException {
        ManualResetEvent event = new ManualResetEvent(Tunings.hardware(Tuning.current()));
        // That it waits its whole timeout is checked in virtual time (the simulator's TimedWaitsInVirtualTimeTest).
        assertThat(event.await(50, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(event.await(0, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(event.waiterCount()).isZero();
    }

    @Test
    void shouldPassAtOnceWhenAlreadySet() throws InterruptedException {
        ManualResetEvent event = new ManualResetEvent(Tunings.hardware(Tuning.current()), true);
        assertThat(event.await(0, TimeUnit.MILLISECONDS)).isTrue();
        event.await();
        event.reset();
        assertThat(event.isSet()).isFalse();
    }

    @Test
    void shouldThrowWhenInterruptedWhileBlocked() throws InterruptedException {
        ManualResetEvent event = new ManualResetEvent(Tunings.hardware(Tuning.current()));
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> assertThatThrownBy(event::await)
                    .isInstanceOf(InterruptedException.class));
            TestThreads.awaitBlocked(waiter);
            waiter.interrupt();
            threads.joinAll();
        }
        assertThat(event.waiterCount()).isZero();
    }

    @Test
    void shouldUseThePolicysDefaultSpinCount() {
        assertThat(new ManualResetEvent(Tunings.hardware(Tuning.current())).spinCount()).isEqualTo(35);
        assertThat(new ManualResetEvent(Tunings.hardware(Tuning.legacy())).spinCount()).isEqualTo(10);
        assertThat(new ManualResetEvent(Tunings.hardware(Tuning.parse("current,spin=none"))).spinCount()).isZero();
        SpinContext single = SpinContext.of(new RecordingPlatform(1, 40, 20), Tuning.current());
        assertThat(new ManualResetEvent(single, false, 2047).spinCount()).isEqualTo(1);
    }

    @Test
    void shouldRejectASpinCountOutOfRange() {
        SpinContext context = Tunings.hardware(Tuning.current());
        assertThatThrownBy(() -> new ManualResetEvent(context, false, 2048))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spinCount = 2048")
                .hasMessageContaining("0..2047");
        assertThatThrownBy(() -> new ManualResetEvent(context, false, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spinCount = -1");
        ManualResetEvent event = new ManualResetEvent(context);
        assertThatThrownBy(() -> event.await(-1, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void procScaledSpinShouldGrowWithTheProcessorCount() {
        RecordingPlatform two = new RecordingPlatform(2, 40, 20);
        RecordingPlatform twelve = new RecordingPlatform(12, 40, 20);
        Tuning procScaled = Tuning.parse("current,spin=proc-scaled,pause=raw");
        for (RecordingPlatform platform : new RecordingPlatform[] {two, twelve}) {
            ManualResetEvent event = new ManualResetEvent(SpinContext.of(platform, procScaled));
            assertThat(event.spinCount()).isEqualTo(10);
            spinOnly(event, platform);
        }
        // Σ 4 << i over i in 0..9 except 5 = 4092 - 128 = 3964 PAUSEs per processor.
        assertThat(two.pauses()).isEqualTo(2 * 3964L);
        assertThat(twelve.pauses()).isEqualTo(12 * 3964L);
        RecordingPlatform unscaled = new RecordingPlatform(12, 40, 20);
        spinOnly(new ManualResetEvent(SpinContext.of(unscaled, Tuning.parse("current,spin=unscaled,pause=raw"))),
                unscaled);
        assertThat(unscaled.pauses()).isEqualTo(3964L);
    }

    /** Runs only the spin phase (the RecordingPlatform cannot block): the event is never set. */
    private static void spinOnly(ManualResetEvent event, RecordingPlatform platform) {
        assertThatThrownBy(event::await).isInstanceOf(UnsupportedOperationException.class);
        assertThat(platform.calls()).isNotEmpty();
    }

    /**
     * A planted bug: the waiter registers itself after its last look at the flag, without looking
     * again, so a set() between the look and the registration sees no waiter and wakes nobody.
     */
    static final class LostWakeupEvent implements WakeupChecker.EventUnderTest {
        private final MonitorLock lock;
        private volatile boolean signaled;
        private volatile int waiters;

        LostWakeupEvent(SpinContext context) {
            this.lock = new MonitorLock(context);
        }

        @Override
        public void set() {
            signaled = true;
            if (waiters > 0) {
                lock.enter();
                try {
                    lock.pulseAll();
                } finally {
                    lock.exit();
                }
            }
        }

        @Override
        public void reset() {
            signaled = false;
        }

        @Override
        public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
            if (signaled) {
                return true;
            }
            lock.enter();
            try {
                boolean seen = signaled;
                Thread.yield(); // widen the window the bug lives in
                if (seen) {
                    return true;
                }
                waiters++;
                try {
                    return lock.await(timeout, unit) || signaled;
                } finally {
                    waiters--;
                }
            } finally {
                lock.exit();
            }
        }
    }
}
