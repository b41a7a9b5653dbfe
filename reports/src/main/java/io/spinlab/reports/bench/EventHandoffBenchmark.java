package io.spinlab.reports.bench;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Control;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Set→wait handoff between two threads, ping-pong: a pinger signals "ping" and waits for "pong",
 * a ponger waits for "ping" and signals "pong". spinlab uses two {@link ManualResetEvent}s
 * (hardware context, {@code current} tuning: spin, then block), each reset by the thread that
 * consumed it; the JDK peer, whose {@link CountDownLatch} cannot be reset, uses a fresh pair of
 * latches per round. Each group method call is one op, so the score is two ops per round trip.
 *
 * <p>Scenario {@code handoff}; the group names follow the {@link BenchName} convention.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventHandoffBenchmark {
    /*
     * Implementation notes.
     *
     * Why no deadlock at iteration end: JMH stops the two threads of a group one after the other,
     * so the last call of one thread may wait for a signal the other never sends. Every wait is
     * therefore a loop of timed waits (WAIT_SLICE_MILLIS) that gives up once JMH has stopped the
     * measurement (Control.stopMeasurement, as in JMH's JMHSample_18_Control). A call that gave up
     * leaves the protocol in the middle of a round; the next iteration starts from fresh events and
     * latches (Level.Iteration setup, which JMH runs only after every thread left the last one).
     *
     * Protocol invariants. Events: the ponger resets "ping" before it sets "pong", and the pinger
     * resets "pong" before it sets "ping" again, so no set is lost to a reset. Latches: the ponger
     * links the next round before it counts down "pong"; the countDown/await pair publishes the
     * link to the pinger. Each thread's round cursor is written only by that thread (and setup).
     */

    /** Longest single wait before a waiter looks at whether JMH has stopped measuring. */
    static final long WAIT_SLICE_MILLIS = 10;

    private ManualResetEvent ping;
    private ManualResetEvent pong;
    private Round pingerRound;
    private Round pongerRound;

    /** One round of the latch ping-pong: two single-use latches and the link to the next round. */
    static final class Round {
        final CountDownLatch ping = new CountDownLatch(1);
        final CountDownLatch pong = new CountDownLatch(1);
        /** Written by the ponger before {@code pong.countDown()}, read by the pinger after {@code pong.await}. */
        Round next;
    }

    @Setup(Level.Iteration)
    public void setUp() {
        ping = new ManualResetEvent(SpinContext.hardware());
        pong = new ManualResetEvent(SpinContext.hardware());
        Round first = new Round();
        pingerRound = first;
        pongerRound = first;
    }

    // ---------------------------------------------------------------- spinlab: ManualResetEvent

    @Benchmark
    @Group("spinlab_manualResetEvent_handoff")
    @GroupThreads(1)
    public void eventPinger(Control control) throws InterruptedException {
        ping.set();
        if (awaitUnlessStopped(pong, control)) {
            pong.reset();
        }
    }

    @Benchmark
    @Group("spinlab_manualResetEvent_handoff")
    @GroupThreads(1)
    public void eventPonger(Control control) throws InterruptedException {
        if (awaitUnlessStopped(ping, control)) {
            ping.reset();
            pong.set();
        }
    }

    // ---------------------------------------------------------------- peer: a CountDownLatch pair per round

    @Benchmark
    @Group("peer_countDownLatch_handoff")
    @GroupThreads(1)
    public void latchPinger(Control control) throws InterruptedException {
        Round round = pingerRound;
        round.ping.countDown();
        if (awaitUnlessStopped(round.pong, control)) {
            pingerRound = round.next;
        }
    }

    @Benchmark
    @Group("peer_countDownLatch_handoff")
    @GroupThreads(1)
    public void latchPonger(Control control) throws InterruptedException {
        Round round = pongerRound;
        if (awaitUnlessStopped(round.ping, control)) {
            Round next = new Round();
            round.next = next;
            pongerRound = next;
            round.pong.countDown();
        }
    }

    // ---------------------------------------------------------------- waiting that ends with the iteration

    /** Waits for {@code event}; false if JMH stopped measuring first. */
    private static boolean awaitUnlessStopped(ManualResetEvent event, Control control) throws InterruptedException {
        while (!event.await(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
            if (control.stopMeasurement) {
                return false;
            }
        }
        return true;
    }

    /** Waits for {@code latch}; false if JMH stopped measuring first. */
    private static boolean awaitUnlessStopped(CountDownLatch latch, Control control) throws InterruptedException {
        while (!latch.await(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
            if (control.stopMeasurement) {
                return false;
            }
        }
        return true;
    }
}
