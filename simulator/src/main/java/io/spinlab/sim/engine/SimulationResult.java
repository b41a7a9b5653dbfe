package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.memory.MemoryMetrics;
import io.spinlab.sim.trace.Picos;
import io.spinlab.sim.trace.RunMetrics;
import io.spinlab.sim.trace.TraceRecorder;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one simulated run produced: how it ended, the virtual time and steps it took, the
 * event-log digest (its determinism fact), the metrics, the trace if one was recorded, and a
 * report that says what reproduces it. Immutable except for the trace, which is finished.
 *
 * <p>Whether the memory model produced it is part of the result ({@link #memoryModel()}, the
 * reproduction line's {@code memory=on}): numbers from the two modes are not comparable.
 */
public final class SimulationResult {

    private final Outcome outcome;
    private final long endPicos;
    private final long steps;
    private final long handOffs;
    private final String digest;
    private final long digestEvents;
    private final RunMetrics metrics;
    private final String report;
    private final Optional<Throwable> failure;
    private final String reproduction;
    private final Optional<TraceRecorder> trace;
    private final MachineProfile machine;
    private final long seed;
    private final Faults faults;
    private final Optional<MemoryMetrics> memory;
    private final List<SchedulingPoint> schedulingPoints;

    SimulationResult(Outcome outcome, long endPicos, long steps, long handOffs, String digest, long digestEvents,
            RunMetrics metrics, String report, Optional<Throwable> failure, String reproduction,
            Optional<TraceRecorder> trace, MachineProfile machine, long seed, Faults faults,
            Optional<MemoryMetrics> memory, List<SchedulingPoint> schedulingPoints) {
        this.outcome = Objects.requireNonNull(outcome);
        this.endPicos = endPicos;
        this.steps = steps;
        this.handOffs = handOffs;
        this.digest = digest;
        this.digestEvents = digestEvents;
        this.metrics = metrics;
        this.report = report;
        this.failure = failure;
        this.reproduction = reproduction;
        this.trace = trace;
        this.machine = machine;
        this.seed = seed;
        this.faults = faults;
        this.memory = Objects.requireNonNull(memory);
        this.schedulingPoints = List.copyOf(schedulingPoints);
    }

    /**
     * The run's last scheduling points, oldest first, as many as
     * {@link Simulation.Builder#recordSchedulingPoints} asked for; empty when none were recorded.
     */
    public List<SchedulingPoint> schedulingPoints() {
        return schedulingPoints;
    }

    public Outcome outcome() {
        return outcome;
    }

    /** True if every simulated thread finished normally. */
    public boolean completed() {
        return outcome == Outcome.COMPLETED;
    }

    /** Virtual time of the run's last event, in picoseconds. */
    public long endPicos() {
        return endPicos;
    }

    /** Scheduling events processed. */
    public long steps() {
        return steps;
    }

    /** Times a simulated thread ran between two scheduling points (each is a hand-off to and from the engine). */
    public long handOffs() {
        return handOffs;
    }

    /** SHA-256 over the canonical event log, 64 hex digits: equal digests mean identical schedules. */
    public String digest() {
        return digest;
    }

    /** Events that went into the digest. */
    public long digestEvents() {
        return digestEvents;
    }

    public RunMetrics metrics() {
        return metrics;
    }

    /**
     * The run in words: outcome, time, steps, the problem if any, what every thread was doing
     * when a run did not complete (each parked thread with its blocker), and the reproduction line.
     */
    public String report() {
        return report;
    }

    /** The exception a simulated thread threw, if that ended the run. */
    public Optional<Throwable> failure() {
        return failure;
    }

    /** {@code machine=... <context> seed=... faults=...}: what reproduces this run. */
    public String reproduction() {
        return reproduction;
    }

    /** The recorded timeline, if the simulation was built with a trace. */
    public Optional<TraceRecorder> trace() {
        return trace;
    }

    public MachineProfile machine() {
        return machine;
    }

    public long seed() {
        return seed;
    }

    public Faults faults() {
        return faults;
    }

    /** True if the run had the memory model on: volatile and VarHandle accesses were costed scheduling points. */
    public boolean memoryModel() {
        return memory.isPresent();
    }

    /** The memory model's counts, present exactly when {@link #memoryModel()}. */
    public Optional<MemoryMetrics> memory() {
        return memory;
    }

    /**
     * This result if the run completed.
     *
     * @throws SimulationFailedException with the report (and the thread's exception as cause) otherwise
     */
    public SimulationResult requireCompleted() {
        if (!completed()) {
            throw new SimulationFailedException(this);
        }
        return this;
    }

    @Override
    public String toString() {
        return "SimulationResult[" + outcome + ", " + Picos.format(endPicos) + ", " + steps
                + " steps, memory model " + (memoryModel() ? "on" : "off") + ", digest " + digest.substring(0, 16)
                + "…]";
    }
}
