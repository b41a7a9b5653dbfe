package io.spinlab.reports.report;

import io.spinlab.sim.experiment.Experiment;

import java.util.List;

/**
 * The total line under a table of rows: the geometric mean of the left scores and of the right
 * scores, and their Δ %.
 *
 * <p>A geometric mean rather than a sum, so that every row's relative change weighs the same: the
 * rows of one table differ in scale by orders of magnitude (a latency row counts tens of
 * thousands of operations per ms, a drain-rate row tens), and a sum would be the largest rows'
 * Δ alone. Only measurable rows where both scores are positive enter the mean (a failed run has no score,
 * a not measurable row no rate, and a score of zero, which is not measurable, no logarithm);
 * {@link #excluded()} counts the others.
 *
 * @param rows       rows that entered the mean
 * @param excluded   rows left out: failed or not measurable
 * @param leftScore  geometric mean of the left scores; NaN when no row entered
 * @param rightScore geometric mean of the right scores; NaN when no row entered
 */
public record Total(int rows, int excluded, double leftScore, double rightScore) {

    /** The total of {@code rows}. */
    public static Total of(List<ReportRow> rows) {
        double leftLogs = 0;
        double rightLogs = 0;
        int counted = 0;
        for (ReportRow row : rows) {
            double left = row.result().leftScore();
            double right = row.result().rightScore();
            if (row.result().completed() && row.result().notMeasurable().isEmpty() && left > 0 && right > 0) {
                leftLogs += Math.log(left);
                rightLogs += Math.log(right);
                counted++;
            }
        }
        if (counted == 0) {
            return new Total(0, rows.size(), Double.NaN, Double.NaN);
        }
        return new Total(counted, rows.size() - counted, Math.exp(leftLogs / counted), Math.exp(rightLogs / counted));
    }

    /** (right − left) / left × 100 of the two means; NaN when no row entered. */
    public double deltaPercent() {
        return Experiment.deltaPercent(leftScore, rightScore);
    }
}
