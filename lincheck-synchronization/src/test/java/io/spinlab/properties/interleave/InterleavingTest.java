package io.spinlab.properties.interleave;

import io.spinlab.model.platform.Platform;
import io.spinlab.properties.interleave.Interleaving.Party;
import io.spinlab.properties.interleave.Interleaving.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The harness itself: turns, stops, parks and permits, and the failures a script must see. */
class InterleavingTest {
    @Test
    void shouldRunOnePartyAtATimeAndStopEachWhereTheScriptSays() {
        List<String> log = new ArrayList<>();
        try (Interleaving il = Interleaving.begin(2, 0)) {
            Party a = il.party("a", () -> {
                log.add("a1");
                Interleaving.reach("a:middle");
                log.add("a2");
            });
            Party b = il.party("b", () -> log.add("b"));
            a.runUntil("a:middle");
            assertThat(a.status()).isEqualTo(Status.STOPPED);
            b.runToEnd();
            a.runToEnd();
            assertThat(log).containsExactly("a1", "b", "a2");
            assertThat(a.trail()).isEqualTo("a:middle");
        }
    }

    @Test
    void shouldKeepAnUntimedParkParkedUntilAnUnparkGivesItAPermit() {
        try (Interleaving il = Interleaving.begin(1, 0)) {
            Platform platform = il.platform();
            Thread[] waiterThread = new Thread[1];
            Party waiter = il.party("waiter", () -> {
                waiterThread[0] = Thread.currentThread();
                platform.park(this);
            });
            waiter.runUntilParked();
            assertThatThrownBy(waiter::runToEnd).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("waiter did not finish: it parked with no wake-up pending");
            il.party("waker", () -> platform.unpark(waiterThread[0])).runToEnd();
            waiter.runToEnd();
        }
    }

    @Test
    void shouldReturnFromAPermitTakenBeforeTheParkAndTimeOutATimedParkAtTheNextRun() {
        try (Interleaving il = Interleaving.begin(1, 5)) {
            Platform platform = il.platform();
            long[] seen = new long[2];
            Party p = il.party("p", () -> {
                platform.unpark(Thread.currentThread());
                platform.park(this); // the permit: no stop
                seen[0] = platform.nanoTime();
                platform.parkNanos(this, 100);
                seen[1] = platform.nanoTime();
            });
            p.runUntilParked();
            il.setNanoTime(105);
            p.runToEnd();
            assertThat(seen).containsExactly(5, 105);
        }
    }

    @Test
    void shouldFailARunThatNeverReachesItsStop() {
        try (Interleaving il = Interleaving.begin(1, 0)) {
            Party p = il.party("p", () -> Interleaving.reach("elsewhere"));
            assertThatThrownBy(() -> p.runUntil("nowhere")).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("p did not reach nowhere: it finished (its last accesses: elsewhere)");
        }
    }

    @Test
    void shouldFailALoopThatWaitsOnAStoppedPartyInsteadOfHanging() {
        try (Interleaving il = Interleaving.begin(1, 0)) {
            boolean[] flag = new boolean[1];
            Party spinner = il.party("spinner", () -> {
                while (!flag[0]) {
                    Interleaving.reach("spinner:look");
                }
            });
            assertThatThrownBy(spinner::runToEnd).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("spinner did not finish: it failed with java.lang.AssertionError: "
                            + "spinner made "
                            + Interleaving.MAX_STEPS + " accesses");
        }
    }

    @Test
    void shouldReportAPartysFailureToTheScript() {
        try (Interleaving il = Interleaving.begin(1, 0)) {
            Party p = il.party("p", () -> {
                throw new IllegalStateException("boom");
            });
            assertThatThrownBy(p::runToEnd).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("p did not finish: it failed with java.lang.IllegalStateException: boom");
        }
    }

    @Test
    void shouldUnwindEveryUnfinishedPartyOnClose() throws InterruptedException {
        Thread[] threads = new Thread[2];
        try (Interleaving il = Interleaving.begin(1, 0)) {
            Party stopped = il.party("stopped", () -> {
                threads[0] = Thread.currentThread();
                Interleaving.reach("stop");
            });
            Party parked = il.party("parked", () -> {
                threads[1] = Thread.currentThread();
                il.platform().park(this);
            });
            stopped.runUntil("stop");
            parked.runUntilParked();
        }
        threads[0].join(10_000);
        threads[1].join(10_000);
        assertThat(threads[0].isAlive()).isFalse();
        assertThat(threads[1].isAlive()).isFalse();
    }

    @Test
    void shouldAllowOneInterleavingAtATime() {
        Interleaving first = Interleaving.begin(1, 0);
        try {
            assertThatThrownBy(() -> Interleaving.begin(1, 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("an interleaving is already in progress");
        } finally {
            first.close();
        }
        Interleaving.begin(1, 0).close();
    }

    @Test
    void shouldMakeAStartedThreadAPartyThatRunsOnlyWhenTheScriptRunsIt() {
        List<String> log = new ArrayList<>();
        try (Interleaving il = Interleaving.begin(1, 0)) {
            Thread t = il.platform().startThread("worker", () -> log.add("worker ran"));
            assertThat(t.getName()).isEqualTo("worker");
            assertThat(log).isEmpty();
            il.started("worker").runToEnd();
            assertThat(log).containsExactly("worker ran");
            assertThatThrownBy(() -> il.started("other")).isInstanceOf(AssertionError.class)
                    .hasMessage("no thread named other was started");
        }
    }
}
