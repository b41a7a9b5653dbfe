package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.os.OsCosts;
import io.spinlab.sim.os.Scheduler;

import java.util.List;

/**
 * The instruction clock: the time a simulated thread spends in its own code between two
 * scheduling points. Guest code counts what it executes into its {@link SimThread} as it runs
 * (bytecode instructions, bytes zeroed by allocation or copied by {@code System.arraycopy}; see
 * {@link GuestHooks}); at the next scheduling point the engine drains the count here into
 * picoseconds of working time, charged before that point's own cost.
 *
 * <p>Prices: {@code cyclesPerBytecode} per instruction and {@code storeBytesPerCycle} for stored
 * bytes ({@link OsCosts#bytecodePicos}, {@link OsCosts#storedBytesPicos}). On a part with SMT the
 * drained time is stretched by the sibling logical processors of the thread's core as they are at
 * that instant: {@code work × (1 + (smtSlowdown − 1) × b)}, where b is the mean over the siblings
 * of how busy each keeps the core's issue slots: 0 idle, 1 running anything but PAUSEs, and in a
 * PAUSE batch the share of a PAUSE loop spent issuing its own instructions,
 * {@code SPIN_LOOP_ISSUE_CYCLES / (SPIN_LOOP_ISSUE_CYCLES + pauseCycles)}: a 140-cycle PAUSE leaves
 * the core to the other thread, a 10-cycle one much less so. The stretch is fixed when the work
 * starts, not re-priced when a sibling changes state during it.
 */
final class InstructionClock {
    /**
     * Cycles a PAUSE loop spends issuing its own instructions per PAUSE (the JIT's increment,
     * compare and branch around the PAUSE, which fuse into about two cycles of issue). An
     * estimate; it sets how much a spinning SMT sibling slows the other.
     */
    private static final double SPIN_LOOP_ISSUE_CYCLES = 2;

    private final OsCosts costs;
    private final Scheduler scheduler;
    /** The engine's threads, by index: the siblings' threads are looked up here. */
    private final List<SimThread> threads;
    /** See MachineProfile.smtSlowdown; 1 on parts with one thread per core. */
    private final double smtSlowdown;
    /** How busy a sibling in a PAUSE batch keeps the core, 0..1. */
    private final double pausingSiblingBusy;

    InstructionClock(MachineProfile machine, OsCosts costs, Scheduler scheduler, List<SimThread> threads) {
        this.costs = costs;
        this.scheduler = scheduler;
        this.threads = threads;
        this.smtSlowdown = machine.smtThreadsPerCore() > 1 ? machine.smtSlowdown() : 1;
        this.pausingSiblingBusy = SPIN_LOOP_ISSUE_CYCLES / (SPIN_LOOP_ISSUE_CYCLES + machine.pauseCycles());
    }

    /** Takes what {@code t} counted since its last scheduling point: the picoseconds it worked, as of {@code now}. */
    long drain(SimThread t, long now) {
        long work = 0;
        if (t.pendingInstructions != 0) {
            work = costs.bytecodePicos(t.pendingInstructions);
            t.pendingInstructions = 0;
        }
        if (t.pendingStoredBytes != 0) {
            work += costs.storedBytesPicos(t.pendingStoredBytes);
            t.pendingStoredBytes = 0;
        }
        if (work > 0 && smtSlowdown > 1) {
            work = withSiblings(t.processor, work, now);
        }
        return work;
    }

    /** {@code work} ps of instructions on processor {@code p}, stretched by its core's siblings as they are at {@code now}. */
    private long withSiblings(int p, long work, long now) {
        int perCore = scheduler.threadsPerCore();
        int first = scheduler.firstOfCore(p);
        double busy = 0;
        for (int q = first; q < first + perCore; q++) {
            if (q == p || scheduler.isIdle(q)) {
                continue;
            }
            SimThread sibling = threads.get(scheduler.processor(q).thread());
            busy += sibling.pauseEndPicos > now ? pausingSiblingBusy : 1;
        }
        if (busy == 0) {
            return work;
        }
        double factor = 1 + (smtSlowdown - 1) * busy / (perCore - 1);
        return Math.round(work * factor);
    }
}
