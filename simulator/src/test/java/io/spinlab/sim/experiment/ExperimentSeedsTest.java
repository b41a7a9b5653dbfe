package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An experiment over several seeds with noise: every seed's scores kept, medians, the same rows on a rerun. */
class ExperimentSeedsTest {

    private static Experiment oneRow() {
        Experiment mres = Experiments.byName("mres-proc-scaling");
        PlannedRow first = mres.rows().getFirst();
        return mres.select(first::equals);
    }

    @Test
    void shouldKeepEverySeedsScoresAndReportTheirMedians() {
        Experiment experiment = oneRow().withSeeds(3).withNoise(true);
        ExperimentRow row = experiment.run(new ProgressListener() { }, 2).getFirst();

        long base = experiment.rows().getFirst().seed();
        assertThat(row.seeds()).containsExactly(base, base + 1, base + 2);
        assertThat(row.leftScores()).hasSize(3).allSatisfy(s -> assertThat(s).isPositive());
        assertThat(row.rightScores()).hasSize(3);
        assertThat(row.leftScore()).isEqualTo(Spread.of(row.leftScores()).median());
        assertThat(row.rightScore()).isEqualTo(Spread.of(row.rightScores()).median());
        // Noise makes the seeds differ even where the workload draws nothing random of its own.
        assertThat(row.leftScores().stream().distinct().count()).isGreaterThan(1);
        assertThat(row.deltaSpread()).isPresent();
        ExperimentRow again = experiment.runRow(experiment.rows().getFirst());
        assertThat(again.leftScores()).isEqualTo(row.leftScores());
        assertThat(again.rightScores()).isEqualTo(row.rightScores());
    }

    @Test
    void shouldRunOneSeedWithoutNoiseByDefault() {
        Experiment experiment = oneRow();
        assertThat(experiment.seeds()).isEqualTo(1);
        assertThat(experiment.noise()).isFalse();
        ExperimentRow row = experiment.runRow(experiment.rows().getFirst());
        assertThat(row.seeds()).hasSize(1);
        assertThat(row.deltaSpread()).isEmpty();
    }

    @Test
    void shouldRejectASeedCountOutOfRange() {
        assertThatThrownBy(() -> oneRow().withSeeds(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("seeds = 0 is out of range; allowed 1..100");
        assertThat(List.of(oneRow().withSeeds(100).seeds())).containsExactly(100);
    }
}
