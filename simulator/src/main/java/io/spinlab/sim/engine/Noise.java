package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.os.OsCosts;

import java.util.function.LongUnaryOperator;

/**
 * A run's run-to-run noise, drawn from its own stream of the seed (so that turning noise on
 * leaves every other stream as it was): the wake latency within ± {@code wakeJitterPercent}, the
 * PAUSE and clock-read costs within ± {@code costJitterPercent} (and so the context switch that
 * brings back a thread unparked before it was asleep), a random phase of the processors'
 * timer ticks, so that slices do not all end at multiples of the slice after the run's start, and
 * of Linux's periodic balancing (how long before the run each processor last balanced). Where the
 * operating system's ticks are aligned (Linux: {@link io.spinlab.sim.os.SchedulingRules#alignsTicks})
 * the phase is one for the whole machine, else one per processor. With noise off every method
 * draws nothing (aligned ticks then fall at whole multiples of the slice). With the memory model on, noise also places each contended line's handover
 * anywhere within its transfer ({@link #handoverLegs}), from a stream of its own.
 */
final class Noise {
    /** The noise stream, or null with noise off. */
    private final SimRandom random;
    private final long wakeLatencyPicos;
    private final double wakeJitter;
    private final double costJitter;
    private final long timeSlicePicos;
    /** Whether every processor's ticks fall on one grid (Linux), else each has its own phase. */
    private final boolean alignedTicks;
    /** Processors whose first slice still has to be put on their ticks. */
    private final boolean[] pendingPhase;
    /** Where the aligned ticks fall, ps after a multiple of the slice; -1 until the first dispatch draws it. */
    private long tickPhase = -1;

    /**
     * @param alignedTicks whether all processors tick at the same instants
     * @param random the noise stream, or null for a run without noise
     */
    Noise(MachineProfile machine, OsCosts costs, boolean alignedTicks, SimRandom random) {
        this.random = random;
        this.wakeLatencyPicos = costs.wakeLatencyPicos();
        this.wakeJitter = machine.wakeJitterPercent() / 100;
        this.costJitter = machine.costJitterPercent() / 100;
        this.timeSlicePicos = costs.timeSlicePicos();
        this.alignedTicks = alignedTicks;
        this.pendingPhase = new boolean[machine.logicalProcessors()];
        java.util.Arrays.fill(pendingPhase, true);
    }

    /**
     * The request legs of a run with noise, for {@link io.spinlab.sim.memory.MemoryModel}: each a
     * uniform draw from {@code stream} over the whole transfer, {@code [0, transfer]} picoseconds,
     * so that the holder of a line loses it anywhere between the request and the data's arrival
     * (the midpoint on average, which is where a run without noise puts it).
     */
    static LongUnaryOperator handoverLegs(SimRandom stream) {
        return transfer -> transfer <= 0 ? 0 : stream.nextLong(transfer + 1);
    }

    boolean on() {
        return random != null;
    }

    /** One wake-up's latency: the machine's, jittered. */
    long wakeLatency() {
        return jittered(wakeLatencyPicos, wakeJitter);
    }

    /** A PAUSE batch's, clock read's or context switch's cost of {@code picos}, jittered. */
    long cost(long picos) {
        return jittered(picos, costJitter);
    }

    /**
     * When processor {@code p}'s slice that begins at {@code begin} is taken to have started:
     * {@code begin} itself, except for the first slice on each processor. With aligned ticks that
     * one starts at the machine's last tick at or before {@code begin}; otherwise, with noise on, it
     * ends anywhere within one slice (a phase of the processor's own).
     */
    long sliceStart(int p, long begin) {
        if (!pendingPhase[p]) {
            return begin;
        }
        pendingPhase[p] = false;
        if (alignedTicks) {
            return tickAtOrBefore(begin);
        }
        return random == null ? begin : begin - random.nextLong(timeSlicePicos);
    }

    /**
     * The machine's last aligned tick at or before {@code time}: ticks fall a slice apart at a
     * phase drawn once per run with noise on (at the first call), at whole slices without noise.
     */
    private long tickAtOrBefore(long time) {
        if (tickPhase < 0) {
            tickPhase = random == null ? 0 : random.nextLong(timeSlicePicos);
        }
        return tickPhase + Math.floorDiv(time - tickPhase, timeSlicePicos) * timeSlicePicos;
    }

    /**
     * How many of its {@code ticks} ticks ago a timer that has run since before the simulation
     * last fired: uniform in {@code [0, ticks)} with noise on (Linux's balancing, which runs from
     * boot), 0 without noise.
     */
    long ticksAgo(long ticks) {
        return random == null || ticks <= 1 ? 0 : random.nextLong(ticks);
    }

    /**
     * {@code picos} times a uniform draw in [1 − fraction, 1 + fraction] (rounded to the
     * picosecond, never negative); {@code picos} itself with noise off.
     */
    private long jittered(long picos, double fraction) {
        if (random == null || fraction == 0 || picos == 0) {
            return picos;
        }
        double factor = 1 + fraction * (2 * random.nextDouble() - 1);
        return Math.max(0, Math.round(picos * factor));
    }
}
