package io.spinlab.reports.report;

import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.experiment.Spread;
import io.spinlab.sim.experiment.Verdict;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/** How numbers, published claims and verdicts read in every report format: one place, one spelling. */
public final class Format {

    private Format() {
    }

    /** A score, ops per ms, one decimal; {@code failed} for a run that did not complete (NaN). */
    public static String score(double value) {
        return Double.isNaN(value) ? "failed" : String.format(Locale.ROOT, "%.1f", value);
    }

    /** A Δ %, signed, one decimal; {@code n/a} when it has no value (NaN, or a left score of 0). */
    public static String percent(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "n/a" : String.format(Locale.ROOT, "%+.1f", value);
    }

    /**
     * A row's Δ %, with the 95 % interval of its per-seed Δ when it ran over two or more seeds:
     * {@code +12.3 [-4.0, +28.6]}; just {@code +12.3} with one seed.
     */
    public static String delta(ExperimentRow row) {
        if (row.notMeasurable().isPresent()) {
            return "n/a";
        }
        String text = percent(row.deltaPercent());
        return row.deltaSpread().map(s -> text + " [" + percent(s.low95()) + ", " + percent(s.high95()) + "]")
                .orElse(text);
    }

    /**
     * A row's score on one side, with the range over its seeds when they differ: {@code 123.4 (118.0–130.2)};
     * for a side that counted too few operations to make a score, what it counted instead:
     * {@code too few: 17 operations}.
     */
    public static String score(ExperimentRow row, boolean left) {
        if (row.countedTooFew(left)) {
            return "too few: " + row.counted(left);
        }
        double median = left ? row.leftScore() : row.rightScore();
        Optional<Spread> spread = left ? row.leftSpread() : row.rightSpread();
        String text = score(median);
        return spread.filter(s -> s.values().size() > 1 && s.max() > s.min())
                .map(s -> text + " (" + score(s.min()) + "–" + score(s.max()) + ")").orElse(text);
    }

    /**
     * CPU time per operation of both sides, {@code 412 → 380} (ns), from the rows' {@code
     * cpuNanosPerOp} metric (of the seed whose Δ is the median); empty when a side lacks it, and
     * {@code –} for a side that counted too few operations to make a score.
     */
    public static String cpuPerOp(ExperimentRow row) {
        Double left = row.leftMetrics().get(io.spinlab.sim.experiment.Experiment.CPU_NANOS_PER_OP);
        Double right = row.rightMetrics().get(io.spinlab.sim.experiment.Experiment.CPU_NANOS_PER_OP);
        if (left == null || right == null) {
            return "";
        }
        return cpuSide(row, true, left) + " → " + cpuSide(row, false, right);
    }

    private static String cpuSide(ExperimentRow row, boolean left, double nanos) {
        return row.countedTooFew(left) ? "–" : String.format(Locale.ROOT, "%.0f", nanos);
    }

    /** A published claim: its Δ % where a figure exists, else its direction in words; empty for none. */
    public static String published(Published published) {
        String claim;
        if (published.deltaPercent().isPresent()) {
            claim = percent(published.deltaPercent().getAsDouble());
        } else {
            claim = switch (published.direction()) {
                case NONE -> "";
                case RIGHT_BETTER -> "better";
                case NOT_WORSE -> "not worse";
                case RIGHT_WORSE -> "worse";
                case NEUTRAL -> "neutral";
            };
        }
        if (published.leftPerMs().isEmpty()) {
            return claim;
        }
        return claim + " (left " + score(published.leftPerMs().getAsDouble()) + ")";
    }

    /** The lead of the sentence on published left scores (summaries of stdout, README.md, index.html). */
    public static final String LEVELS_LEAD = "Left scores against the published ones, per row whose source printed "
            + "its left score alone (simulated ÷ published, per ms): ";

    /** A verdict in words: {@code agrees}, {@code disagrees}, {@code no claim}, {@code not measurable}, {@code failed}. */
    public static String verdict(Verdict verdict) {
        return verdict.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** Verdict counts as {@code 19 agrees, 2 disagrees, 27 no claim}; {@code no rows} when empty. */
    public static String verdictCounts(Map<Verdict, Integer> counts) {
        if (counts.isEmpty()) {
            return "no rows";
        }
        StringJoiner joiner = new StringJoiner(", ");
        counts.forEach((verdict, n) -> joiner.add(n + " " + verdict(verdict)));
        return joiner.toString();
    }

    /**
     * What a total line totals: {@code geometric mean of 6 rows}, with how many rows were left
     * out when some were ({@code geometric mean of 15 rows, leaving out 9 not measurable or failed}).
     */
    public static String mean(Total total) {
        StringBuilder text = new StringBuilder("geometric mean of ").append(rows(total.rows()));
        if (total.excluded() > 0) {
            text.append(", leaving out ").append(total.excluded()).append(" not measurable or failed");
        }
        return text.toString();
    }

    /** A total's score: as {@link #score}, but {@code n/a} when no row entered the total. */
    public static String totalScore(Total total, double value) {
        return total.rows() == 0 ? "n/a" : score(value);
    }

    private static String rows(int n) {
        return n == 1 ? "1 row" : n + " rows";
    }

    /** A count of events or operations, with thousands separators: {@code 1,932}. */
    public static String count(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%,.0f", value);
    }
}
