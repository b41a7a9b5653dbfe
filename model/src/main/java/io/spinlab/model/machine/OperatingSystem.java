package io.spinlab.model.machine;

import java.util.Arrays;
import java.util.List;

/**
 * Whose scheduler a machine profile runs: the rules the simulator applies when a thread wakes,
 * yields or sleeps for zero. Both have one ready queue per processor, from which an idle
 * processor also takes threads of the others; they differ where the operating systems do.
 *
 * <ul>
 *   <li>{@link #WINDOWS}: a thread whose wait ends gets a priority boost, runs ahead of unboosted
 *       ready threads, and preempts an unboosted thread on its ideal processor; the boost ends
 *       when it completes a time slice. {@code SwitchToThread} yields only to a thread ready on
 *       the caller's processor; {@code Sleep(0)} to a ready thread anywhere.</li>
 *   <li>{@link #LINUX}: no boost; a woken thread preempts the running thread when it lies more
 *       than CFS's wake-up granularity behind it in virtual runtime; {@code sched_yield} (what both
 *       {@code Thread.Yield} and {@code Sleep(0)} become) yields only to a thread ready on the
 *       caller's processor.</li>
 * </ul>
 */
public enum OperatingSystem {
    /** Windows' dispatcher, as Microsoft documents it. */
    WINDOWS("windows"),
    /** Linux's per-CPU run queues with {@code sched_yield}. */
    LINUX("linux");

    private final String text;

    OperatingSystem(String text) {
        this.text = text;
    }

    /** The name profile files and the command line use: {@code windows} or {@code linux}. */
    public String text() {
        return text;
    }

    /** Every name, in declaration order. */
    public static List<String> texts() {
        return Arrays.stream(values()).map(OperatingSystem::text).toList();
    }

    /** The operating system called {@code text}, or null when none is. */
    static OperatingSystem byText(String text) {
        for (OperatingSystem os : values()) {
            if (os.text.equals(text)) {
                return os;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return text;
    }
}
