package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MonitorLock's spin and timed wait, call by call, on a recording platform and without a thread
 * ever parking: a holder thread owns the lock and releases it only when the waiting test thread,
 * from inside one of its own platform calls, tells it to and joins it; a timed acquisition whose
 * deadline has passed gives up before it would park.
 */
class MonitorLockScheduleTest {

    /** A thread that holds the lock until {@link #releaseAndJoin()}. */
    private static final class Holder {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final Thread thread;

        Holder(MonitorLock lock) throws InterruptedException {
            thread = Thread.ofPlatform().daemon().name("holder").start(() -> {
                lock.enter();
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    lock.exit();
                }
            });
            assertThat(held.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).as("holder entered").isTrue();
        }

        void releaseAndJoin() {
            release.countDown();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(TestThreads.JOIN_SECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(thread.isAlive()).as("holder still running").isFalse();
        }
    }

    private static MonitorLock lock(RecordingPlatform platform, String monitor) {
        Tuning tuning = Tuning.parse("current,monitor=" + monitor);
        return new MonitorLock(SpinContext.of(platform, tuning, new FixedPauseNormalizer()));
    }

    private static List<String> calls(RecordingPlatform platform) {
        return platform.calls().stream().map(Object::toString).toList();
    }

    private static List<String> backoff(int iterations) {
        List<String> expected = new ArrayList<>(List.of("pause(1)", "pause(2)", "pause(4)"));
        expected.addAll(Collections.nCopies(iterations - 3, "pause(7)"));
        return expected;
    }

    @Test
    void shouldCountItselfAsASpinnerAndTakeTheLockAtTheIterationAfterTheReleaseWhenBarging() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, "barging");
        Holder holder = new Holder(lock);
        int[] seen = new int[2];
        platform.afterCalls(3, () -> {
            seen[0] = lock.spinnerCount();
            seen[1] = lock.waiterCount();
            holder.releaseAndJoin();
        });

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)");
        assertThat(seen).containsExactly(1, 0);
        assertThat(lock.spinnerCount()).isZero();
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void shouldSpinWhileNobodyWaitsAndTakeTheLockAtTheIterationAfterTheReleaseWhenConvoy() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, "convoy");
        Holder holder = new Holder(lock);
        platform.afterCalls(5, holder::releaseAndJoin);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(2)", "pause(4)", "pause(7)", "pause(7)");
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "convoy"})
    void shouldSpinThirtyBackedOffIterationsThenGiveUpUnregisteredWhenTheDeadlinePassed(String monitor)
            throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, monitor);
        Holder holder = new Holder(lock);
        platform.recordClockReads(true);

        assertThat(lock.tryEnter(1_000, TimeUnit.NANOSECONDS)).isFalse();

        List<String> expected = new ArrayList<>(List.of("clock"));
        expected.addAll(backoff(MonitorLock.SPIN_COUNT));
        expected.add("clock");
        assertThat(calls(platform)).containsExactlyElementsOf(expected);
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.spinnerCount()).isZero();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        holder.releaseAndJoin();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "convoy"})
    void shouldNotSpinOnASingleProcessor(String monitor) throws Exception {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        MonitorLock lock = lock(platform, monitor);
        Holder holder = new Holder(lock);
        platform.recordClockReads(true);

        // 10 ns: gone by the next clock read (20 ns), so the wait gives up instead of parking.
        assertThat(lock.tryEnter(10, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactly("clock", "clock");
        assertThat(lock.waiterCount()).isZero();
        holder.releaseAndJoin();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "convoy"})
    void shouldLeaveTheConditionQueueAndKeepTheRecursionWhenAConditionWaitTimesOut(String monitor)
            throws InterruptedException {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, monitor);
        lock.enter();
        lock.enter();

        assertThat(lock.await(0, TimeUnit.NANOSECONDS)).isFalse();
        assertThat(lock.await(0, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(lock.pulse()).as("nobody left in the condition queue").isFalse();
        assertThat(lock.pulseAll()).isZero();
        assertThat(platform.calls()).isEmpty();
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "convoy"})
    void shouldNotReadTheClockOrSpinWhenFreeOrTimeoutIsZero(String monitor) throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, monitor);
        platform.recordClockReads(true);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();
        lock.exit();
        Holder holder = new Holder(lock);
        assertThat(lock.tryEnter(0, TimeUnit.SECONDS)).isFalse();
        assertThat(lock.tryEnter()).isFalse();

        assertThat(platform.calls()).isEmpty();
        holder.releaseAndJoin();
        assertThat(lock.tryEnter()).isTrue();
    }
}
