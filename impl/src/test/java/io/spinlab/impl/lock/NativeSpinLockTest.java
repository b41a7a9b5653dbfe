package io.spinlab.impl.lock;

import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.Tunings;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link NativeSpinLock} on real threads and hardware, in both poll steps: mutual exclusion of a
 * plain counter, and a waiter that gets the lock once the holder lets go. Nothing here asserts time.
 */
class NativeSpinLockTest {

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.1", "net6", "net6,pause=raw"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldExcludeEachOtherWhenContended(String tuning) throws InterruptedException {
        NativeSpinLock lock = new NativeSpinLock(Tunings.hardware(Tuning.parse(tuning)));
        // More contenders than processors on a small machine, so some switch while others hold it.
        int threadsCount = Math.max(4, Runtime.getRuntime().availableProcessors() + 1);
        int iterations = 20_000;
        long[] counter = {0};
        AtomicBoolean inside = new AtomicBoolean();
        try (TestThreads threads = new TestThreads()) {
            for (int t = 0; t < threadsCount; t++) {
                threads.start("contender-" + t, () -> {
                    for (int i = 0; i < iterations; i++) {
                        lock.enter();
                        try {
                            assertThat(inside.getAndSet(true)).as("two threads inside").isFalse();
                            counter[0]++; // a plain increment: only mutual exclusion makes it exact
                            inside.set(false);
                        } finally {
                            lock.exit();
                        }
                    }
                });
            }
            threads.joinAll();
        }
        assertThat(counter[0]).isEqualTo((long) threadsCount * iterations);
        assertThat(lock.isHeld()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.1", "net6"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldLetAWaiterInOnceReleased(String tuning) throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        NativeSpinLock lock = new NativeSpinLock(platform.context(Tuning.parse(tuning)));
        AtomicBoolean entered = new AtomicBoolean();
        lock.enter();
        try (TestThreads threads = new TestThreads()) {
            Thread waiter = threads.start("waiter", () -> {
                assertThat(lock.tryEnter()).isFalse();
                lock.enter();
                entered.set(true);
                lock.exit();
            });
            platform.awaitWaiting(waiter); // it found the lock held and spins for it
            assertThat(entered).isFalse();
            lock.exit();
            threads.joinAll();
        }
        assertThat(entered).isTrue();
        assertThat(lock.isHeld()).isFalse();
    }
}
