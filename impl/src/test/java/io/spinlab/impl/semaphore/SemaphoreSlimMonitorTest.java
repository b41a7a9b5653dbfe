package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who takes SemaphoreSlim's internal Monitor, on real threads: the test thread holds it (it is
 * reentrant, so the test thread can still release) and watches what an acquirer does. Under
 * {@code until-yield} ({@code netcore2.0}) and {@code spinonce} ({@code netcore2.1}, {@code net6})
 * every Wait takes it, as .NET's {@code Monitor.Enter} after the spin, even a Wait that finds a
 * permit; under {@code lock-free} a Wait that finds a permit never touches it.
 */
class SemaphoreSlimMonitorTest {

    static void join(Thread thread) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(TestThreads.JOIN_SECONDS));
        assertThat(thread.isAlive()).as(thread.getName() + " still running").isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.0", "netcore2.1", "net6"})
    void shouldMakeAWaitThatFindsAPermitWaitForTheMonitorUnderTheDotNetPolicies(String tuning)
            throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        SemaphoreSlim semaphore = new SemaphoreSlim(platform.context(Tuning.parse(tuning)), 1);
        AtomicBoolean taken = new AtomicBoolean();
        MonitorLock monitor = semaphore.monitor();
        try (TestThreads threads = new TestThreads()) {
            monitor.enter();
            Thread acquirer;
            try {
                acquirer = threads.start("acquirer", () -> taken.set(semaphore.tryAcquire()));
                platform.awaitParked(acquirer, 0);
                assertThat(semaphore.currentCount()).as("the permit is only taken under the Monitor").isEqualTo(1);
                assertThat(taken).isFalse();
            } finally {
                monitor.exit();
            }
            join(acquirer);
            threads.joinAll();
        }
        assertThat(taken).isTrue();
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"netcore2.0", "netcore2.1", "net6"})
    void shouldMakeAWaitWhoseSpinSeesAPermitStillWaitForTheMonitorUnderTheDotNetPolicies(String tuning)
            throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        SemaphoreSlim semaphore = new SemaphoreSlim(platform.context(Tuning.parse(tuning)), 0);
        MonitorLock monitor = semaphore.monitor();
        try (TestThreads threads = new TestThreads()) {
            monitor.enter();
            Thread acquirer;
            try {
                acquirer = threads.start("acquirer", semaphore::acquire);
                platform.awaitWaiting(acquirer); // spinning (or, its spin over, waiting to enter)
                assertThat(semaphore.release()).isZero(); // re-entering the Monitor the test holds
                platform.awaitParked(acquirer, 0);
                assertThat(semaphore.currentCount()).as("the permit is only taken under the Monitor").isEqualTo(1);
            } finally {
                monitor.exit();
            }
            join(acquirer);
            threads.joinAll();
        }
        assertThat(semaphore.currentCount()).isZero();
    }

    @Test
    void shouldTakeAPermitWithoutTheMonitorUnderLockFree() throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        SemaphoreSlim semaphore = new SemaphoreSlim(platform.context(Tuning.parse("current,semaphore=lock-free")), 2);
        AtomicBoolean taken = new AtomicBoolean();
        MonitorLock monitor = semaphore.monitor();
        try (TestThreads threads = new TestThreads()) {
            monitor.enter();
            try {
                Thread acquirer = threads.start("acquirer", () -> {
                    semaphore.acquire();
                    taken.set(semaphore.tryAcquire());
                });
                join(acquirer); // while the test still holds the Monitor
                assertThat(platform.waits(acquirer)).as("no spin, no park").isZero();
            } finally {
                monitor.exit();
            }
            threads.joinAll();
        }
        assertThat(taken).isTrue();
        assertThat(semaphore.currentCount()).isZero();
    }

    /**
     * dotnet/coreclr #13766's case: a release pulses a waiter, the permit is taken again before
     * that waiter runs (the test holds the Monitor meanwhile), and a second release comes.
     * netcore2.0 pulses {@code min(releaseCount, m_waitCount)} and so wakes the second waiter too;
     * from 2.1 the waiter already pulsed is counted ({@code m_countOfWaitersPulsedToWake}) and the
     * second release wakes nobody. Returns the threads the test thread unparked, then lets the
     * waiters finish.
     */
    private static List<Thread> unparkedByARetakenPermit(String tuning, Thread[] waiters)
            throws InterruptedException {
        WaitWatchingPlatform platform = new WaitWatchingPlatform();
        SemaphoreSlim semaphore = new SemaphoreSlim(platform.context(Tuning.parse(tuning)), 0);
        MonitorLock monitor = semaphore.monitor();
        Thread self = Thread.currentThread();
        List<Thread> unparked;
        try (TestThreads threads = new TestThreads()) {
            for (int i = 0; i < waiters.length; i++) {
                waiters[i] = threads.start("waiter-" + i, semaphore::acquire);
                platform.awaitParked(waiters[i], 0);
            }
            assertThat(semaphore.waiterCount()).isEqualTo(2);
            monitor.enter(); // the pulsed waiter cannot run until the test lets go
            try {
                assertThat(semaphore.release()).isZero();
                assertThat(semaphore.tryAcquire()).as("retaken before the pulsed waiter ran").isTrue();
                assertThat(semaphore.release()).isZero();
            } finally {
                monitor.exit();
            }
            unparked = platform.unparkedBy(self);
            assertThat(semaphore.release()).as("the second waiter's permit").isLessThanOrEqualTo(1);
            threads.joinAll();
        }
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        return unparked;
    }

    @Test
    void shouldWakeTheSecondWaiterTooForAPermitRetakenBeforeThePulsedOneRanUnderUntilYield()
            throws InterruptedException {
        Thread[] waiters = new Thread[2];
        assertThat(unparkedByARetakenPermit("netcore2.0", waiters)).containsOnly(waiters[0], waiters[1]);
    }

    @Test
    void shouldWakeOnlyThePulsedWaiterForAPermitRetakenBeforeItRanUnderSpinOnce() throws InterruptedException {
        Thread[] waiters = new Thread[2];
        assertThat(unparkedByARetakenPermit("netcore2.1", waiters)).containsOnly(waiters[0]);
    }
}
