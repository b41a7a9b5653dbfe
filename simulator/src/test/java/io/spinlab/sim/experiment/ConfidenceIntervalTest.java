package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ConfidenceIntervalTest {

    /** Newcombe's worked examples of the score interval (Statistics in Medicine 17, 1998, Table I, method 3). */
    @Test
    void shouldGiveWilsonsIntervalOfNewcombesExamples() {
        assertInterval(ConfidenceInterval.wilson(81, 263), 0.2553, 0.3662);
        assertInterval(ConfidenceInterval.wilson(15, 148), 0.0624, 0.1605);
        assertInterval(ConfidenceInterval.wilson(0, 20), 0, 0.1611);
        assertInterval(ConfidenceInterval.wilson(1, 29), 0.0061, 0.1718);
    }

    @Test
    void shouldKeepWilsonsIntervalInsideZeroToOneAtTheEnds() {
        ConfidenceInterval none = ConfidenceInterval.wilson(0, 5);
        ConfidenceInterval all = ConfidenceInterval.wilson(5, 5);

        assertThat(none.low()).isZero();
        assertThat(none.high()).isCloseTo(0.4345, within(1e-4));
        assertThat(all.low()).isCloseTo(0.5655, within(1e-4));
        assertThat(all.high()).isEqualTo(1);
        assertThat(ConfidenceInterval.wilson(10, 17).formatPercent()).isEqualTo("36–78 %");
    }

    /**
     * At 0 of n the score interval's lower end is 0 exactly and at n of n its upper end is 1 exactly; computed as
     * centre − half the rounding left 5.6e-17 above a share of 0 for some n (calibrate's test saw it on CI).
     */
    @Test
    void shouldContainTheShareForEveryCountOfTrials() {
        for (int trials = 1; trials <= 500; trials++) {
            for (int successes = 0; successes <= trials; successes++) {
                double share = successes / (double) trials;
                ConfidenceInterval interval = ConfidenceInterval.wilson(successes, trials);
                assertThat(interval.low()).as("%d of %d", successes, trials).isLessThanOrEqualTo(share);
                assertThat(interval.high()).as("%d of %d", successes, trials).isGreaterThanOrEqualTo(share);
            }
            assertThat(ConfidenceInterval.wilson(0, trials).low()).as("0 of %d", trials).isZero();
            assertThat(ConfidenceInterval.wilson(trials, trials).high()).as("%d of %d", trials, trials).isEqualTo(1);
        }
    }

    @Test
    void shouldGiveNoIntervalWithoutTrials() {
        assertThat(ConfidenceInterval.wilson(0, 0).known()).isFalse();
        assertThat(ConfidenceInterval.wilson(0, 0).format()).isEqualTo("–");
        assertThatThrownBy(() -> ConfidenceInterval.wilson(3, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 of 2");
    }

    /** atanh 0.767 ± 1.96 √(1.06 / 38), back through tanh. */
    @Test
    void shouldGiveSpearmansIntervalByFishersZWithFiellersVariance() {
        ConfidenceInterval interval = ConfidenceInterval.spearman(0.767, 41);

        assertInterval(interval, 0.5952, 0.8718);
        assertThat(interval.format()).isEqualTo("0.595–0.872");
        double centre = (atanh(interval.low()) + atanh(interval.high())) / 2;
        assertThat(centre).isCloseTo(atanh(0.767), within(1e-12));
    }

    @Test
    void shouldNarrowSpearmansIntervalAsPointsAccumulate() {
        ConfidenceInterval few = ConfidenceInterval.spearman(0.8, 10);
        ConfidenceInterval many = ConfidenceInterval.spearman(0.8, 100);

        assertThat(few.low()).isLessThan(many.low());
        assertThat(few.high()).isGreaterThan(many.high());
        assertThat(many.low()).isLessThan(0.8);
        assertThat(many.high()).isGreaterThan(0.8);
    }

    @Test
    void shouldGiveNoSpearmanIntervalBelowFourPointsOrWithoutRho() {
        assertThat(ConfidenceInterval.spearman(0.5, 3).known()).isFalse();
        assertThat(ConfidenceInterval.spearman(Double.NaN, 40).known()).isFalse();
        assertThat(ConfidenceInterval.spearman(1, 10)).isEqualTo(new ConfidenceInterval(1, 1));
        assertThatThrownBy(() -> ConfidenceInterval.spearman(1.5, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rho = 1.5");
    }

    @Test
    void shouldRejectAnIntervalWhoseEndsAreReversedOrHalfKnown() {
        assertThatThrownBy(() -> new ConfidenceInterval(0.9, 0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ConfidenceInterval(Double.NaN, 0.1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertInterval(ConfidenceInterval interval, double low, double high) {
        assertThat(interval.low()).isCloseTo(low, within(5e-5));
        assertThat(interval.high()).isCloseTo(high, within(5e-5));
    }

    private static double atanh(double x) {
        return 0.5 * Math.log((1 + x) / (1 - x));
    }
}
