package io.spinlab.sim.experiment;

/**
 * Hears about an experiment's rows as they run, so that a command line can show progress.
 * Calls come from the threads that run the rows, one call at a time (the runner serializes
 * them); {@code index} is the row's position in the plan, from 0.
 */
public interface ProgressListener {

    /** Hears nothing. */
    ProgressListener NONE = new ProgressListener() {
    };

    /** Row {@code index} of {@code total} starts. */
    default void rowStarted(Experiment experiment, int index, int total, PlannedRow row) {
    }

    /** Row {@code index} of {@code total} is done (completed or failed). */
    default void rowFinished(Experiment experiment, int index, int total, ExperimentRow row) {
    }
}
