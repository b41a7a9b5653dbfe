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

import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Set→wait handoff between two threads, ping-pong: a pinger signals "ping" and waits for "pong",
 * a ponger waits for "ping" and signals "pong". Each group method call is one op, so the score is
 * two ops per round trip.
 *
 * <p>spinlab: two {@link ManualResetEvent}s (hardware context, {@code current} tuning), each
 * reset by the thread that consumed it; {@code manualResetEvent} with the default spin before
 * blocking, {@code manualResetEventNoSpin} with a spin count of 0 (straight to park).
 *
 * <p>Peers, each a reusable JDK event, so that no side allocates per round:
 * <ul>
 *   <li>{@code phaser}: a {@link Phaser} of one party per direction, reused: {@code arrive()} is
 *       set, {@code awaitAdvance(phase)} is wait. It spins briefly before it parks, like
 *       ManualResetEvent with its default spin: the like-for-like peer of
 *       {@code manualResetEvent}.</li>
 *   <li>{@code flagPark}: a volatile flag plus {@link LockSupport} park/unpark of the one waiter,
 *       the least a blocking event can do: the like-for-like peer of
 *       {@code manualResetEventNoSpin} (both park at once), and the floor for any event that
 *       blocks.</li>
 * </ul>
 * A fresh {@code CountDownLatch} pair per round, the peer of earlier runs, is gone: it allocated
 * and parked on every round and so measured the allocation and the missing spin, not the event
 * (ratio 26–70x, against a reused Phaser 1.8x).
 *
 * <p>The table's CPU columns matter here: a spinning waiter wins latency by keeping a core busy.
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
     * leaves the protocol in the middle of a round; the next iteration starts from fresh events
     * (Level.Iteration setup, which JMH runs only after every thread left the last one).
     *
     * Protocol invariants. Events and flags: the ponger resets "ping" before it sets "pong", and
     * the pinger resets "pong" before it sets "ping" again, so no set is lost to a reset. Phasers:
     * each thread keeps the phase it waits to see pass (written only by that thread and setup).
     * FlagEvent: set writes the flag and then reads the waiter, await writes the waiter and then
     * reads the flag, all volatile: one of the two sees the other, so no wake-up is lost.
     */

    /** Longest single wait before a waiter looks at whether JMH has stopped measuring. */
    static final long WAIT_SLICE_MILLIS = 10;

    private ManualResetEvent ping;
    private ManualResetEvent pong;
    private ManualResetEvent pingNoSpin;
    private ManualResetEvent pongNoSpin;
    private Phaser pingPhaser;
    private Phaser pongPhaser;
    private int pingerPongPhase;
    private int pongerPingPhase;
    private FlagEvent pingFlag;
    private FlagEvent pongFlag;

    /** The least blocking event: a volatile flag and the one waiter, parked and unparked. */
    static final class FlagEvent {
        private volatile boolean signaled;
        private volatile Thread waiter;

        void set() {
            signaled = true;
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }

        void reset() {
            signaled = false;
        }

        /** Waits up to {@code nanos} for the flag; true if it was set. One waiter at a time. */
        boolean await(long nanos) {
            if (signaled) {
                return true;
            }
            long deadline = System.nanoTime() + nanos;
            waiter = Thread.currentThread();
            try {
                while (!signaled) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        return false;
                    }
                    LockSupport.parkNanos(this, remaining);
                }
                return true;
            } finally {
                waiter = null;
            }
        }
    }

    @Setup(Level.Iteration)
    public void setUp() {
        ping = new ManualResetEvent(SpinContext.hardware());
        pong = new ManualResetEvent(SpinContext.hardware());
        pingNoSpin = new ManualResetEvent(SpinContext.hardware(), false, 0);
        pongNoSpin = new ManualResetEvent(SpinContext.hardware(), false, 0);
        pingPhaser = new Phaser(1);
        pongPhaser = new Phaser(1);
        pingerPongPhase = 0;
        pongerPingPhase = 0;
        pingFlag = new FlagEvent();
        pongFlag = new FlagEvent();
    }

    // ---------------------------------------------------------------- spinlab: ManualResetEvent, default spin

    @Benchmark
    @Group("spinlab_manualResetEvent_handoff")
    @GroupThreads(1)
    public void eventPinger(Control control) throws InterruptedException {
        eventPing(ping, pong, control);
    }

    @Benchmark
    @Group("spinlab_manualResetEvent_handoff")
    @GroupThreads(1)
    public void eventPonger(Control control) throws InterruptedException {
        eventPong(ping, pong, control);
    }

    // ---------------------------------------------------------------- spinlab: ManualResetEvent, no spin

    @Benchmark
    @Group("spinlab_manualResetEventNoSpin_handoff")
    @GroupThreads(1)
    public void noSpinEventPinger(Control control) throws InterruptedException {
        eventPing(pingNoSpin, pongNoSpin, control);
    }

    @Benchmark
    @Group("spinlab_manualResetEventNoSpin_handoff")
    @GroupThreads(1)
    public void noSpinEventPonger(Control control) throws InterruptedException {
        eventPong(pingNoSpin, pongNoSpin, control);
    }

    // ---------------------------------------------------------------- peer: a reused Phaser per direction

    @Benchmark
    @Group("peer_phaser_handoff")
    @GroupThreads(1)
    public void phaserPinger(Control control) throws InterruptedException {
        pingPhaser.arrive();
        int next = awaitUnlessStopped(pongPhaser, pingerPongPhase, control);
        if (next >= 0) {
            pingerPongPhase = next;
        }
    }

    @Benchmark
    @Group("peer_phaser_handoff")
    @GroupThreads(1)
    public void phaserPonger(Control control) throws InterruptedException {
        int next = awaitUnlessStopped(pingPhaser, pongerPingPhase, control);
        if (next >= 0) {
            pongerPingPhase = next;
            pongPhaser.arrive();
        }
    }

    // ---------------------------------------------------------------- peer: volatile flag + LockSupport

    @Benchmark
    @Group("peer_flagPark_handoff")
    @GroupThreads(1)
    public void flagPinger(Control control) {
        pingFlag.set();
        if (awaitUnlessStopped(pongFlag, control)) {
            pongFlag.reset();
        }
    }

    @Benchmark
    @Group("peer_flagPark_handoff")
    @GroupThreads(1)
    public void flagPonger(Control control) {
        if (awaitUnlessStopped(pingFlag, control)) {
            pingFlag.reset();
            pongFlag.set();
        }
    }

    // ---------------------------------------------------------------- the two halves of the event round

    private static void eventPing(ManualResetEvent pingEvent, ManualResetEvent pongEvent, Control control)
            throws InterruptedException {
        pingEvent.set();
        if (awaitUnlessStopped(pongEvent, control)) {
            pongEvent.reset();
        }
    }

    private static void eventPong(ManualResetEvent pingEvent, ManualResetEvent pongEvent, Control control)
            throws InterruptedException {
        if (awaitUnlessStopped(pingEvent, control)) {
            pingEvent.reset();
            pongEvent.set();
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

    /** Waits for {@code flag}; false if JMH stopped measuring first. */
    private static boolean awaitUnlessStopped(FlagEvent flag, Control control) {
        while (!flag.await(TimeUnit.MILLISECONDS.toNanos(WAIT_SLICE_MILLIS))) {
            if (control.stopMeasurement) {
                return false;
            }
        }
        return true;
    }

    /** Waits for {@code phaser} to leave {@code phase}: the phase it reached, or −1 if JMH stopped measuring. */
    private static int awaitUnlessStopped(Phaser phaser, int phase, Control control) throws InterruptedException {
        for (;;) {
            try {
                return phaser.awaitAdvanceInterruptibly(phase, WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (control.stopMeasurement) {
                    return -1;
                }
            }
        }
    }
}
