package io.spinlab.sim.engine;

/**
 * One entry of the event queue: at {@code time} (ps), do {@code kind} to {@code thread}.
 * {@code seq} breaks ties in order of scheduling; {@code token} lets a superseded wake-up be
 * recognized and skipped. Mutable and pooled by {@link EventQueue}.
 */
final class Event {
    /** The thread on a processor reaches its next scheduling point. */
    static final int RESUME = 1;
    /** A parked or sleeping thread's wake-up (unpark, timeout, spurious, interrupt) takes effect. */
    static final int WAKE = 2;
    /** A thread held off its processor by an injected preemption becomes runnable. */
    static final int READY = 3;
    /** Linux's periodic load balancing on processor {@code token} (no thread). */
    static final int BALANCE = 4;

    long time;
    long seq;
    int kind;
    SimThread thread;
    long token;
    /** Free-list link while pooled. */
    Event nextFree;

    @Override
    public String toString() {
        return "Event[t=" + time + "ps, seq=" + seq + ", kind=" + kind + ", " + (thread == null ? "-" : thread.name)
                + ", token=" + token + "]";
    }
}
