package io.spinlab.sim.os;

/**
 * One logical processor of the simulated machine: which thread it runs, when that thread's
 * time slice began, and how its time was spent. Mutated only by the engine.
 */
public final class Processor {

    /** {@link #thread()} of an idle processor. */
    public static final int IDLE = -1;

    private final int index;
    private int thread = IDLE;
    private long sliceStartPicos;
    private long sliceEndPicos;
    private long busyPicos;
    private long switchPicos;

    Processor(int index) {
        this.index = index;
    }

    public int index() {
        return index;
    }

    /** The index of the thread it runs, or {@link #IDLE}. */
    public int thread() {
        return thread;
    }

    public boolean idle() {
        return thread == IDLE;
    }

    /** When the running thread's current time slice began. */
    public long sliceStartPicos() {
        return sliceStartPicos;
    }

    /** When the running thread's slice ends: the scheduler looks at it at its first scheduling point from then. */
    public long sliceEndPicos() {
        return sliceEndPicos;
    }

    /** Time spent running threads' operations. */
    public long busyPicos() {
        return busyPicos;
    }

    /** Time spent switching from one thread to another. */
    public long switchPicos() {
        return switchPicos;
    }

    /** Charges {@code picos} of a running thread's work to this processor. */
    public void addBusy(long picos) {
        busyPicos += picos;
    }

    /** Charges {@code picos} of context-switch overhead to this processor. */
    public void addSwitch(long picos) {
        switchPicos += picos;
    }

    void occupy(int threadIndex, long sliceStart, long sliceEnd) {
        thread = threadIndex;
        sliceStartPicos = sliceStart;
        sliceEndPicos = sliceEnd;
    }

    void vacate() {
        thread = IDLE;
    }

    void renewSlice(long now, long end) {
        sliceStartPicos = now;
        sliceEndPicos = end;
    }

    void endSliceAt(long end) {
        sliceEndPicos = end;
    }

    @Override
    public String toString() {
        return "cpu" + index + (idle() ? "[idle]" : "[thread " + thread + "]");
    }
}
