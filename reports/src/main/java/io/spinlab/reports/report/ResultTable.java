package io.spinlab.reports.report;

import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.experiment.Verdict;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One table of a report, shaped like the published ones: rows with their left score, right
 * score and Δ Score %, and a total line under them, with the published total beside it where
 * one exists.
 *
 * @param machine        the machine every row ran on; empty when the rows span machines (a
 *                       what-if sweep), and the table then names the machine per row
 * @param rows           the rows, in report order
 * @param publishedTotal what was published about the total, if anything
 */
public record ResultTable(Optional<String> machine, List<ReportRow> rows, Optional<Published> publishedTotal) {

    public ResultTable {
        Objects.requireNonNull(machine, "machine");
        rows = List.copyOf(rows);
        Objects.requireNonNull(publishedTotal, "publishedTotal");
    }

    /** The total line. */
    public Total total() {
        return Total.of(rows);
    }

    /** How the total's Δ compares with the published total; {@link Verdict#NO_CLAIM} without one. */
    public Verdict totalVerdict() {
        Total total = total();
        if (total.rows() == 0) {
            return publishedTotal.isPresent() ? Verdict.FAILED : Verdict.NO_CLAIM;
        }
        return publishedTotal.map(p -> p.judge(total.deltaPercent())).orElse(Verdict.NO_CLAIM);
    }

    /**
     * The distinct published sources of the rows and the total, in order of appearance: a cited
     * claim as its citation with its address and note ({@code dotnet/coreclr #13556 (by kouvel,
     * 2017-08-25) https://… — note}), any other by its source text.
     */
    public List<String> sources() {
        return Stream.concat(rows.stream().map(r -> r.result().published()),
                        publishedTotal.stream())
                .map(ResultTable::sourceText).filter(s -> !s.isEmpty()).distinct().toList();
    }

    private static String sourceText(Published published) {
        return published.citation().map(c -> c.describe() + " " + c.url() + (c.note().isEmpty() ? "" : " — "
                + c.note())).orElse(published.source());
    }

    /** The distinct mechanisms of the disagreeing rows ({@link ReportRow#mechanism()}), in row order. */
    public List<String> mechanisms() {
        return rows.stream().flatMap(r -> r.mechanism().stream()).distinct().toList();
    }

    /** The 1-based number of {@code row}'s mechanism in {@link #mechanisms()}, or 0 when it has none. */
    public int mechanismNumber(ReportRow row) {
        return row.mechanism().map(m -> mechanisms().indexOf(m) + 1).orElse(0);
    }
}
