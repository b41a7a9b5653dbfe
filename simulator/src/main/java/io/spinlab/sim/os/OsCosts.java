package io.spinlab.sim.os;

import io.spinlab.model.machine.MachineProfile;

import java.util.Objects;

/**
 * What each operation of the OS model costs, in picoseconds of virtual time, derived once from
 * a {@link MachineProfile}. Immutable.
 *
 * <p>The table (see the simulator's class documentation for who pays what):
 * <ul>
 *   <li>{@code pause(n)}: {@link MachineProfile#pausePicos(long) n PAUSEs}, exactly;</li>
 *   <li>a clock read, an unpark and a park that consumes a permit: {@code clockReadNs},
 *       {@code atomicOpNs}, {@code atomicOpNs}; an unpark that finds its thread parked costs
 *       {@code wakeCallNs} more (the system call that wakes it);</li>
 *   <li>a yield: {@code yieldReadyNs} when another thread is ready (the switch to it),
 *       {@code yieldIdleNs} when none is;</li>
 *   <li>handing a processor from one thread to another (after a park, a sleep, a preemption or
 *       the end of a thread, when the run queue is not empty): {@code contextSwitchNs};</li>
 *   <li>from an unpark (or a timed park's timeout) to the thread being runnable:
 *       {@code wakeLatencyNs};</li>
 *   <li>a thread that parks is asleep only {@link #goingToSleepPicos() half a context switch}
 *       later: an unpark that reaches it before then finds it still on its way into the kernel,
 *       costs the waker one bare system call ({@code yieldIdleNs}, a call that switches nothing)
 *       instead of {@code wakeCallNs}, and the parker runs again one {@code contextSwitchNs}
 *       after its park (switched out and back in), without the wake latency;</li>
 *   <li>a timed sleep: rounded up to a whole number of {@code sleepGranularityNs};</li>
 *   <li>starting a thread: {@code contextSwitchNs} to the starter (the kernel's clone and
 *       enqueue are of that order).</li>
 * </ul>
 * Every scheduling point costs at least {@link #callFloorPicos() one core cycle}: a call is
 * at least an instruction, and a spin loop whose PAUSE costs nothing ({@code pauseCycles = 0})
 * must still let virtual time pass.
 */
public final class OsCosts {
    /*
     * Implementation notes
     *
     * Invariants: every figure is a non-negative long computed once with MachineProfile's exact
     * picosecond helpers, so the same profile gives the same costs on every host.
     *
     * Why a floor of one cycle, not zero: with pauseCycles = 0 a `while (!done) pause(1)` loop
     * would run forever at one instant, starving every timer. One cycle keeps the model honest
     * (a call is an instruction) and leaves the exact PAUSE figures of real profiles untouched,
     * since every other cost is at least a cycle there. Step budgets catch what remains.
     */

    private static final long PICOS_PER_NANO = 1_000L;

    private final MachineProfile machine;
    private final long picosPerPause;
    private final long callFloorPicos;
    private final long clockReadPicos;
    private final long atomicOpPicos;
    private final long contextSwitchPicos;
    private final long wakeLatencyPicos;
    private final long wakeCallPicos;
    private final long yieldReadyPicos;
    private final long yieldIdlePicos;
    private final long sleepGranularityPicos;
    private final long timeSlicePicos;
    /** One bytecode instruction in thousandths of a picosecond (see {@link #bytecodePicos}). */
    private final long bytecodeMilliPicos;
    /** One byte zeroed or copied, in thousandths of a picosecond (see {@link #storedBytesPicos}). */
    private final long storedByteMilliPicos;

    private OsCosts(MachineProfile machine) {
        this.machine = machine;
        this.picosPerPause = machine.picosPerPause();
        this.callFloorPicos = Math.max(1, machine.cyclesToPicos(1));
        this.clockReadPicos = MachineProfile.nanosToPicos(machine.clockReadNs());
        this.atomicOpPicos = MachineProfile.nanosToPicos(machine.atomicOpNs());
        this.contextSwitchPicos = MachineProfile.nanosToPicos(machine.contextSwitchNs());
        this.wakeLatencyPicos = MachineProfile.nanosToPicos(machine.wakeLatencyNs());
        this.wakeCallPicos = MachineProfile.nanosToPicos(machine.wakeCallNs());
        this.yieldReadyPicos = MachineProfile.nanosToPicos(machine.yieldReadyNs());
        this.yieldIdlePicos = MachineProfile.nanosToPicos(machine.yieldIdleNs());
        this.sleepGranularityPicos = Math.max(1, MachineProfile.nanosToPicos(machine.sleepGranularityNs()));
        this.timeSlicePicos = Math.max(1, MachineProfile.nanosToPicos(machine.timeSliceNs()));
        this.bytecodeMilliPicos = Math.round(machine.cyclesPerBytecode() * 1_000_000.0 / machine.frequencyGhz());
        this.storedByteMilliPicos = Math.round(1_000_000.0 / (machine.storeBytesPerCycle() * machine.frequencyGhz()));
    }

