package io.spinlab.sim.engine;

import io.spinlab.sim.os.Processor;
import io.spinlab.sim.os.Scheduler;
import io.spinlab.sim.os.ThreadState;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.BlockerMetrics;
import io.spinlab.sim.trace.MeasuredWindow;
import io.spinlab.sim.trace.Picos;
import io.spinlab.sim.trace.ProcessorMetrics;
import io.spinlab.sim.trace.RunMetrics;
import io.spinlab.sim.trace.ThreadMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the {@link Engine} hands back about a finished run besides its outcome: the text report
 * (with every thread's state when the run did not complete) and the metrics of threads,
 * processors and blockers, time still open at the end included. Reads the engine's state; changes
 * nothing, so it cannot reach the event order or the digest.
 */
final class RunSummary {

    private RunSummary() {
    }

    /** The run's report: outcome, time and steps, the problem, each thread's state unless completed, how to reproduce. */
    static String report(Outcome outcome, long now, long steps, String problem, List<SimThread> threads,
            BlockerTable blockers, SimThread blockedOutside, String reproduction) {
        StringBuilder out = new StringBuilder();
        out.append("simulation ").append(outcome.name().toLowerCase(Locale.ROOT).replace('_', ' '))
                .append(" at t=").append(Picos.format(now)).append(" after ").append(steps).append(" steps");
        if (problem != null) {
            out.append(": ").append(problem);
        }
        out.append('\n');
        if (outcome != Outcome.COMPLETED) {
            out.append("threads:\n");
            for (SimThread t : threads) {
                out.append("  ").append(describe(t, blockers, blockedOutside)).append('\n');
            }
        }
        out.append("reproduce: ").append(reproduction);
        return out.toString();
    }

    private static String describe(SimThread t, BlockerTable blockers, SimThread blockedOutside) {
        StringBuilder line = new StringBuilder("'").append(t.name).append("' ");
        switch (t.state) {
            case DONE -> line.append(t.failure == null ? "done" : "failed: " + t.failure);
            case RUNNING -> line.append("running on cpu").append(t.processor);
            case RUNNABLE -> line.append(t.heldOff ? "preempted (injected)" : "runnable, waiting for a processor");
            case SLEEPING -> line.append("sleeping since ").append(Picos.format(t.stateSince));
            case PARKED -> {
                BlockerStats stats = blockers.get(t.blockerId);
                line.append("parked on ").append(stats.name).append(" (").append(safeToString(stats.blocker))
                        .append(") since ").append(Picos.format(t.stateSince));
            }
        }
        if (t.spinBlockerId >= 0) {
            line.append(", spin-waiting on ").append(blockers.get(t.spinBlockerId).name).append(" since ")
                    .append(Picos.format(t.spinSince));
        }
        if (t == blockedOutside) {
            line.append(", blocked outside the Platform");
        }
        return line.toString();
    }

    private static String safeToString(Object o) {
        try {
            return String.valueOf(o);
        } catch (RuntimeException e) {
            return o.getClass().getName() + " (toString threw " + e + ")";
        }
    }

    /**
     * The run's metrics at virtual time {@code now}: each thread's time per activity (a thread not
     * running at the end is charged its current state up to {@code now}), each processor's busy and
     * switching time, and each blocker's waits (spin waits still open counted up to {@code now}).
     */
    static RunMetrics metrics(long now, long steps, List<SimThread> threads, Scheduler scheduler,
            BlockerTable blockers, Optional<MeasuredWindow> window) {
        List<ThreadMetrics> threadMetrics = new ArrayList<>(threads.size());
        for (SimThread t : threads) {
            long end = t.endPicos >= 0 ? t.endPicos : now;
            long[] picos = t.activityPicos.clone();
            if (t.state != ThreadState.DONE && t.state != ThreadState.RUNNING && now > t.stateSince) {
                Activity pending = switch (t.state) {
                    case PARKED -> Activity.PARKED;
                    case SLEEPING -> Activity.SLEEPING;
                    default -> Activity.RUNNABLE;
                };
                picos[pending.ordinal()] += now - t.stateSince;
            }
            threadMetrics.add(new ThreadMetrics(t.name, t.startPicos, end, picos, t.contextSwitches, t.wakeUps,
                    t.spuriousWakeUps, t.preemptions, t.state));
        }
        List<ProcessorMetrics> processorMetrics = new ArrayList<>();
        for (Processor p : scheduler.processors()) {
            processorMetrics.add(new ProcessorMetrics(p.index(), p.busyPicos(), p.switchPicos(), now));
        }
        long[] openSpinWaitPicos = new long[blockers.all().size()];
        for (SimThread t : threads) {
            if (t.spinBlockerId >= 0 && t.state != ThreadState.DONE) {
                openSpinWaitPicos[t.spinBlockerId] += now - t.spinSince;
            }
        }
        List<BlockerMetrics> blockerMetrics = new ArrayList<>();
        for (BlockerStats b : blockers.all()) {
            blockerMetrics.add(b.metrics(openSpinWaitPicos[b.id]));
        }
        return new RunMetrics(now, steps, threadMetrics, processorMetrics, blockerMetrics, window);
    }
}
