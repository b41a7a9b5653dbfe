package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.NativeSpinLockPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link NativeSpinLock}'s contended path, call by call, against CoreCLR's
 * {@code SpinLock::SpinToAcquire} and {@code __SwitchToThread} (dotnet/coreclr {@code src/vm/spinlock.cpp}
 * @ a1b757c7 and @ 3621a2a1, {@code src/vm/hosting.cpp}): the test thread holds the lock and
 * releases it from a platform call at a chosen point of its own wait. The platform logs calls
 * run-length encoded ({@code "pause(1) x10000"}), so that 32,768 rounds of 10,000 polls fit.
 */
class NativeSpinLockScheduleTest {

    private static final String ROUND_RAW = "pause(1) x10000";
    /** Three PAUSEs per normalized yield, so a normalized poll cannot pass for a raw one. */
    private static final int YIELDS = 3;
    private static final String ROUND_NORMALIZED = "pause(3) x10000";

    private static NativeSpinLock lock(RunLengthPlatform platform, String tuning) {
        SpinContext context = SpinContext.of(platform, Tuning.parse(tuning), new FixedPauseNormalizer(YIELDS, 7));
        return new NativeSpinLock(context);
    }

    @Test
    void shouldMakeNoPlatformCallWhenFree() {
        RunLengthPlatform platform = new RunLengthPlatform();
        NativeSpinLock lock = lock(platform, "current");

        lock.enter();

        assertThat(platform.runs()).isEmpty();
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.tryEnter()).isFalse();
        lock.exit();
        assertThat(lock.isHeld()).isFalse();
    }

    @Test
    void shouldUseTheGenerationsPollStep() {
        assertThat(lock(new RunLengthPlatform(), "netcore2.0").policy()).isEqualTo(NativeSpinLockPolicy.RAW);
        assertThat(lock(new RunLengthPlatform(), "netcore2.1").policy()).isEqualTo(NativeSpinLockPolicy.RAW);
        assertThat(lock(new RunLengthPlatform(), "netcore3.0").policy()).isEqualTo(NativeSpinLockPolicy.NORMALIZED);
        assertThat(lock(new RunLengthPlatform(), "net5").policy()).isEqualTo(NativeSpinLockPolicy.NORMALIZED);
        assertThat(lock(new RunLengthPlatform(), "net6").policy()).isEqualTo(NativeSpinLockPolicy.NORMALIZED);
    }

    @Test
    void shouldYieldNormalizedTenThousandTimesBetweenSwitchesWhenNormalized() {
        RunLengthPlatform platform = new RunLengthPlatform();
        NativeSpinLock lock = lock(platform, "net6");
        lock.enter();
        // Two full rounds and their switches, then five yields of the third round.
        platform.afterCalls(2 * (10_000 + 1) + 5, lock::exit);

        lock.enter();

        assertThat(platform.runs()).containsExactly(ROUND_NORMALIZED, "yield", ROUND_NORMALIZED, "yield",
                "pause(3) x5");
        assertThat(lock.isHeld()).isTrue();
    }

    @Test
    void shouldYieldBeforeTheFirstPollWhenNormalized() {
        RunLengthPlatform platform = new RunLengthPlatform();
        NativeSpinLock lock = lock(platform, "net6");
        lock.enter();
        platform.afterCalls(10_000 + 1, lock::exit); // released by the first switch

        lock.enter();

        // YieldProcessorNormalized comes before VolatileLoad in the loop (#21586).
        assertThat(platform.runs()).containsExactly(ROUND_NORMALIZED, "yield", "pause(3) x1");
    }

    @Test
    void shouldPollBeforeEachRawPauseWhenRaw() {
        RunLengthPlatform platform = new RunLengthPlatform();
        NativeSpinLock lock = lock(platform, "netcore2.1");
        lock.enter();
        platform.afterCalls(10_000 + 1, lock::exit); // released by the first switch

        lock.enter();

        // Before #21586 the load came first: free at the first poll, so no PAUSE at all.
        assertThat(platform.runs()).containsExactly(ROUND_RAW, "yield");
        assertThat(lock.isHeld()).isTrue();
    }

    @Test
    void shouldPauseOncePerPollWhenRaw() {
        RunLengthPlatform platform = new RunLengthPlatform();
        NativeSpinLock lock = lock(platform, "netcore2.0");
        lock.enter();
        platform.afterCalls(10_000 + 1 + 3, lock::exit);

        lock.enter();

        assertThat(platform.runs()).containsExactly(ROUND_RAW, "yield", "pause(1) x3");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldNeverSleepBeforeTheSwitchWithCount32768AndThenSleepBeforeEverySwitch() {
        RunLengthPlatform platform = new RunLengthPlatform();
        NativeSpinLock lock = lock(platform, "netcore2.1");
        lock.enter();
        int switches = NativeSpinLock.SLEEP_START_THRESHOLD; // counts 0 .. 32767: no sleep
        long beforeSleeps = (long) switches * (10_000 + 1);
        // Two more rounds: each with Sleep(1) before its switch; released by the second sleep.
        platform.afterCalls(beforeSleeps + 10_000 + 2 + 10_000 + 1, lock::exit);

        lock.enter();

        List<String> runs = platform.runs();
        assertThat(switches).isEqualTo(32 * 1024);
        assertThat(runs).hasSize(2 * switches + 6);
        List<String> expectedBefore = new ArrayList<>();
        for (int i = 0; i < switches; i++) {
            expectedBefore.add(ROUND_RAW);
            expectedBefore.add("yield");
        }
        assertThat(runs.subList(0, 2 * switches)).isEqualTo(expectedBefore);
        assertThat(runs.subList(2 * switches, runs.size())).containsExactly(ROUND_RAW, "sleep(1000000)", "yield",
                ROUND_RAW, "sleep(1000000)", "yield");
        assertThat(lock.isHeld()).isTrue();
    }

    /**
     * A contended acquisition is one spin wait on the lock's blocker (the lock itself unless one was
     * given), begun before the first poll and ended after the acquisition; the normalized generations
     * give the PAUSE normalizer one chance to re-measure per acquisition, the raw ones none.
     */
    @Test
    void shouldReportOneSpinWaitOnItsBlockerAndRefreshTheNormalizerOnlyWhenNormalized() {
        Object blocker = new Object();
        for (String tuning : List.of("net6", "netcore2.1")) {
            RunLengthPlatform platform = new RunLengthPlatform();
            FixedPauseNormalizer counting = new FixedPauseNormalizer(YIELDS, 7);
            SpinContext context = SpinContext.of(platform, Tuning.parse(tuning), counting);
            NativeSpinLock own = new NativeSpinLock(context);
            NativeSpinLock attributed = new NativeSpinLock(context, blocker);
            for (NativeSpinLock lock : List.of(own, attributed)) {
                lock.enter();
                platform.afterCalls(platform.callCount() + 3, lock::exit);
                lock.enter();
                assertThat(lock).hasToString("NativeSpinLock[held, " + lock.policy() + "]");
                lock.exit();
                assertThat(lock).hasToString("NativeSpinLock[free, " + lock.policy() + "]");
            }

            assertThat(platform.spinWaits()).as(tuning).containsExactly(List.of("begin", own), List.of("end", own),
                    List.of("begin", blocker), List.of("end", blocker));
            assertThat(counting.refreshes()).as(tuning).isEqualTo(tuning.equals("net6") ? 2 : 0);
        }
    }

    /**
     * A single-threaded platform that logs calls run-length encoded and runs an action once, right
     * after the n-th call (counting every call, not every run). Blocking calls are not supported.
     */
    static final class RunLengthPlatform implements Platform {
        private final List<String> runs = new ArrayList<>();
        private String last;
        private long repeats;
        private long calls;
        private long actionAtCall = -1;
        private Runnable action;
        private final List<List<Object>> spinWaits = new ArrayList<>();

        /** The beginSpinWait/endSpinWait calls, each as [begin|end, blocker]; not in {@link #runs()}. */
        List<List<Object>> spinWaits() {
            return spinWaits;
        }

        long callCount() {
            return calls;
        }

        @Override
        public void beginSpinWait(Object blocker) {
            spinWaits.add(List.of("begin", blocker));
        }

        @Override
        public void endSpinWait(Object blocker) {
            spinWaits.add(List.of("end", blocker));
        }

        void afterCalls(long count, Runnable once) {
            this.actionAtCall = count;
            this.action = once;
        }

        List<String> runs() {
            flush();
            return Collections.unmodifiableList(runs);
        }

        private void flush() {
            if (last != null) {
                runs.add(last.startsWith("pause") ? last + " x" + repeats : last);
                if (!last.startsWith("pause")) {
                    for (long i = 1; i < repeats; i++) {
                        runs.add(last);
                    }
                }
                last = null;
                repeats = 0;
            }
        }

        private void record(String call) {
            if (call.equals(last)) {
                repeats++;
            } else {
                flush();
                last = call;
                repeats = 1;
            }
            calls++;
            if (action != null && calls >= actionAtCall) {
                Runnable once = action;
                action = null;
                once.run();
            }
        }

        @Override
        public int processorCount() {
            return 4;
        }

        @Override
        public long nanoTime() {
            return calls;
        }

        @Override
        public void pause(int count) {
            if (count > 0) {
                record(count == 1 ? "pause(1)" : count == YIELDS ? "pause(3)" : "pause(" + count + ")");
            }
        }

        @Override
        public void yieldThread() {
            record("yield");
        }

        @Override
        public void sleep(long nanos) {
            record("sleep(" + nanos + ")");
        }

        @Override
        public void park(Object blocker) {
            throw new UnsupportedOperationException("RunLengthPlatform cannot block");
        }

        @Override
        public void parkNanos(Object blocker, long nanos) {
            throw new UnsupportedOperationException("RunLengthPlatform cannot block");
        }

        @Override
        public void unpark(Thread thread) {
            record("unpark");
        }

        @Override
        public Thread startThread(String name, Runnable task) {
            throw new UnsupportedOperationException("RunLengthPlatform cannot start threads");
        }

        @Override
        public int nextRandom(int bound) {
            return 0;
        }
    }
}
