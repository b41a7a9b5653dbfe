package io.spinlab.model.machine;

import java.util.List;

/**
 * Named machine profiles: the machines of the published results
 * ({@code reference/published-results.md}) and the what-if parts people ask about.
 *
 * <p>Frequencies are base clocks: Intel's specified base clock of each named part (the clock a result names where it
 * names one), and for the unnamed server parts an estimate of their class; PAUSE costs follow Intel's
 * Optimization Reference Manual (about 10 cycles before Skylake, about 140 from Skylake on).
 * OS costs are the Linux-like defaults of {@link MachineProfile#builder(String)}, except for
 * the atomic operation (20 cycles at the part's clock), the cache-line transfer (a measured
 * core-to-core latency of the part's class; see the implementation notes), and the Windows
 * timer and quantum of
 * {@code windows-skylake-i7-6700}. The class documentation of {@link MachineProfile} says
 * where each figure comes from.
 *
 * <p>Scheduler rules ({@link OperatingSystem}): the published machines follow Windows' rules,
 * except the 2017 MacBook Pro, which ran macOS, whose scheduler spinlab does not model (it keeps
 * the Linux rules). The threads rarely state the operating system; the .NET team measured on
 * Windows, so Windows is an assumption for those machines, not a fact read in each thread. The
 * what-if parts follow Linux's rules. Their time slices and timers stay the Linux-like 4 ms and
 * 1.06 ms except on {@code windows-skylake-i7-6700}, which takes Windows' documented defaults
 * (15.625 ms tick, a client quantum of two ticks). Windows documents its quanta (two ticks on a
 * client, three times that for the foreground process, twelve on a server) and its default tick,
 * but which of them the published runs had is not known: whether the benchmark's process was in
 * the foreground, whether the machines ran a client or a server edition, and whether another
 * program had raised the timer to 1 ms, which before Windows 10 version 2004 held for every
 * process ({@link MachineProfile} cites each figure). The choice matters most where threads
 * outnumber processors: MresWaitDrainRate at 16 × processors under .NET Core 2.0 counted 26.6
 * operations per ms on {@code skylake-i7-6700} and 2.9 on {@code windows-skylake-i7-6700} (seed 1,
 * a 40 ms window after 10 ms; coreclr #13556 published 174), and a window that spans several
 * 31.25 ms quanta costs the simulator several times the 4 ms windows the experiments use.
 *
 * <table>
 *   <caption>Presets</caption>
 *   <tr><th>name</th><th>cores / threads</th><th>GHz</th><th>PAUSE cycles</th><th>PAUSE ns</th></tr>
 *   <tr><td>sandybridge-e5-1650</td><td>6 / 12</td><td>3.2</td><td>10</td><td>3.1</td></tr>
 *   <tr><td>skylake-i7-6700</td><td>4 / 8</td><td>3.4</td><td>140</td><td>41</td></tr>
 *   <tr><td>kabylake-e3-1245v6</td><td>4 / 8</td><td>3.7</td><td>140</td><td>38</td></tr>
 *   <tr><td>haswell-i5-4670k</td><td>4 / 4</td><td>3.4</td><td>10</td><td>2.9</td></tr>
 *   <tr><td>kabylake-i7-7700hq</td><td>4 / 8</td><td>2.8</td><td>140</td><td>50</td></tr>
 *   <tr><td>kabylake-i7-7700</td><td>4 / 8</td><td>3.6</td><td>140</td><td>39</td></tr>
 *   <tr><td>ivybridge-e7-4x12</td><td>48 / 96</td><td>2.7</td><td>10</td><td>3.7</td></tr>
 *   <tr><td>xeon-2s-32t</td><td>16 / 32</td><td>2.4</td><td>10</td><td>4.2</td></tr>
 *   <tr><td>future-pause-300</td><td>8 / 16</td><td>3.5</td><td>300</td><td>86</td></tr>
 *   <tr><td>arm-noop-pause</td><td>8 / 8</td><td>3.0</td><td>1</td><td>0.33</td></tr>
 *   <tr><td>manycore-256</td><td>128 / 256</td><td>2.5</td><td>140</td><td>56</td></tr>
 *   <tr><td>windows-skylake-i7-6700</td><td>4 / 8</td><td>3.4</td><td>140</td><td>41</td></tr>
 * </table>
 */
public final class MachinePresets {

