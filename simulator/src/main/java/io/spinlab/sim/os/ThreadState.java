package io.spinlab.sim.os;

/**
 * What a simulated thread is doing, as the OS model sees it.
 *
 * <p>A thread is {@link #RUNNABLE} from its start until a processor takes it, and again after
 * a wake-up, a yield or a preemption; {@link #RUNNING} while it holds a processor (its current
 * operation is being charged to that processor); {@link #PARKED} in {@code Platform.park}
 * until unparked, timed out or spuriously woken; {@link #SLEEPING} in a timed
 * {@code Platform.sleep}; {@link #DONE} once its task has returned or thrown.
 */
public enum ThreadState {
    /** Holds a processor. */
    RUNNING,
    /** Ready to run, waiting for a processor (or held off it by an injected preemption). */
    RUNNABLE,
    /** Blocked in {@code park} on a blocker. */
    PARKED,
    /** In a timed sleep. */
    SLEEPING,
    /** Finished. */
    DONE
}
