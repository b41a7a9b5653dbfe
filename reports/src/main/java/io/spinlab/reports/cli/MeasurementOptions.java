package io.spinlab.reports.cli;

import io.spinlab.sim.experiment.Experiment;
import picocli.CommandLine.Option;

/**
 * The measurement protocol of the commands that compare tunings ({@code reproduce},
 * {@code whatif}, {@code hunt}): how many seeds each row (each hunt case) runs over, and whether
 * the machine's run-to-run noise is on.
 */
final class MeasurementOptions {

    /** Seeds per row when not told: the fewest that give a median and an interval. */
    static final int DEFAULT_SEEDS = 3;

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "" + DEFAULT_SEEDS, description = "Run every row (a "
            + "hunt: every case) over N seeds (1.." + Experiment.MAX_SEEDS + ", default ${DEFAULT-VALUE}): scores are the medians, Δ "
            + "gets a 95 %% interval, and a row whose interval straddles its claim's ±5 %% threshold is neutral.")
    int seeds;

    @Option(names = "--no-noise", description = "Run without the machine's run-to-run noise (wake latency, PAUSE and "
            + "clock-read costs, timer phase, where in its transfer a contended cache line changes hands): every seed then differs only in its own random draws.")
    boolean noNoise;

    /** {@code experiment} under this protocol. */
    Experiment apply(Experiment experiment) {
        return experiment.withSeeds(seeds).withNoise(!noNoise);
    }
}
