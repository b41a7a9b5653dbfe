package io.spinlab.impl.event;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.spin.SpinWait;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A reusable barrier: a fixed (but changeable) number of participants meet at
 * {@link #signalAndWait()} phase after phase; the last to arrive runs an optional post-phase
 * action and releases the others. The equivalent of .NET's {@code Barrier}: waiting is a
 * {@link ManualResetEvent} wait (spin by the {@code spin} knob, then block), with two events
 * used alternately by even and odd phases.
 *
 * <p>Phases never mix: a participant released from phase n has seen every arrival of phase n,
 * and no arrival of phase n + 1 is counted in phase n. A participant whose wait times out (or is
 * interrupted) withdraws its arrival if the phase has not completed meanwhile. While the
 * post-phase action runs, {@link #currentPhase()} is still the phase that is finishing, as in .NET.
 */
public final class Barrier {
    /*
     * Implementation notes.
     *
     * State word (one long):
     *   bits 0..14   participants arrived in the current phase
     *   bits 16..30  participants (at most 32,767)
     *   bits 32..63  the current phase number, modulo 2^32
     * Carrying the phase in the CAS'd word means an arrival, an add or a remove can never act on
     * a phase other than the one it read (no ABA after two phases, as a one-bit sense would allow;
     * wrapping needs 2^32 phases between a read and its CAS). `phase` holds the full number.
     *
     * arrived == participants (> 0) means "phase finishing": the last arriver owns the barrier
     * until it publishes the next phase; everyone else who wants to change the state waits
     * (SpinWait) until then.
     *
     * Finishing phase n (last arriver): reset the event of phase n + 1; run the action; phase =
     * n + 1; publish the state (phase n + 1, arrived 0); set the event of phase n.
     *
     * Waiting: a participant of phase n waits until `phase` moves past n, on the event of phase n
     * in bounded slices (.NET's DiscontinuousWait). The event alone is not enough: when
     * participants are removed, phase n + 1 can complete and reset the event of n + 2 (the same
     * event) before a waiter of phase n has woken; the phase number still tells it to go.
     *
     * Linearization point of an arrival: its CAS on the state word.
     */

    static final long ARRIVED_MASK = 0x7FFFL;
    static final int TOTAL_SHIFT = 16;
    static final long TOTAL_MASK = 0x7FFFL << TOTAL_SHIFT;
    static final int PHASE_SHIFT = 32;
    /** Most participants a barrier can have. */
    public static final int MAX_PARTICIPANTS = (int) ARRIVED_MASK;
    /** Longest single wait on a phase event before the phase number is checked again. */
    static final long WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final SpinContext context;
    private final Consumer<Barrier> postPhaseAction;
    private final ManualResetEvent evenEvent;
    private final ManualResetEvent oddEvent;
    private volatile long state;
    private volatile long phase;
    private volatile Failure failure;

    private record Failure(long phase, Throwable cause) {
    }

    /** Thrown to every participant of a phase whose post-phase action threw. */
    public static final class PostPhaseException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PostPhaseException(long phase, Throwable cause) {
            super("the post-phase action of phase " + phase + " threw " + cause, cause);
        }
    }

    public Barrier(SpinContext context, int participants) {
        this(context, participants, null);
    }

    /**
     * @param participants 0..{@value #MAX_PARTICIPANTS}
     * @param postPhaseAction run by the last arriver of each phase before the others are released; may be null
     */
    public Barrier(SpinContext context, int participants, Consumer<Barrier> postPhaseAction) {
        if (participants < 0 || participants > MAX_PARTICIPANTS) {
            throw new IllegalArgumentException("participants = " + participants + " is out of range; allowed 0.."
                    + MAX_PARTICIPANTS);
        }
        this.context = context;
        this.postPhaseAction = postPhaseAction;
        this.evenEvent = new ManualResetEvent(context);
        this.oddEvent = new ManualResetEvent(context);
        this.state = (long) participants << TOTAL_SHIFT;
    }

    /** The number of the current phase, starting at 0. */
    public long currentPhase() {
        return phase;
    }

    public int participantCount() {
        return total(state);
    }

    /** Participants yet to arrive in the current phase. */
    public int participantsRemaining() {
        long s = state;
        return total(s) - arrived(s);
    }

    /** Signals arrival and waits for the others. */
    public void signalAndWait() throws InterruptedException {
        boolean completed = signalAndWaitNanos(-1);
        assert completed;
    }

    /**
     * Signals arrival and waits for the others at most {@code timeout}.
     *
     * @return true if the phase completed, false if the arrival was withdrawn on timeout
     * @throws IllegalStateException if the barrier has no participants
     * @throws PostPhaseException if the post-phase action threw
     */
    public boolean signalAndWait(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        return signalAndWaitNanos(unit.toNanos(timeout));
    }

    private boolean signalAndWaitNanos(long timeoutNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        SpinWait spinner = new SpinWait(context);
        long s;
        long myPhase;
        for (;;) {
            s = state;
            int total = total(s);
            int arrived = arrived(s);
            if (total == 0) {
                throw new IllegalStateException("the barrier has no participants");
            }
            if (arrived == total) {
                spinner.spinOnce(-1); // the last arriver is finishing the phase
                continue;
            }
            myPhase = phase;
            if (!samePhase(myPhase, s)) {
                continue; // a finish is publishing: read again
            }
            // LP: the arrival.
            if (STATE.compareAndSet(this, s, s + 1)) {
                break;
            }
        }
        if (arrived(s) + 1 == total(s)) {
            finishPhase(myPhase);
            throwIfFailed(myPhase);
            return true;
        }
        boolean released = waitForPhaseEnd(myPhase, timeoutNanos);
        throwIfFailed(myPhase);
        return released;
    }

    private boolean waitForPhaseEnd(long myPhase, long timeoutNanos) throws InterruptedException {
        ManualResetEvent event = eventOf(myPhase);
        long start = timeoutNanos > 0 ? context.platform().nanoTime() : 0L;
        try {
            while (phase == myPhase) {
                long slice = WAIT_SLICE_NANOS;
                if (timeoutNanos >= 0) {
                    long remaining = timeoutNanos - (timeoutNanos > 0 ? context.platform().nanoTime() - start : 0);
                    if (remaining <= 0) {
                        if (withdraw(myPhase)) {
                            return false;
                        }
                        awaitPhaseEndUninterruptibly(myPhase, event);
                        return true;
                    }
                    slice = Math.min(slice, remaining);
                }
                event.await(slice, TimeUnit.NANOSECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            if (withdraw(myPhase)) {
                throw e;
            }
            // The phase completed first: finish it like everyone else, keeping the interrupt.
            awaitPhaseEndUninterruptibly(myPhase, event);
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private void awaitPhaseEndUninterruptibly(long myPhase, ManualResetEvent event) {
        boolean interrupted = false;
        while (phase == myPhase) {
            try {
                event.await(WAIT_SLICE_NANOS, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes back an arrival of {@code myPhase}; false if that phase is already finishing or over. */
    private boolean withdraw(long myPhase) {
        for (;;) {
            long s = state;
            int arrived = arrived(s);
            if (!samePhase(myPhase, s) || arrived == total(s) || arrived == 0) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s - 1)) {
                return true;
            }
        }
    }

    private void finishPhase(long finishing) {
        eventOf(finishing + 1).reset();
        if (postPhaseAction != null) {
            try {
                postPhaseAction.accept(this);
            } catch (RuntimeException | Error e) {
                failure = new Failure(finishing, e);
            }
        }
        PHASE.setRelease(this, finishing + 1); // .NET: Volatile.Write of the phase, a release store
        for (;;) {
            long s = state;
            assert samePhase(finishing, s) && arrived(s) == total(s);
            long next = (s & TOTAL_MASK) | ((finishing + 1) << PHASE_SHIFT);
            if (STATE.compareAndSet(this, s, next)) {
                break;
            }
        }
        eventOf(finishing).set();
    }

    private void throwIfFailed(long myPhase) {
        Failure f = failure;
        if (f != null && f.phase() == myPhase) {
            throw new PostPhaseException(myPhase, f.cause());
        }
    }

    private ManualResetEvent eventOf(long phaseNumber) {
        return (phaseNumber & 1) == 0 ? evenEvent : oddEvent;
    }

    /**
     * Adds participants to the current phase.
     *
     * @return the phase they join
     * @throws IllegalArgumentException if the total would exceed {@value #MAX_PARTICIPANTS}
     */
    public long addParticipants(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count = " + count + " is out of range; allowed 1 or more");
        }
        SpinWait spinner = new SpinWait(context);
        for (;;) {
            long s = state;
            int total = total(s);
            if (total > 0 && arrived(s) == total) {
                spinner.spinOnce(-1);
                continue;
            }
            if (total + count > MAX_PARTICIPANTS) {
                throw new IllegalArgumentException("adding " + count + " participants to " + total + " exceeds the maximum "
                        + MAX_PARTICIPANTS);
            }
            long joined = phase;
            // LP: the CAS, which also proves `joined` is the phase of this state.
            if (samePhase(joined, s) && STATE.compareAndSet(this, s, s + ((long) count << TOTAL_SHIFT))) {
                return joined;
            }
        }
    }

    /**
     * Removes participants. If every remaining participant has already arrived, the phase
     * completes.
     *
     * @throws IllegalArgumentException if more would be removed than exist
     * @throws IllegalStateException if fewer would remain than have already arrived
     */
    public void removeParticipants(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count = " + count + " is out of range; allowed 1 or more");
        }
        SpinWait spinner = new SpinWait(context);
        for (;;) {
            long s = state;
            int total = total(s);
            int arrived = arrived(s);
            if (total > 0 && arrived == total) {
                spinner.spinOnce(-1);
                continue;
            }
            if (count > total) {
                throw new IllegalArgumentException("cannot remove " + count + " participants from " + total);
            }
            int remaining = total - count;
            if (remaining < arrived) {
                throw new IllegalStateException("removing " + count + " participants would leave " + remaining
                        + ", fewer than the " + arrived + " that have arrived in this phase");
            }
            long current = phase;
            long next = (s & ~TOTAL_MASK) | ((long) remaining << TOTAL_SHIFT);
            // LP: the CAS.
            if (samePhase(current, s) && STATE.compareAndSet(this, s, next)) {
                if (arrived > 0 && remaining == arrived) {
                    finishPhase(current);
                }
                return;
            }
        }
    }

    private static int total(long s) {
        return (int) ((s & TOTAL_MASK) >>> TOTAL_SHIFT);
    }

    private static int arrived(long s) {
        return (int) (s & ARRIVED_MASK);
    }

    private static boolean samePhase(long phaseNumber, long s) {
        return (int) phaseNumber == (int) (s >>> PHASE_SHIFT);
    }

    @Override
    public String toString() {
        return "Barrier[phase=" + phase + ", participants=" + participantCount() + ", remaining="
                + participantsRemaining() + "]";
    }

    // VarHandle mechanics
    private static final VarHandle STATE;
    private static final VarHandle PHASE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Barrier.class, "state", long.class);
            PHASE = MethodHandles.lookup().findVarHandle(Barrier.class, "phase", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
