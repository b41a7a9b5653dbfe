package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The Mann–Whitney test on samples whose answers are in the tables. */
class RankSumTest {

    @Test
    void shouldCountEveryArrangementForTheExactTail() {
        // All of a above all of b is one arrangement of C(m + n, m).
        assertThat(RankSum.exactUpperTail(3, 3, 9)).isCloseTo(1.0 / 20, within(1e-12));
        assertThat(RankSum.exactUpperTail(4, 4, 16)).isCloseTo(1.0 / 70, within(1e-12));
        assertThat(RankSum.exactUpperTail(5, 5, 25)).isCloseTo(1.0 / 252, within(1e-12));
        // U of 5 against 5: 1, 1, 2, 3, 5, 7 arrangements at U = 25 down to 20.
        assertThat(RankSum.exactUpperTail(5, 5, 20)).isCloseTo(19.0 / 252, within(1e-12));
        assertThat(RankSum.exactUpperTail(5, 5, 0)).isCloseTo(1, within(1e-12));
    }

    @Test
    void shouldMatchThePublishedCriticalValueForTenAgainstTen() {
        // Tables of the two-sided 5 % test give 23 for n1 = n2 = 10: U of 23 or less (77 or more) is significant.
        List<Double> a = sample(10, 0);
        assertThat(RankSum.twoSidedP(a, sample(10, 100), 77)).isLessThan(RankSum.ALPHA);
        assertThat(RankSum.twoSidedP(a, sample(10, 100), 76)).isGreaterThan(RankSum.ALPHA);
        assertThat(RankSum.twoSidedP(a, sample(10, 100), 23)).isLessThan(RankSum.ALPHA);
        assertThat(RankSum.twoSidedP(a, sample(10, 100), 24)).isGreaterThan(RankSum.ALPHA);
    }

    @Test
    void shouldTellApartOnlyWhatTheRanksSupport() {
        // Three against three can never reach 5 % two-sided (at best 0.1); four against four can (0.029).
        assertThat(RankSum.above(List.of(4.0, 5.0, 6.0), List.of(1.0, 2.0, 3.0))).isFalse();
        assertThat(RankSum.above(List.of(5.0, 6.0, 7.0, 8.0), List.of(1.0, 2.0, 3.0, 4.0))).isTrue();
        assertThat(RankSum.above(List.of(1.0, 2.0, 3.0, 4.0), List.of(5.0, 6.0, 7.0, 8.0))).isFalse();
        // One slow value among ten: still above.
        List<Double> slowOnce = new ArrayList<>(sample(9, 300));
        slowOnce.add(1.0);
        assertThat(RankSum.u(slowOnce, sample(10, 100))).isEqualTo(90);
        assertThat(RankSum.above(slowOnce, sample(10, 100))).isTrue();
        // Everything equal: ties all round, nothing told apart.
        assertThat(RankSum.above(List.of(1.0, 1.0, 1.0, 1.0), List.of(1.0, 1.0, 1.0, 1.0))).isFalse();
        assertThat(RankSum.u(List.of(1.0, 2.0), List.of(1.0, 0.0))).isEqualTo(3.5);
    }

    @Test
    void shouldFallBackToTheNormalApproximationWithTiesOrLargeSamples() {
        assertThat(RankSum.upperNormalTail(1.959964)).isCloseTo(0.025, within(1e-6));
        assertThat(RankSum.upperNormalTail(0)).isCloseTo(0.5, within(1e-6));
        assertThat(RankSum.upperNormalTail(-1.959964)).isCloseTo(0.975, within(1e-6));
        // 40 against 40 (1,600 pairs, beyond the exact count), fully separated: far below 5 %.
        assertThat(RankSum.above(sample(40, 1_000), sample(40, 0))).isTrue();
        // With one tie the approximation decides: seven of eight above and a shared value.
        assertThat(RankSum.above(List.of(5.0, 6.0, 7.0, 8.0, 4.0), List.of(1.0, 2.0, 3.0, 4.0, 0.5))).isTrue();
    }

    private static List<Double> sample(int n, double from) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(from + i);
        }
        return values;
    }
}
