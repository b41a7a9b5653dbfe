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
 * interrupted) withdraws its arrival if the phase has not completed meanwhile.
 */
public final class Barrier {
    /*
     * Implementation notes.
     *
     * State word (one int):
     *   bit 31      sense: the parity of the current phase
     *   bits 16..30 participants (at most 32,767)
     *   bits 0..14  participants arrived in the current phase
     * arrived == participants (> 0) means "phase finishing": the last arriver owns the barrier
     * until it publishes the next phase; everyone else who wants to change the state waits
     * (SpinWait) until then.
     *
     * Finishing phase n (last arriver): reset the event of phase n + 1 (all waiters of phase
     * n - 1 have left, since they arrived in phase n); phase = n + 1; run the action; publish
     * the new state (sense flipped, arrived 0); set the event of phase n. Because the next
     * phase's event is reset before anyone can arrive in it, no waiter is woken early.
     *
     * Linearization point of an arrival: its CAS on the state word.
     */

    static final int SENSE = 0x8000_0000;
    static final int TOTAL_SHIFT = 16;
    static final int TOTAL_MASK = 0x7FFF_0000;
    static final int ARRIVED_MASK = 0x0000_7FFF;
    /** Most participants a barrier can have. */
    public static final int MAX_PARTICIPANTS = ARRIVED_MASK;

    private final SpinContext context;
    private final Consumer<Barrier> postPhaseAction;
    private final ManualResetEvent evenEvent;
    private final ManualResetEvent oddEvent;
    private volatile int state;
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
        checkParticipants("participants", participants);
        this.context = context;
        this.postPhaseAction = postPhaseAction;
        this.evenEvent = new ManualResetEvent(context);
        this.oddEvent = new ManualResetEvent(context);
        this.state = participants << TOTAL_SHIFT;
    }

    /** The number of the current phase, starting at 0. */
    public long currentPhase() {
        return phase;
    }

    public int participantCount() {
        return (state & TOTAL_MASK) >>> TOTAL_SHIFT;
    }

    /** Participants yet to arrive in the current phase. */
    public int participantsRemaining() {
        int s = state;
        return ((s & TOTAL_MASK) >>> TOTAL_SHIFT) - (s & ARRIVED_MASK);
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
     * @throws IllegalStateException if the barrier has no participants or more threads arrive than it has
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
        int s;
        long myPhase;
        for (;;) {
            s = state;
            int total = (s & TOTAL_MASK) >>> TOTAL_SHIFT;
            int arrived = s & ARRIVED_MASK;
            if (total == 0) {
                throw new IllegalStateException("the barrier has no participants");
            }
            if (arrived == total) {
                spinner.spinOnce(-1); // the last arriver is finishing the phase
                continue;
            }
            myPhase = phase;
            // LP: the arrival.
            if (STATE.compareAndSet(this, s, s + 1)) {
                break;
            }
        }
        if ((s & ARRIVED_MASK) + 1 == (s & TOTAL_MASK) >>> TOTAL_SHIFT) {
            finishPhase(myPhase, s & SENSE);
            throwIfFailed(myPhase);
            return true;
        }
        boolean released = waitForPhaseEnd(myPhase, s & SENSE, timeoutNanos);
        throwIfFailed(myPhase);
        return released;
    }

    private boolean waitForPhaseEnd(long myPhase, int sense, long timeoutNanos) throws InterruptedException {
        ManualResetEvent event = eventOf(myPhase);
        try {
            boolean set = timeoutNanos < 0 ? awaitForever(event) : event.await(timeoutNanos, TimeUnit.NANOSECONDS);
            if (set || !withdraw(myPhase, sense)) {
                awaitUninterruptibly(event);
                return true;
            }
            return false;
        } catch (InterruptedException e) {
            if (withdraw(myPhase, sense)) {
                throw e;
            }
            // The phase completed first: finish it like everyone else, keeping the interrupt.
            awaitUninterruptibly(event);
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static boolean awaitForever(ManualResetEvent event) throws InterruptedException {
        event.await();
        return true;
    }

    private static void awaitUninterruptibly(ManualResetEvent event) {
        boolean interrupted = false;
        for (;;) {
            try {
                event.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes back an arrival of {@code myPhase}; false if that phase is already finishing or over. */
    private boolean withdraw(long myPhase, int sense) {
        for (;;) {
            int s = state;
            int total = (s & TOTAL_MASK) >>> TOTAL_SHIFT;
            int arrived = s & ARRIVED_MASK;
            if ((s & SENSE) != sense || phase != myPhase || arrived == total || arrived == 0) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s - 1)) {
                return true;
            }
        }
    }

    private void finishPhase(long finishing, int sense) {
        eventOf(finishing + 1).reset();
        phase = finishing + 1;
        if (postPhaseAction != null) {
            try {
                postPhaseAction.accept(this);
            } catch (RuntimeException | Error e) {
                failure = new Failure(finishing, e);
            }
        }
        for (;;) {
            int s = state;
            int next = ((s & SENSE) ^ SENSE) | (s & TOTAL_MASK);
            if (STATE.compareAndSet(this, s, next)) {
                break;
            }
        }
        assert (state & SENSE) != sense || participantCount() == 0;
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
            int s = state;
            int total = (s & TOTAL_MASK) >>> TOTAL_SHIFT;
            int arrived = s & ARRIVED_MASK;
            if (total > 0 && arrived == total) {
                spinner.spinOnce(-1);
                continue;
            }
            if (total + count > MAX_PARTICIPANTS) {
                throw new IllegalArgumentException("adding " + count + " participants to " + total + " exceeds the maximum "
                        + MAX_PARTICIPANTS);
            }
            long joined = phase;
            if (STATE.compareAndSet(this, s, s + (count << TOTAL_SHIFT))) {
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
            int s = state;
            int total = (s & TOTAL_MASK) >>> TOTAL_SHIFT;
            int arrived = s & ARRIVED_MASK;
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
            int next = (s & ~TOTAL_MASK) | (remaining << TOTAL_SHIFT);
            if (STATE.compareAndSet(this, s, next)) {
                if (arrived > 0 && remaining == arrived) {
                    finishPhase(current, s & SENSE);
                }
                return;
            }
        }
    }

    private static void checkParticipants(String name, int value) {
        if (value < 0 || value > MAX_PARTICIPANTS) {
            throw new IllegalArgumentException(name + " = " + value + " is out of range; allowed 0.." + MAX_PARTICIPANTS);
        }
    }

    @Override
    public String toString() {
        return "Barrier[phase=" + phase + ", participants=" + participantCount() + ", remaining="
                + participantsRemaining() + "]";
    }

    // VarHandle mechanics
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Barrier.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
