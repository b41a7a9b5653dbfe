package io.spinlab.sim.trace;

import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * The facts of one simulated run: per thread, per processor, per blocker. Immutable. The
 * simulator only reports; judging the numbers is for properties and tests.
 *
 * @param elapsedPicos virtual time from the start of the run to its last event
 * @param steps        scheduling events processed
 * @param window       the processor time inside the window the run's harness measured, if it
 *                     announced one
 */
public record RunMetrics(long elapsedPicos, long steps, List<ThreadMetrics> threads,
                         List<ProcessorMetrics> processors, List<BlockerMetrics> blockers,
                         Optional<MeasuredWindow> window) {

    public RunMetrics {
        threads = List.copyOf(threads);
        processors = List.copyOf(processors);
        blockers = List.copyOf(blockers);
        Objects.requireNonNull(window, "window");
    }

    /** A run whose harness announced no measured window. */
    public RunMetrics(long elapsedPicos, long steps, List<ThreadMetrics> threads, List<ProcessorMetrics> processors,
            List<BlockerMetrics> blockers) {
        this(elapsedPicos, steps, threads, processors, blockers, Optional.empty());
    }

    /** The thread named {@code name} (the first, if several share it). */
    public ThreadMetrics thread(String name) {
        Objects.requireNonNull(name, "name");
        for (ThreadMetrics t : threads) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new NoSuchElementException("no simulated thread named '" + name + "'; threads: "
                + threads.stream().map(ThreadMetrics::name).toList());
    }

    /** The blocker described as {@code name}, e.g. {@code ManualResetEvent#0}. */
    public BlockerMetrics blocker(String name) {
        for (BlockerMetrics b : blockers) {
            if (b.name().equals(name)) {
                return b;
            }
        }
        throw new NoSuchElementException("no blocker '" + name + "'; blockers: "
                + blockers.stream().map(BlockerMetrics::name).toList());
    }

    /**
     * The mean number of threads spin-waiting on blocker {@code name} over the whole run: their
     * summed waiting time divided by the run's elapsed time; 0 for a blocker never spin-waited on.
     */
    public double meanSpinWaiters(String name) {
        return elapsedPicos == 0 ? 0 : (double) blocker(name).totalSpinWaitPicos() / elapsedPicos;
    }

    /** Picoseconds in {@code activity} summed over all threads. */
    public long totalPicos(Activity activity) {
        return threads.stream().mapToLong(t -> t.picos(activity)).sum();
    }

    /** Context switches summed over all threads. */
    public long totalContextSwitches() {
        return threads.stream().mapToLong(ThreadMetrics::contextSwitches).sum();
    }

    /** Mean processor utilization, 0..1. */
    public double meanUtilization() {
        return processors.stream().mapToDouble(ProcessorMetrics::utilization).average().orElse(0);
    }

    /** A plain-text table: one line per thread, processor summary, one line per blocker. */
    public String table() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "run: %s virtual, %d steps, mean utilization %.1f %%%n",
                Picos.format(elapsedPicos), steps, 100 * meanUtilization()));
        out.append(String.format(Locale.ROOT, "%-20s", "thread"));
        for (Activity a : Activity.values()) {
            out.append(String.format(Locale.ROOT, " %12s", a.label() + " ms"));
        }
        out.append(String.format(Locale.ROOT, " %9s %8s %8s%n", "switches", "wakeups", "preempt"));
        for (ThreadMetrics t : threads) {
            out.append(String.format(Locale.ROOT, "%-20s", t.name()));
            for (Activity a : Activity.values()) {
                out.append(String.format(Locale.ROOT, " %12.6f", Picos.toMillis(t.picos(a))));
            }
            out.append(String.format(Locale.ROOT, " %9d %8d %8d%n", t.contextSwitches(), t.wakeUps(),
                    t.preemptions()));
        }
        for (ProcessorMetrics p : processors) {
            out.append(String.format(Locale.ROOT, "cpu%-4d busy %.1f %%, switching %s%n", p.index(),
                    100 * p.utilization(), Picos.format(p.switchPicos())));
        }
        for (BlockerMetrics b : blockers) {
            out.append(String.format(Locale.ROOT, "blocker %-28s waits %8d, waited %s, max waiters %d", b.name(),
                    b.waits(), Picos.format(b.totalWaitPicos()), b.maxWaiters()));
            if (b.spinWaits() > 0) {
                out.append(String.format(Locale.ROOT, "; spin waits %d, spun %s, max spinners %d", b.spinWaits(),
                        Picos.format(b.totalSpinWaitPicos()), b.maxSpinWaiters()));
            }
            out.append(System.lineSeparator());
        }
        return out.toString();
    }
}
