package io.spinlab.sim.workload;

/**
 * A workload with a parameter that only chooses what its score counts, not what runs: EventPipe's
 * stress run counts the events read or the write attempts of one and the same run, as the
 * published stress tool reported both from each run. Workloads that differ in that parameter
 * alone are one simulation, so an experiment with a row for each choice runs it once per tuning
 * and seed and scores it each way ({@code Experiment}).
 */
public interface ScoreChoice extends Workload {

    /**
     * The parameters of the run every choice is scored from: this workload's, with the choice at
     * one fixed value. Equal for every workload that differs from this one in the choice only.
     */
    String sharedRunParameters();

    /**
     * This workload's result, from the result of the run with {@link #sharedRunParameters()}: the
     * same figures, with {@link WorkloadResult#operations()} what this choice counts and this
     * workload's parameters.
     */
    WorkloadResult scoredFrom(WorkloadResult sharedRun);
}
