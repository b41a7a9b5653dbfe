package io.spinlab.sim.trace;

/**
 * Where a simulated thread's time went. Every picosecond of a thread's life, from its start to
 * its end, falls into exactly one activity, so the six add up to its lifetime.
 */
public enum Activity {
    /** On a processor doing something other than PAUSE or yield: clock reads, unparks, starts, charged work. */
    WORKING("working"),
    /** On a processor executing PAUSE. */
    SPINNING("spinning"),
    /** In a yield (or {@code Sleep(0)}): the system call, or the switch away when another thread was ready. */
    YIELDING("yielding"),
    /** In a timed sleep. */
    SLEEPING("sleeping"),
    /** Blocked in park, including the wake-up latency after an unpark. */
    PARKED("parked"),
    /** Ready but waiting for a processor (run queue, a switch to it, an injected preemption). */
    RUNNABLE("runnable");

    private final String label;

    Activity(String label) {
        this.label = label;
    }

    /** Lower-case name used in tables and traces. */
    public String label() {
        return label;
    }
}
