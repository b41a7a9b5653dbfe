package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
    void shouldSpinRawBackoffDelaysAndTakeTheLockAfterTheDelayInWhichItWasReleasedWhenConvoy() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, "convoy");
        Holder holder = new Holder(lock);
        platform.afterCalls(3, holder::releaseAndJoin);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        assertThat(calls(platform)).containsExactly("pause(50)", "pause(150)", "pause(450)");
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    /**
     * The 2017 AwareLock on 2 processors (maximum 40,000): the first spin's delays 50 … 36,450, then
     * ten rounds of AwareLock::Contention's delays 50 … 36,450, each run in chunks of at most 20,000
     * that PAUSE one fewer time than their size (49 … 12,149, then 19,999 and 16,449; nobody waits,
     * so no switch between the two), each round ending in SwitchToThread; only then would it block.
     */
    @Test
    void shouldSpinTheWholeConvoySchedulePauseByPauseBeforeItWouldBlock() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(2, 40, 20);
        MonitorLock lock = lock(platform, "convoy");
        Holder holder = new Holder(lock);
        List<String> expected = new ArrayList<>();
        for (int delay = 50; delay <= 40_000; delay *= 3) {
            expected.add("pause(" + delay + ")");
        }
        for (int round = 0; round < 10; round++) {
            for (int delay = 50; delay < 40_000; delay *= 3) {
                for (int remaining = delay; remaining > 0; remaining -= Math.min(remaining, 20_000)) {
                    expected.add("pause(" + (Math.min(remaining, 20_000) - 1) + ")");
                }
            }
            expected.add("yield");
        }
        platform.afterCalls(expected.size(), holder::releaseAndJoin);

        lock.enter();

        assertThat(calls(platform)).containsExactlyElementsOf(expected);
        assertThat(expected).hasSize(7 + 10 * 9);
        assertThat(expected).contains("pause(19999)", "pause(16449)");
        assertThat(platform.pauses()).isEqualTo(54_650 + 10 * (54_650 - 8));
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.waiterCount()).isZero();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    /**
     * CoreRT's Lock before dotnet/corert #7569: Thread.SpinWait(1), (2), … (8192) as raw PAUSEs,
     * 16,383 in all, trying the lock after each; then it waits (and here finds the lock free).
     */
    @Test
    void shouldSpinDoublingRawSpinWaitsUpTo8192ThenWaitWhenCoreRtLock() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = new MonitorLock(SpinContext.of(platform, Tuning.parse("corert-2019-before"),
                new FixedPauseNormalizer()));
        Holder holder = new Holder(lock);
        List<String> expected = new ArrayList<>();
        for (int spins = 1; spins <= 10_000; spins *= 2) {
            expected.add("pause(" + spins + ")");
        }
        platform.afterCalls(expected.size(), holder::releaseAndJoin);

        lock.enter();

        assertThat(calls(platform)).containsExactlyElementsOf(expected);
        assertThat(platform.pauses()).isEqualTo(16_383);
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    /** After dotnet/corert #7569 each Thread.SpinWait(n) is max(1, n × yields per normalized yield / 8) PAUSEs. */
    @Test
    void shouldScaleEachSpinWaitThroughThePreSkylakeShimWhenCoreRtLockAfter7569() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        FixedPauseNormalizer normalizer = new FixedPauseNormalizer(2, 7);
        MonitorLock lock = new MonitorLock(SpinContext.of(platform, Tuning.parse("corert-2019-after"), normalizer));
        Holder holder = new Holder(lock);
        platform.afterCalls(5, holder::releaseAndJoin);

        lock.enter();

        assertThat(calls(platform)).containsExactly("pause(1)", "pause(1)", "pause(1)", "pause(2)", "pause(4)");
        lock.exit();
    }

    @Test
    void shouldTakeTheLockAtTheIterationAfterTheReleaseWhenCoreRtLock() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, "corert-lock");
        Holder holder = new Holder(lock);
        platform.afterCalls(2, holder::releaseAndJoin);

        assertThat(lock.tryEnter(1, TimeUnit.SECONDS)).isTrue();

        // current's pause=normalized: SpinWait(n) is n normalized yields of the fixed normalizer.
        int y = new FixedPauseNormalizer().yieldsPerNormalizedYield();
        assertThat(calls(platform)).containsExactly("pause(" + y + ")", "pause(" + 2 * y + ")");
        assertThat(lock.waiterCount()).isZero();
        lock.exit();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void shouldSpinThirtyBackedOffIterationsThenGiveUpUnregisteredWhenTheDeadlinePassedWhenBarging()
            throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, "barging");
        Holder holder = new Holder(lock);
        platform.recordClockReads(true);

        assertThat(lock.tryEnter(1_000, TimeUnit.NANOSECONDS)).isFalse();

        // The deadline; the spin; the first waiter's starvation start; the wait's deadline check.
        List<String> expected = new ArrayList<>(List.of("clock"));
        expected.addAll(backoff(MonitorLock.SPIN_COUNT));
        expected.add("clock");
        expected.add("clock");
        assertThat(calls(platform)).containsExactlyElementsOf(expected);
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.spinnerCount()).isZero();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        holder.releaseAndJoin();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void shouldStopSpinningAtTheFirstDelayPastTheDeadlineWhenConvoy() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(4, 40, 20);
        MonitorLock lock = lock(platform, "convoy");
        Holder holder = new Holder(lock);
        platform.recordClockReads(true);

        // 50 PAUSEs take 2 µs, past the 1 µs deadline: the spin stops and the wait gives up.
        assertThat(lock.tryEnter(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactly("clock", "pause(50)", "clock", "clock");
        assertThat(lock.waiterCount()).isZero();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        holder.releaseAndJoin();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"barging, 3", "corert-lock, 2"})
    void shouldNotSpinOnASingleProcessor(String monitor, int clockReads) throws Exception {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        MonitorLock lock = lock(platform, monitor);
        Holder holder = new Holder(lock);
        platform.recordClockReads(true);

        // 10 ns: gone by the next clock read (20 ns), so the wait gives up instead of parking.
        assertThat(lock.tryEnter(10, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactlyElementsOf(Collections.nCopies(clockReads, "clock"));
        assertThat(lock.waiterCount()).isZero();
        holder.releaseAndJoin();
    }

    /** The 2017 AwareLock on one processor: no first spin; Contention's one pass is a TryEnter and SwitchToThread. */
    @Test
    void shouldTryOnceAndSwitchThenWaitOnASingleProcessorWhenConvoy() throws Exception {
        RecordingPlatform platform = new RecordingPlatform(1, 40, 20);
        MonitorLock lock = lock(platform, "convoy");
        Holder holder = new Holder(lock);
        platform.recordClockReads(true);

        assertThat(lock.tryEnter(10, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(calls(platform)).containsExactly("clock", "yield", "clock");
        assertThat(lock.waiterCount()).isZero();
        holder.releaseAndJoin();
    }

    @ParameterizedTest
    @ValueSource(strings = {"barging", "convoy", "corert-lock"})
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
    @ValueSource(strings = {"barging", "convoy", "corert-lock"})
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
