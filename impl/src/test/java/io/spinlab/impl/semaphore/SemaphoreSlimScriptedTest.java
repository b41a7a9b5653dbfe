package io.spinlab.impl.semaphore;

import io.spinlab.impl.lock.ForeignHolder;
import io.spinlab.impl.testing.ScriptedPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SemaphoreSlim's blocking paths on a {@link ScriptedPlatform}, for every {@code semaphore} policy: the
 * test thread plays each party. While a waiter is parked on the internal Monitor's condition the
 * Monitor is free, so the test releases (or a second waiter arrives) inside that park; a Monitor held
 * by another thread is played with {@link ForeignHolder}. Each case asserts the exact call schedule,
 * with every run of spin calls (PAUSE, yield, Sleep) shown as {@code spin(n)}: 10 for
 * {@code until-yield} (the current SpinWait yields from its 10th call on), 140 for the others.
 */
class SemaphoreSlimScriptedTest {
    private static final long START_NS = 5_000_000;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static SemaphoreSlim semaphore(ScriptedPlatform platform, String policy, int initialCount) {
        return new SemaphoreSlim(platform.context("current,semaphore=" + policy), initialCount, 10);
    }

    /** The spin before the Monitor, as {@link ScriptedPlatform#callsWithSpinsCollapsed()} shows it. */
    private static String spin(String policy) {
        return policy.equals("until-yield") ? "spin(10)" : "spin(140)";
    }

    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldParkWithoutATimeoutAndTakeThePermitReleasedDuringThePark(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        int[] seen = new int[2];
        platform.atNext("park", () -> {
            seen[0] = semaphore.waiterCount();
            seen[1] = semaphore.release();
        });

        semaphore.acquire();

        assertThat(seen).as("waiters during the park, count before the release").containsExactly(1, 0);
        assertThat(platform.callsWithSpinsCollapsed()).containsExactly(spin(policy), "park", "unpark(me)");
        assertThat(platform.blockers()).containsExactly(semaphore);
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * The Monitor's timed wait ends at its deadline and the acquire gives up without reading the clock
     * again (lock-free reads it once more: its loop checks the deadline after the wait).
     */
    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldGiveUpWhenTheMonitorWaitTimesOut(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);

        assertThat(semaphore.tryAcquire(1_000, TimeUnit.NANOSECONDS)).isFalse();

        List<String> expected = new ArrayList<>(List.of("clock", spin(policy), "clock", "clock", "clock",
                "parkNanos(1000)", "clock"));
        if (policy.equals("lock-free")) {
            expected.add("clock");
        }
        assertThat(platform.callsWithSpinsCollapsed()).containsExactlyElementsOf(expected);
        assertThat(platform.nanos()).isEqualTo(START_NS + 1_000);
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.monitor().isLocked()).isFalse();
    }

    /**
     * .NET's Wait(0) sees a permit outside the Monitor, waits for the Monitor (held by another thread),
     * and finds the permit gone under it: it fails without waiting on the count.
     */
    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce"})
    void shouldFailATryWhosePermitIsTakenWhileItWaitsForTheMonitor(String policy) {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 1);
        ForeignHolder.hold(semaphore.monitor());
        boolean[] other = new boolean[1];
        platform.at(1, () -> {
            ForeignHolder.letGo(semaphore.monitor());
            other[0] = semaphore.tryAcquire();
        });

        assertThat(semaphore.tryAcquire()).isFalse();

        assertThat(other[0]).as("the other thread's try").isTrue();
        assertThat(platform.calls()).as("one PAUSE of the Monitor's spin, no park").containsExactly("pause(1)");
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.monitor().isLocked()).isFalse();
    }

    /**
     * lock-free: the spin finds no permit, the Monitor is held by another thread, and a permit is released
     * (one CAS: nobody is registered yet) while the acquirer is parked on the Monitor's entry queue; it
     * takes that permit under the Monitor instead of registering.
     */
    @Test
    void shouldTakeAPermitReleasedWhileWaitingForTheMonitorUnderLockFree() throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, "lock-free", 0);
        ForeignHolder.hold(semaphore.monitor());
        int[] before = new int[1];
        platform.atNext("park", () -> {
            before[0] = semaphore.release();
            ForeignHolder.letGo(semaphore.monitor());
        });

        semaphore.acquire();

        assertThat(before[0]).isZero();
        assertThat(platform.callsWithSpinsCollapsed()).as("the spin, then the Monitor's 30 back-off iterations")
                .containsExactly("spin(170)", "clock", "park", "unpark(me)", "clock");
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).as("never registered").isZero();
        assertThat(semaphore.monitor().isLocked()).isFalse();
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * Two waiters; the second is interrupted and then a release pulses the first (the longest waiting).
     * The second, leaving on its interrupt, finds that permit and takes it (a permit beats the
     * interrupt, whose status is kept); the first, pulsed, waits for the next release.
     */
    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldLetAnInterruptedWaiterTakeThePermitReleasedForAnother(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        List<String> seen = new ArrayList<>();
        platform.atNext("park", () -> { // the first waiter's park
            try {
                semaphore.acquire(); // the second waiter
            } catch (InterruptedException e) {
                throw new AssertionError("the permit should beat the interrupt", e);
            }
            seen.add("second: interrupted=" + Thread.interrupted() + " count=" + semaphore.currentCount()
                    + " waiters=" + semaphore.waiterCount());
            seen.add("before=" + semaphore.release());
        });
        platform.atNext("park", () -> { // the second waiter's park
            Thread.currentThread().interrupt();
            seen.add("before=" + semaphore.release());
        });

        semaphore.acquire();

        assertThat(seen).containsExactly("before=0", "second: interrupted=true count=0 waiters=1", "before=0");
        assertThat(Thread.interrupted()).as("the first waiter was not interrupted").isFalse();
        assertThat(platform.callsWithSpinsCollapsed()).containsExactly(spin(policy), "park", spin(policy), "park",
                "unpark(me)");
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * A waiter is pulsed and, before it runs, a second permit is released: the release returns the count
     * the first left (1), and wakes nobody more, the pulsed waiter being the only one; the waiter then
     * takes one permit and leaves the other.
     */
    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldReturnTheCountLeftForAPulsedWaiterAndWakeNobodyMore(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        int[] before = new int[2];
        platform.atNext("park", () -> {
            before[0] = semaphore.release();
            before[1] = semaphore.release();
        });

        semaphore.acquire();

        assertThat(before).containsExactly(0, 1);
        assertThat(platform.callsWithSpinsCollapsed()).containsExactly(spin(policy), "park", "unpark(me)");
        assertThat(semaphore.currentCount()).isEqualTo(1);
        assertThat(semaphore.waiterCount()).isZero();
    }

    /**
     * .NET's case for counting the waiters already pulsed (dotnet/coreclr #13766): a release pulses the
     * first waiter, another thread takes that permit before it runs, and a second release must not wake
     * the second waiter: the first, pulsed, is still to come for it. The second waiter is woken by a
     * third release. A waiter that timed out before leaves the count of pulsed waiters at zero.
     */
    @ParameterizedTest
    @ValueSource(strings = {"spinonce", "lock-free"})
    void shouldNotWakeASecondWaiterForAPermitTakenFromThePulsedOne(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        assertThat(semaphore.tryAcquire(1_000, TimeUnit.NANOSECONDS)).as("a waiter that times out").isFalse();
        int from = platform.callCount();
        List<String> seen = new ArrayList<>();
        platform.atNext("park", () -> { // the first waiter's park
            try {
                semaphore.acquire(); // the second waiter
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            seen.add("second took one, count=" + semaphore.currentCount());
        });
        platform.atNext("park", () -> { // the second waiter's park
            seen.add("before=" + semaphore.release());
            seen.add("taken " + semaphore.tryAcquire());
            seen.add("before=" + semaphore.release());
        });
        platform.atNext("park", () -> seen.add("before=" + semaphore.release())); // the second, parked again

        semaphore.acquire();

        assertThat(seen).containsExactly("before=0", "taken true", "before=0", "before=1",
                "second took one, count=1");
        List<String> calls = platform.callsWithSpinsCollapsed();
        assertThat(calls.subList(calls.indexOf("park"), calls.size())).containsExactly("park", spin(policy), "park",
                "unpark(me)", "park", "unpark(me)");
        assertThat(platform.calls().subList(from, platform.callCount())).filteredOn(call -> call.equals("clock"))
                .as("untimed waits read no clock").isEmpty();
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(platform.pendingActions()).isZero();
    }

    /**
     * More waiters pulsed than permits left: three waiters, release(2) pulses the first two, another
     * thread takes both permits before they run, and a release of one then pulses nobody (a negative
     * number to pulse counts as none and leaves the count of pulsed waiters at two). The next release
     * still pulses nobody: two pulsed waiters are to come for the two permits. The third waiter is
     * woken by a third release.
     */
    @ParameterizedTest
    @ValueSource(strings = {"spinonce", "lock-free"})
    void shouldPulseNobodyWhileMoreWaitersArePulsedThanPermitsAreLeft(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        List<String> seen = new ArrayList<>();
        platform.atNext("park", () -> acquireAndSay(semaphore, seen, "second")); // the first waiter's park
        platform.atNext("park", () -> acquireAndSay(semaphore, seen, "third")); // the second waiter's park
        platform.atNext("park", () -> { // the third waiter's park
            seen.add("before=" + semaphore.release(2));
            seen.add("taken " + semaphore.tryAcquire() + " " + semaphore.tryAcquire());
            seen.add("before=" + semaphore.release());
            seen.add("before=" + semaphore.release());
        });
        platform.atNext("park", () -> seen.add("before=" + semaphore.release())); // the third, parked again

        semaphore.acquire();

        assertThat(seen).containsExactly("before=0", "taken true true", "before=0", "before=1", "before=2",
                "third took one, count=2", "second took one, count=1");
        List<String> calls = platform.callsWithSpinsCollapsed();
        assertThat(calls.subList(calls.indexOf("park"), calls.size())).containsExactly("park", spin(policy), "park",
                spin(policy), "park", "unpark(me)", "unpark(me)", "park", "unpark(me)");
        assertThat(semaphore.currentCount()).isZero();
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(platform.pendingActions()).isZero();
    }

    private static void acquireAndSay(SemaphoreSlim semaphore, List<String> seen, String waiter) {
        try {
            semaphore.acquire();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        seen.add(waiter + " took one, count=" + semaphore.currentCount());
    }

    /** Two rounds of one waiter and one release: the first waiter's wake-up is counted off, and the second is woken. */
    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldWakeTheWaiterOfEachRound(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        platform.atNext("park", semaphore::release);
        platform.atNext("park", semaphore::release);

        semaphore.acquire();
        semaphore.acquire();

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly(spin(policy), "park", "unpark(me)",
                spin(policy), "park", "unpark(me)");
        assertThat(semaphore.currentCount()).isZero();
        assertThat(platform.pendingActions()).isZero();
    }

    /** The timeout passes exactly at the end of the spin: the acquirer gives up without waiting on the Monitor. */
    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldGiveUpWithoutWaitingWhenTheSpinEndsExactlyAtTheDeadline(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        platform.at(2, () -> platform.setNanos(START_NS + 1_000)); // the first spin call

        assertThat(semaphore.tryAcquire(1_000, TimeUnit.NANOSECONDS)).isFalse();

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("clock", spin(policy), "clock");
        assertThat(semaphore.waiterCount()).isZero();
        assertThat(semaphore.monitor().isLocked()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldStopSpinningAtTheIterationAfterARelease(String policy) throws Exception {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);
        platform.at(3, semaphore::release);

        semaphore.acquire();

        assertThat(platform.callsWithSpinsCollapsed()).containsExactly("spin(3)");
        assertThat(semaphore.currentCount()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"until-yield", "spinonce", "lock-free"})
    void shouldReturnTheCountBeforeAndReleaseUpToTheMaximumExactly(String policy) {
        ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
        SemaphoreSlim semaphore = semaphore(platform, policy, 0);

        assertThat(semaphore.release()).isZero();
        assertThat(semaphore.release(9)).isEqualTo(1);
        assertThatThrownBy(semaphore::release).isInstanceOf(IllegalStateException.class)
                .hasMessage("release(1) would raise the count 10 above maxCount 10");
        assertThat(semaphore.currentCount()).isEqualTo(10);
        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.release()).isEqualTo(9);
        assertThat(platform.calls()).isEmpty();
    }
}