    /*
     * Implementation notes
     *
     * Invariants: names are unique and ordered published machines first, then what-if parts;
     * the list is built once and immutable.
     *
     * Why arm-noop-pause charges 1 cycle, not 0: Arm's YIELD hint is a no-op on most cores
     * but still takes an issue slot, and a PAUSE that costs nothing would let a spin loop run
     * without virtual time passing. pauseCycles = 0 remains valid for what-if sweeps.
     */

    /** Cycles charged for an uncontended locked read-modify-write (Agner Fog's tables: 18–25). */
    private static final double ATOMIC_OP_CYCLES = 20;
    /*
     * Cache-line transfers: median core-to-core latencies measured with CAS ping-pong by the
     * core-to-core-latency tool (github.com/nviennot/core-to-core-latency, README at commit
     * 0dddf509): i7-6700K (Skylake) 20 ns, i5-4590 (Haswell) 21 ns; Xeon E5-2695 v4 (Broadwell-EP,
     * an 18-core ring) 44 ns on one socket and 118 ns between two; EPYC 7773X (64 cores) 115 ns.
     * A multi-socket preset charges 44 ns between two cores of one socket and 118 ns between
     * sockets (MachineProfile.sockets, crossSocketTransferNs), every remote socket one QPI hop
     * away: the 4-socket Ivy Bridge-EX links each socket to the three others directly.
     */
    /** Quad-core client ring (Skylake and Kaby Lake; Haswell measured 21 ns, Sandy Bridge-E taken as Haswell). */
    private static final double CLIENT_TRANSFER_NS = 20;
    /** Haswell client, i5-4590. */
    private static final double HASWELL_TRANSFER_NS = 21;
    /** Server ring within one socket, Xeon E5-2695 v4 (Broadwell-EP). */
    private static final double SERVER_SOCKET_TRANSFER_NS = 44;
    /** Between two sockets of the same Xeon E5-2695 v4, one QPI hop. */
    private static final double CROSS_SOCKET_TRANSFER_NS = 118;
    /** 128 cores: the largest single-socket part measured, EPYC 7773X, 115 ns. */
    private static final double MANYCORE_TRANSFER_NS = 115;
    /** Arm what-if: Apple M1 Pro's performance cluster, 40 ns (same tool). */
    private static final double ARM_TRANSFER_NS = 40;
    /*
     * Invalidations (MachineProfile.invalidationNs, an upgrade of a line the writer already shares):
     * no tool measures one alone; jcurl's core_latency (github.com/jcurl/code.research,
     * qnx/tools/core_latency.md at commit 0b52401a) measured on each of its machines both the
     * single-line CAS ping-pong of the transfers above and a two-line ping-pong in which each thread
     * waits by reading the other's line and then stores to its own: a hand-over to a spinning reader,
     * which the simulator charges as the writer's upgrade followed by the reader's miss (one
     * transfer). The difference is the upgrade: 0.32 of the CAS figure on a Core i3-2120T (Sandy
     * Bridge client), 0.52 on a Core 2 Duo T7700, 0.65 on a Core i7-4930K (Ivy Bridge-E) and 0.72 on
     * a Core i7-13850HX's performance cores. The x86 presets' parts were not measured both ways, so
     * they take the median, 0.59, of their own transfer; the Arm what-if takes the Cortex-A76's 0.18
     * (a Raspberry Pi 5; the Cortex-A72 of a Raspberry Pi 4 showed no difference at all).
     */
    /** An upgrade as a share of a transfer on the Intel parts measured both ways (median of 0.32, 0.52, 0.65, 0.72). */
    private static final double X86_INVALIDATION_SHARE = 0.59;
    /** The same share on a Cortex-A76. */
    private static final double ARM_INVALIDATION_SHARE = 0.18;
    private static final double CLIENT_INVALIDATION_NS = invalidation(CLIENT_TRANSFER_NS, X86_INVALIDATION_SHARE);
    private static final double HASWELL_INVALIDATION_NS = invalidation(HASWELL_TRANSFER_NS, X86_INVALIDATION_SHARE);
    private static final double SERVER_SOCKET_INVALIDATION_NS =
            invalidation(SERVER_SOCKET_TRANSFER_NS, X86_INVALIDATION_SHARE);
    private static final double MANYCORE_INVALIDATION_NS = invalidation(MANYCORE_TRANSFER_NS, X86_INVALIDATION_SHARE);
    private static final double ARM_INVALIDATION_NS = invalidation(ARM_TRANSFER_NS, ARM_INVALIDATION_SHARE);
    /*
     * Store width: the peak L1 store bandwidth per cycle, Intel's Optimization Reference Manual:
     * one 32-byte store per cycle from Haswell on, one 16-byte store per cycle on Sandy Bridge and
     * Ivy Bridge (a 256-bit store takes two). Parts not named there take the Haswell-class figure.
     */
    /** Sandy Bridge and Ivy Bridge: 16 bytes per cycle. */
    private static final double SANDY_IVY_STORE_BYTES = 16;
    /*
     * Clocks of named parts: the base frequency Intel specifies, the figure Windows names ("@ 3.70 GHz" in corert
     * #7569's Kaby Lake comment; the Xeon E5-1650, Core i7-6700, i7-7700 and i7-7700HQ presets have theirs). The
     * Core i5-4670K's is 3.4 GHz (Intel's specification: base 3.40 GHz, turbo up to 3.80 GHz; its brand string, which
     * Windows shows, reads "Intel(R) Core(TM) i5-4670K CPU @ 3.40GHz"). Until 2026-12-08 the preset had 4.4 GHz, a
     * figure no source named (this unlocked part can be overclocked, but corert #7569 names neither a clock nor
     * results for its Haswell machine).
     *
     * PAUSE before Skylake: "about 10 cycles" (Intel's Optimization Reference Manual, the Skylake section on PAUSE
     * latency). The .NET runtime's own measurement disagrees: coreclr's yieldprocessornormalized.cpp (comments added
     * in dotnet/coreclr #14739, 2017) measured "typically 14-17 cycles per yield" on pre-Skylake Intel parts and 8-9
     * PAUSEs per 37 ns normalized yield, which is what YieldProcessorNormalizedForPreSkylakeCount's divisor of 8
     * assumes. The presets keep the manual's figure; at 10 cycles a pre-Skylake part measures more PAUSEs per
     * normalized yield than the runtime's authors saw (13 on the Haswell preset), so the shim spins longer there.
     */
    /** Core i5-4670K base clock (Intel's specification). */
    private static final double HASWELL_I5_4670K_GHZ = 3.4;
    /** Windows default clock tick, 64 Hz. */
    private static final double WINDOWS_TIMER_NS = 15_625_000;
    /** Windows client quantum: two clock ticks. */
    private static final double WINDOWS_QUANTUM_NS = 31_250_000;

