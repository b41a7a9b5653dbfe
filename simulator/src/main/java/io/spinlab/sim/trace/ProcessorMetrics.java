package io.spinlab.sim.trace;

/**
 * How one simulated processor spent the run: running threads, switching between them, idle.
 *
 * @param index        the processor's number
 * @param busyPicos    running threads' operations
 * @param switchPicos  context-switch overhead
 * @param elapsedPicos the length of the run
 */
public record ProcessorMetrics(int index, long busyPicos, long switchPicos, long elapsedPicos) {

    /** Busy share of the run, 0..1 (0 for an empty run). */
    public double utilization() {
        return elapsedPicos == 0 ? 0 : (double) busyPicos / elapsedPicos;
    }

    /** Time neither running a thread nor switching. */
    public long idlePicos() {
        return Math.max(0, elapsedPicos - busyPicos - switchPicos);
    }
}
