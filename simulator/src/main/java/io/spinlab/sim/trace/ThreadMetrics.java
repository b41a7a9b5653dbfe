package io.spinlab.sim.trace;

import io.spinlab.sim.os.ThreadState;

import java.util.Arrays;
import java.util.Objects;

/**
 * How one simulated thread spent its life: picoseconds per {@link Activity}, context switches,
 * wake-ups and preemptions. Immutable.
 */
public final class ThreadMetrics {

    private final String name;
    private final long startPicos;
    private final long endPicos;
    private final long[] activityPicos;
    private final long contextSwitches;
    private final long wakeUps;
    private final long spuriousWakeUps;
    private final long preemptions;
    private final ThreadState finalState;

    /**
     * @param activityPicos picoseconds per activity, indexed by {@link Activity#ordinal()}
     * @param endPicos      when the thread finished, or the end of the run if it did not
     */
    public ThreadMetrics(String name, long startPicos, long endPicos, long[] activityPicos, long contextSwitches,
            long wakeUps, long spuriousWakeUps, long preemptions, ThreadState finalState) {
        if (activityPicos.length != Activity.values().length) {
            throw new IllegalArgumentException("activityPicos has " + activityPicos.length + " entries; expected "
                    + Activity.values().length);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.startPicos = startPicos;
        this.endPicos = endPicos;
        this.activityPicos = activityPicos.clone();
        this.contextSwitches = contextSwitches;
        this.wakeUps = wakeUps;
        this.spuriousWakeUps = spuriousWakeUps;
        this.preemptions = preemptions;
        this.finalState = Objects.requireNonNull(finalState, "finalState");
    }

    public String name() {
        return name;
    }

    public long startPicos() {
        return startPicos;
    }

    public long endPicos() {
        return endPicos;
    }

    /** Picoseconds spent in {@code activity}. */
    public long picos(Activity activity) {
        return activityPicos[activity.ordinal()];
    }

    /** The sum over all activities; equals {@code endPicos - startPicos}. */
    public long accountedPicos() {
        return Arrays.stream(activityPicos).sum();
    }

    /** Times the thread left a processor (blocked, slept, yielded to a ready thread, or was preempted). */
    public long contextSwitches() {
        return contextSwitches;
    }

    /** Times the thread came back from park or sleep (unpark, timeout, spurious, interrupt). */
    public long wakeUps() {
        return wakeUps;
    }

    /** Of {@link #wakeUps()}, those injected as spurious. */
    public long spuriousWakeUps() {
        return spuriousWakeUps;
    }

    /** Times the thread was preempted (end of a time slice or an injected preemption). */
    public long preemptions() {
        return preemptions;
    }

    /** {@link ThreadState#DONE} unless the run ended first. */
    public ThreadState finalState() {
        return finalState;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name).append(": ");
        for (Activity a : Activity.values()) {
            text.append(a.label()).append('=').append(Picos.format(picos(a))).append(' ');
        }
        return text.append("switches=").append(contextSwitches).append(" wakeUps=").append(wakeUps)
                .append(" preemptions=").append(preemptions).toString();
    }
}