    private static final MachineProfile SKYLAKE_I7_6700 = part("skylake-i7-6700",
            "Core i7-6700, Skylake desktop: processor-scaled spin crawls here (coreclr #13556)",
            3.4, 140, 4, 8).os(OperatingSystem.WINDOWS).build();

    private static final List<MachineProfile> ALL = List.of(
            part("sandybridge-e5-1650",
                    "Xeon E5-1650, 6-core Sandy Bridge, pre-Skylake PAUSE: +50 % without the multiply (#13556)",
                    3.2, 10, 6, 12).cacheLineTransferNs(HASWELL_TRANSFER_NS).invalidationNs(HASWELL_INVALIDATION_NS)
                    .storeBytesPerCycle(SANDY_IVY_STORE_BYTES).os(OperatingSystem.WINDOWS).build(),
            SKYLAKE_I7_6700,
            part("kabylake-e3-1245v6",
                    "Xeon E3-1245 v6, Kaby Lake: normalized PAUSE in SpinWait measured here (corert #7569)",
                    3.7, 140, 4, 8).os(OperatingSystem.WINDOWS).build(),
            part("haswell-i5-4670k",
                    "Core i5-4670K, Haswell without SMT: normalized PAUSE close to neutral (corert #7569)",
                    HASWELL_I5_4670K_GHZ, 10, 4, 4).cacheLineTransferNs(HASWELL_TRANSFER_NS)
                    .invalidationNs(HASWELL_INVALIDATION_NS).os(OperatingSystem.WINDOWS).build(),
            part("kabylake-i7-7700hq",
                    "Core i7-7700HQ, 2017 MacBook Pro: lockless EventPipe reservation (runtime #50797)",
                    2.8, 140, 4, 8).build(),
            part("kabylake-i7-7700",
                    "Core i7-7700, desktop Kaby Lake: lockless EventPipe reservation (runtime #50797)",
                    3.6, 140, 4, 8).os(OperatingSystem.WINDOWS).build(),
            part("ivybridge-e7-4x12",
                    "4-socket Ivy Bridge Xeon E7, 48 cores: lockless EventPipe reservation (runtime #50797)",
                    2.7, 10, 48, 96).sockets(4).cacheLineTransferNs(SERVER_SOCKET_TRANSFER_NS)
                    .invalidationNs(SERVER_SOCKET_INVALIDATION_NS)
                    .crossSocketTransferNs(CROSS_SOCKET_TRANSFER_NS)
                    .storeBytesPerCycle(SANDY_IVY_STORE_BYTES).os(OperatingSystem.WINDOWS).build(),
            part("xeon-2s-32t",
                    "2-socket Xeon, 32 logical processors: ConcurrentQueue as global queue (coreclr #9234)",
                    2.4, 10, 16, 32).sockets(2).cacheLineTransferNs(SERVER_SOCKET_TRANSFER_NS)
                    .invalidationNs(SERVER_SOCKET_INVALIDATION_NS)
                    .crossSocketTransferNs(CROSS_SOCKET_TRANSFER_NS).os(OperatingSystem.WINDOWS)
                    .build(),
            part("future-pause-300",
                    "What-if: a future x86 part whose PAUSE takes 300 cycles",
                    3.5, 300, 8, 16).build(),
            part("arm-noop-pause",
                    "What-if: Arm-like part whose spin hint is a no-op (1 cycle), no SMT",
                    3.0, 1, 8, 8).cacheLineTransferNs(ARM_TRANSFER_NS).invalidationNs(ARM_INVALIDATION_NS).build(),
            part("manycore-256",
                    "What-if: 256 logical processors (128 cores, SMT 2), Skylake-class PAUSE",
                    2.5, 140, 128, 256).cacheLineTransferNs(MANYCORE_TRANSFER_NS)
                    .invalidationNs(MANYCORE_INVALIDATION_NS).build(),
            SKYLAKE_I7_6700.toBuilder()
                    .name("windows-skylake-i7-6700")
                    .description("Core i7-6700 under Windows: 15.625 ms timer tick, 31.25 ms quantum")
                    .sleepGranularityNs(WINDOWS_TIMER_NS)
                    .timeSliceNs(WINDOWS_QUANTUM_NS)
                    .build());

