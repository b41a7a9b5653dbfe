package io.spinlab.sim.workload;

/**
 * A workload that is its description: two are equal when they are of one class and
 * {@link #describe()} the same, and it prints as its description, so that a workload read back
 * from its parameter text ({@link Workloads#create}) equals the one that wrote it.
 */
public abstract class DescribedWorkload implements Workload {

    @Override
    public String toString() {
        return describe();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DescribedWorkload w && w.getClass() == getClass() && w.describe().equals(describe());
    }

    @Override
    public int hashCode() {
        return describe().hashCode();
    }
}
