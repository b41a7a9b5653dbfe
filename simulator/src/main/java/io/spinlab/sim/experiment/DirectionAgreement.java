package io.spinlab.sim.experiment;

import java.util.Collection;
import java.util.Locale;

/**
 * How many of a set of rows with a verdict on the published direction agree with it: the share
 * {@code reproduce} is judged by, with Wilson's 95 % interval, so that 47 of 94 reads as what it is (a
 * share that a coin would reach as often) and not as "about half right".
 *
 * @param agree   rows whose verdict is {@link Verdict#AGREES}
 * @param decided rows whose verdict is {@link Verdict#AGREES} or {@link Verdict#DISAGREES}
 */
public record DirectionAgreement(int agree, int decided) {

    public DirectionAgreement {
        if (agree < 0 || agree > decided) {
            throw new IllegalArgumentException(agree + " of " + decided + " agree; allowed 0 <= agree <= decided");
        }
    }

    /** The agreement of {@code rows}: neutral, claimless, unmeasurable and failed rows do not count. */
    public static DirectionAgreement of(Collection<ExperimentRow> rows) {
        int agree = 0;
        int decided = 0;
        for (ExperimentRow row : rows) {
            if (row.verdict() == Verdict.AGREES) {
                agree++;
                decided++;
            } else if (row.verdict() == Verdict.DISAGREES) {
                decided++;
            }
        }
        return new DirectionAgreement(agree, decided);
    }

    /** The share that agree, in [0, 1]; NaN without a decided row. */
    public double share() {
        return decided == 0 ? Double.NaN : (double) agree / decided;
    }

    /**
     * Wilson's 95 % interval of {@link #share()}, the rows taken as independent trials; they are not quite
     * (rows of one machine and workload share their mechanism), so the true interval is somewhat wider.
     */
    public ConfidenceInterval interval() {
        return ConfidenceInterval.wilson(agree, decided);
    }

    /** In words: {@code 47 of 94 agree (50 %, 95 % interval 40–60 %)}, or {@code none agrees or disagrees}. */
    public String describe() {
        if (decided == 0) {
            return "none agrees or disagrees";
        }
        return String.format(Locale.ROOT, "%d of %d agree (%.0f %%, 95 %% interval %s)", agree, decided,
                100 * share(), interval().formatPercent());
    }
}
