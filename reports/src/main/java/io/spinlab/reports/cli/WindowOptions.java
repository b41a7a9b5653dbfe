package io.spinlab.reports.cli;

import io.spinlab.sim.experiment.Experiment;
import io.spinlab.sim.experiment.ExperimentRow;
import picocli.CommandLine.Option;

/**
 * How long the windows of the commands that run experiment rows ({@code reproduce},
 * {@code whatif}) are: as planned, with a second window of ten time slices for rows that counted
 * too few operations (and a third run after a hundred slices of warm-up for rows still short), the
 * same window after a longer warm-up for rows whose rate still changed between its halves, or
 * also for rows whose score did not settle over the seeds ({@code --settle}).
 */
final class WindowOptions {

    @Option(names = "--settle", description = "Also run every row whose score did not settle over the seeds (a side's "
            + "95 %% interval wider than ±" + ExperimentRow.SETTLED_PERCENT + " %% of its mean, or one seed) again "
            + "over " + Experiment.EXTENDED_WINDOW_SLICES + " time slices, as a row that counted too few operations "
            + "is: no row is then decided by one preemption. Slower: that second window takes about eight times "
            + "the first.")
    boolean settle;

    /** {@code experiment} with these windows. */
    Experiment apply(Experiment experiment) {
        return experiment.withSettledWindows(settle);
    }
}
