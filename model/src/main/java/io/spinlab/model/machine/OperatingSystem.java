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
 *   <li>{@link #LINUX}: Linux 6.6 and later (EEVDF): no boost; the next thread is the eligible
 *       one (it has received no more than its fair share) with the earliest virtual deadline; a
 *       thread that has used its slice is preempted at the next scheduler tick (the profile's time
 *       slice) or at a wake-up on its processor; a woken thread that the rule picks preempts at
 *       once; {@code sched_yield} (what both {@code Thread.Yield} and {@code Sleep(0)} become)
 *       forfeits the rest of the caller's slice and looks only at the caller's processor.</li>
 *   <li>{@link #LINUX_CFS}: Linux before 6.6 (CFS): no boost; a woken thread preempts the running
 *       thread when it lies more than the wake-up granularity behind it in virtual runtime;
 *       {@code sched_yield} yields only to a thread ready on the caller's processor.</li>
 * </ul>
 */
public enum OperatingSystem {
    /** Windows' dispatcher, as Microsoft documents it. */
    WINDOWS("windows"),
    /** Linux 6.6 and later: EEVDF on per-CPU run queues. */
    LINUX("linux"),
    /** Linux 4.x to 6.5: CFS on per-CPU run queues. */
    LINUX_CFS("linux-cfs");

    private final String text;

    OperatingSystem(String text) {
        this.text = text;
    }

    /** The name profile files and the command line use: {@code windows}, {@code linux} or {@code linux-cfs}. */
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