    /** The costs of {@code machine}. */
    public static OsCosts of(MachineProfile machine) {
        return new OsCosts(Objects.requireNonNull(machine, "machine"));
    }

    public MachineProfile machine() {
        return machine;
    }

    /** The least any scheduling point costs: one core cycle (at least 1 ps). */
    public long callFloorPicos() {
        return callFloorPicos;
    }

    /** {@code count} PAUSEs, exactly {@code count × picosPerPause}, but at least the call floor. */
    public long pausePicos(int count) {
        return atLeastFloor(Math.multiplyExact((long) count, picosPerPause));
    }

    /** One PAUSE, exactly as the profile rounds it. */
    public long picosPerPause() {
        return picosPerPause;
    }

    /** {@code picos} raised to the call floor. */
    public long atLeastFloor(long picos) {
        return Math.max(picos, callFloorPicos);
    }

    public long clockReadPicos() {
        return atLeastFloor(clockReadPicos);
    }

    public long atomicOpPicos() {
        return atLeastFloor(atomicOpPicos);
    }

    public long contextSwitchPicos() {
        return contextSwitchPicos;
    }

    public long wakeLatencyPicos() {
        return wakeLatencyPicos;
    }

    /**
     * How long after its park a thread is asleep: half of {@code contextSwitchNs}, the half of a
     * switch that takes the parker into the kernel and off its processor (a futex wait or a
     * kernel wait queues the thread, then switches away from it). Until then a wake-up needs no
     * interrupt to an idle processor and no exit from an idle state.
     */
    public long goingToSleepPicos() {
        return contextSwitchPicos / 2;
    }

    /** What the waker pays to wake one parked thread (the system call), at least the call floor. */
    public long wakeCallPicos() {
        return atLeastFloor(wakeCallPicos);
    }

    public long yieldReadyPicos() {
        return atLeastFloor(yieldReadyPicos);
    }

    public long yieldIdlePicos() {
        return atLeastFloor(yieldIdlePicos);
    }

    public long threadStartPicos() {
        return atLeastFloor(contextSwitchPicos);
    }

    public long sleepGranularityPicos() {
        return sleepGranularityPicos;
    }

    public long timeSlicePicos() {
        return timeSlicePicos;
    }

    /**
     * {@code count} executed bytecode instructions of guest code: {@code cyclesPerBytecode}
     * cycles each at the profile's clock, to the nearest picosecond (the per-instruction figure
     * is kept to a thousandth of a picosecond, so long runs of code do not drift).
     */
    public long bytecodePicos(long count) {
        return (Math.multiplyExact(count, bytecodeMilliPicos) + 500) / 1000;
    }

    /**
     * {@code bytes} zeroed (a new array) or copied ({@code System.arraycopy}) by guest code: one
     * cycle per {@code storeBytesPerCycle} bytes at the profile's clock, to the nearest picosecond
     * (the per-byte figure is kept to a thousandth of a picosecond).
     */
    public long storedBytesPicos(long bytes) {
        return (Math.multiplyExact(bytes, storedByteMilliPicos) + 500) / 1000;
    }

    /** A timed sleep of {@code nanos} (positive): rounded up to whole timer ticks; saturates. */
    public long sleepPicos(long nanos) {
        long picos = toPicos(nanos);
        long ticks = picos / sleepGranularityPicos + (picos % sleepGranularityPicos == 0 ? 0 : 1);
        return ticks > Long.MAX_VALUE / sleepGranularityPicos ? Long.MAX_VALUE : ticks * sleepGranularityPicos;
    }

    /** Nanoseconds to picoseconds, saturating at {@link Long#MAX_VALUE}. */
    public static long toPicos(long nanos) {
        if (nanos <= 0) {
            return 0;
        }
        return nanos > Long.MAX_VALUE / PICOS_PER_NANO ? Long.MAX_VALUE : nanos * PICOS_PER_NANO;
    }

    @Override
    public String toString() {
        return "OsCosts[" + machine.name() + ": pause=" + picosPerPause + "ps, floor=" + callFloorPicos
                + "ps, switch=" + contextSwitchPicos + "ps, wake=" + wakeLatencyPicos + "ps, slice="
                + timeSlicePicos + "ps]";
    }
}
