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

    /** The distinct published sources of the rows and the total, in order of appearance. */
    public List<String> sources() {
        return Stream.concat(rows.stream().map(r -> r.result().published()),
                        publishedTotal.stream())
                .map(Published::source).filter(s -> !s.isEmpty()).distinct().toList();
    }
}
