package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RankCorrelationTest {

    @Test
    void shouldBeOneWhenOrderIsSameWhateverTheScale() {
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3, 4}, new double[] {10, 2000, 30000, 1e9}))
                .isCloseTo(1, within(1e-12));
    }

    @Test
    void shouldBeMinusOneWhenOrderIsReversed() {
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3}, new double[] {3, 2, 1})).isCloseTo(-1,
                within(1e-12));
    }

    @Test
    void shouldShareMeanRankWhenValuesTie() {
        assertThat(RankCorrelation.ranks(new double[] {5, 1, 5, 3})).containsExactly(3.5, 1, 3.5, 2);
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3, 4, 5}, new double[] {2, 1, 4, 3, 5}))
                .isCloseTo(0.8, within(1e-12));
    }

    @Test
    void shouldBeNaNWhenOneSampleHasNoSpread() {
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3}, new double[] {7, 7, 7})).isNaN();
    }

    @Test
    void shouldRejectSamplesWhenLengthsDiffer() {
        assertThatThrownBy(() -> RankCorrelation.spearman(new double[] {1, 2}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("equal length");
    }
}