    private static final List<String> NAMES = ALL.stream().map(MachineProfile::name).toList();

    private MachinePresets() {
    }

    /** Every preset: the published machines first, then the what-if parts. */
    public static List<MachineProfile> all() {
        return ALL;
    }

    /** The preset names, in the order of {@link #all()}. */
    public static List<String> names() {
        return NAMES;
    }

    /** Whether {@code name} names a preset. */
    public static boolean contains(String name) {
        return NAMES.contains(name);
    }

    /**
     * The preset called {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid names
     */
    public static MachineProfile byName(String name) {
        for (MachineProfile profile : ALL) {
            if (profile.name().equals(name)) {
                return profile;
            }
        }
        throw new IllegalArgumentException("unknown machine preset '" + name + "'; valid presets: "
                + String.join(", ", NAMES));
    }

    private static MachineProfile.Builder part(String name, String description, double frequencyGhz,
            int pauseCycles, int physicalCores, int logicalProcessors) {
        return MachineProfile.builder(name)
                .description(description)
                .frequencyGhz(frequencyGhz)
                .pauseCycles(pauseCycles)
                .physicalCores(physicalCores)
                .logicalProcessors(logicalProcessors)
                .atomicOpNs(atomicNs(frequencyGhz))
                .cacheLineTransferNs(CLIENT_TRANSFER_NS).invalidationNs(CLIENT_INVALIDATION_NS);
    }

    /** An upgrade costing {@code share} of a transfer of {@code transferNs}, to a whole nanosecond. */
    private static double invalidation(double transferNs, double share) {
        return Math.round(transferNs * share);
    }

    /** {@link #ATOMIC_OP_CYCLES} at {@code frequencyGhz}, to a tenth of a nanosecond. */
    private static double atomicNs(double frequencyGhz) {
        return Math.round(ATOMIC_OP_CYCLES / frequencyGhz * 10) / 10.0;
    }
}
