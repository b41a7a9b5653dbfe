package io.spinlab.sim.experiment;

import java.util.Collection;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * How many of a set of rows were measured as the measurement protocol asks — a window of at least
 * {@value Experiment#EXTENDED_WINDOW_SLICES} time slices, or scores settled within
 * ±{@value ExperimentRow#SETTLED_PERCENT} % over the seeds ({@link ExperimentRow#windowShortOfProtocol}) —
 * and how many verdicts rest on rows that were not.
 *
 * @param measured        completed, measurable rows whose parameters name a window (and whose machine's time
 *                        slice is known)
 * @param shortOfProtocol those of them short of the protocol
 * @param verdicts        rows that agree or disagree with a published direction
 * @param shortVerdicts   those of them short of the protocol
 */
public record WindowShortfall(int measured, int shortOfProtocol, int verdicts, int shortVerdicts) {

    /** The shortfall of {@code rows}, each judged against its machine's time slice, {@code timeSliceNanos}. */
    public static WindowShortfall of(Collection<ExperimentRow> rows, ToDoubleFunction<ExperimentRow> timeSliceNanos) {
        int measured = 0;
        int shortOfProtocol = 0;
        int verdicts = 0;
        int shortVerdicts = 0;
        for (ExperimentRow row : rows) {
            double slice = timeSliceNanos.applyAsDouble(row);
            boolean judged = slice > 0 && row.completed() && row.notMeasurable().isEmpty()
                    && row.windowNanos().isPresent();
            boolean isShort = judged && row.windowShortOfProtocol(slice).isPresent();
            boolean verdict = row.verdict() == Verdict.AGREES || row.verdict() == Verdict.DISAGREES;
            measured += judged ? 1 : 0;
            shortOfProtocol += isShort ? 1 : 0;
            verdicts += verdict ? 1 : 0;
            shortVerdicts += verdict && isShort ? 1 : 0;
        }
        return new WindowShortfall(measured, shortOfProtocol, verdicts, shortVerdicts);
    }

    /**
     * In words: {@code 67 of 189 measured rows ran under 10 time slices with a score not settled within
     * ±5 % over the seeds (the protocol asks for one or the other); 25 of the 94 verdicts that agree or
     * disagree rest on such rows}.
     */
    public String describe() {
        return String.format(Locale.ROOT, "%d of %d measured row%s ran under %d time slices with a score not "
                + "settled within ±%d %% over the seeds (the protocol asks for one or the other); %d of the %d "
                + "verdict%s that agree or disagree rest on such rows", shortOfProtocol, measured,
                measured == 1 ? "" : "s", Experiment.EXTENDED_WINDOW_SLICES, ExperimentRow.SETTLED_PERCENT,
                shortVerdicts, verdicts, verdicts == 1 ? "" : "s");
    }
}
