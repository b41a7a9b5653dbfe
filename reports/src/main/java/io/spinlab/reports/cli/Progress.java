package io.spinlab.reports.cli;

import me.tongfei.progressbar.InteractiveConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;

/**
 * The progress of a long command on standard error: runs done of the total, elapsed time and
 * the estimate to completion, rendered by the progress-bar library (me.tongfei:progressbar).
 * Standard output is never touched, so {@code --json} stays clean.
 *
 * <p>On a terminal the bar redraws in place. Anywhere else (a CI log, a pipe, a test) it
 * prints the bar as one line whenever the count or the message has changed since the last line,
 * at most once a second, so a log shows the run's pace without a line per redraw. {@link #NONE} (from
 * {@code --quiet}) shows nothing.
 *
 * <pre>{@code
 * try (Progress progress = Progress.start(err, terminal, "reproduce", rows)) {
 *     ... progress.step("mres-proc-scaling 3/48");
 * }
 * }</pre>
 *
 * <p>Thread-safe: rows may finish on several threads at once.
 */
final class Progress implements AutoCloseable {

    /** Shows nothing. */
    static final Progress NONE = new Progress(null);

    /** Width of a line when standard error is not a terminal (a terminal gives its own width). */
    static final int LOG_LINE_WIDTH = 120;

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    /**
     * Starts showing the progress of {@code total} runs named {@code task}.
     *
     * @param err      where to show it (standard error)
     * @param terminal whether {@code err} is an interactive terminal (redraw in place)
     */
    static Progress start(PrintWriter err, boolean terminal, String task, long total) {
        if (total < 0) {
            throw new IllegalArgumentException("total = " + total + " is negative; allowed 0 or more");
        }
        ProgressBarBuilder builder = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setSpeedUnit(ChronoUnit.SECONDS).setUpdateIntervalMillis(terminal ? 200 : 1_000);
        if (terminal) {
            builder.setConsumer(new InteractiveConsoleProgressBarConsumer(System.err));
            return new Progress(builder.build());
        }
        LineConsumer lines = new LineConsumer(err);
        Progress progress = new Progress(builder.setStyle(ProgressBarStyle.ASCII).setConsumer(lines).build());
        lines.bar = progress.bar;
        return progress;
    }

    /** One run is done; {@code message} says which (shown beside the bar). */
    void step(String message) {
        if (bar != null) {
            bar.setExtraMessage(message);
            bar.step();
        }
    }

    /** Says what is going on without counting a run (e.g. "shrinking"). */
    void message(String message) {
        if (bar != null) {
            bar.setExtraMessage(message);
        }
    }

    /** Shows the final state and stops redrawing. */
    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }

    /** Writes the rendered bar as a whole line when the count or the message has changed since the last one. */
    static final class LineConsumer implements ProgressBarConsumer {
        private final PrintWriter err;
        private volatile ProgressBar bar;
        private long printedCount = -1;
        private String printedMessage = "";

        LineConsumer(PrintWriter err) {
            this.err = err;
        }

        @Override
        public int getMaxRenderedLength() {
            return LOG_LINE_WIDTH;
        }

        @Override
        public synchronized void accept(String rendered) {
            ProgressBar current = bar;
            long count = current == null ? 0 : current.getCurrent();
            String message = current == null ? "" : java.util.Objects.toString(current.getExtraMessage(), "");
            if (count != printedCount || !message.equals(printedMessage)) {
                printedCount = count;
                printedMessage = message;
                err.println(rendered.stripTrailing());
                err.flush();
            }
        }

        @Override
        public void close() {
            err.flush();
        }
    }
}
