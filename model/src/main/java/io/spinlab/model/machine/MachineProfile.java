package io.spinlab.model.machine;

import java.util.Objects;

/**
 * The CPU and OS costs the simulator charges: what one PAUSE costs on this machine, how many
 * processors the primitives see, and what clock reads, atomics, cache-line transfers, context
 * switches, wake-ups, yields and sleeps cost. Immutable; every instance is valid.
 *
 * <p>Times are in nanoseconds as {@code double}s (the simulator converts them to its
 * picosecond clock with {@link #nanosToPicos(double)}); only the PAUSE is in cycles, because
 * its cost in cycles is what changed between CPU generations, and {@link #frequencyGhz}
 * turns it into time. Costs in nanoseconds do not follow a change of frequency.
 *
 * <p>Get one from {@link MachinePresets}, from a profile file (the simulator's
 * {@code MachineProfileFiles}), or build one: {@code MachineProfile.builder("mine")} starts
 * from Linux-like defaults on a generic 4-core, 8-thread, 3 GHz part with a 140-cycle PAUSE.
 * What-if sweeps vary one field at a time with {@link #withField(String, String)}.
 *
 * <p>An invalid value is rejected with an {@link IllegalArgumentException} whose message
 * names the machine, the field as files spell it, the value and the allowed range, e.g.
 * {@code machine 'x': pauseCycles = -3 is out of range; allowed 0..10000}. The ranges are
 * listed in {@link MachineField}.
 *
 * <p>Where the default figures come from (all are per-operation averages; the ones without a
 * measurement behind them are reasoned estimates and say so):
 * <ul>
 *   <li>PAUSE: Intel's Optimization Reference Manual, "Pause Latency in Skylake
 *       Microarchitecture": about 10 cycles on earlier parts, up to about 140 from Skylake on.</li>
 *   <li>Clock read, 20 ns: {@code System.nanoTime} is {@code clock_gettime(CLOCK_MONOTONIC)}
 *       through the vDSO reading the TSC, measured at 15–25 ns (Shipilëv, "Nanotrusting the
 *       Nanotime").</li>
 *   <li>Atomic read-modify-write, about 20 cycles: Agner Fog's instruction tables give a
 *       locked {@code CMPXCHG}/{@code XADD} 18–25 cycles on Intel big cores, so presets charge
 *       20 cycles at their clock (about 6 ns at 3.4 GHz).</li>
 *   <li>Cache-line transfer, 20 ns on a quad-core client part: the median core-to-core latency
 *       (CAS ping-pong, one way) measured on an i7-6700K by the core-to-core-latency tool
 *       (github.com/nviennot/core-to-core-latency); 21 ns on Haswell, 44 ns on an 18-core
 *       Broadwell-EP ring, 118 ns between two of its sockets. {@link MachinePresets} says which
 *       figure each preset takes. A multi-socket part charges the within-socket figure between two
 *       cores of one socket and {@code crossSocketTransferNs} (118 ns by default, the Broadwell-EP
 *       measurement) when the line comes from, or must be taken from, a core on another socket.</li>
 *   <li>Invalidation, 12 ns beside a 20 ns transfer: a store or read-modify-write by a core that
 *       already holds a shared copy of the line needs no data, only the other copies invalidated. No
 *       tool measures that alone. jcurl's core_latency (github.com/jcurl/code.research,
 *       {@code qnx/tools/core_latency.md} at commit 0b52401a) measured, on the same machines, the CAS
 *       ping-pong that gives the transfers above and a ping-pong in which each thread waits by reading
 *       the other's line and then stores to its own, a hand-over to a spinning reader: the writer's
 *       upgrade, then the reader's miss. The second took 12.5 ns longer on a Core i3-2120T (38.5 against
 *       51 ns), about 20 ns on a Core i7-4930K (31 against 51), about 26 ns on a Core i7-13850HX's
 *       performance cores (36 against 62) and 37.5 ns on a Core 2 Duo T7700 (72.5 against 110): 0.32,
 *       0.65, 0.72 and 0.52 of the CAS figure. The x86 presets charge the median share, 0.59, of their
 *       transfer ({@link MachinePresets}); {@code calibrate} measures both ping-pongs on the host. On
 *       two Arm cores the difference was 0 ns (Cortex-A72) and 11 ns of 62 (Cortex-A76).</li>
 *   <li>Context switch, 3 µs: the direct cost is 1–2 µs (lmbench {@code lat_ctx}); the rest
 *       is the cache and TLB refill that follows. Estimate. On Windows the one figure found is of
 *       the same order: a .NET program that passed 500,000 empty work items from one thread to
 *       another took 2.74 µs per pass, signal, wake-up and switch together (Arnott, "The cost of
 *       context switches", Microsoft Premier Developer blog, 2012-12-28; the machine is not
 *       named); no measurement of a bare switch on one processor under Windows was found.</li>
 *   <li>Wake latency, 5 µs: futex wake, the IPI to an idle core and a shallow C-state exit;
 *       deep C-states make it tens of µs. Measured exits from idle on a Haswell (Sites, KUtrace,
 *       {@code postproc/rawtoevent.cc}): C1E 1.75 µs, C3 about 4 µs, C6 about 13.5 µs, well under
 *       the worst cases Linux's {@code intel_idle} tables plan with (10, 33 and 133 µs). Estimate
 *       within that range. Windows, measured on a named machine: two threads that each wait on an
 *       event of their own, reset it and set the other's, 100,000 times each, took 0.8 s on a
 *       Core i5-13600K under Windows 11 22H2 with the High Performance power plan (0.9 s Balanced,
 *       1.9 s Power Saver), about 4 µs per signal with the two system calls and the switch in
 *       included (Kraus, github.com/Alois-xx/OpenMPTest, Readme.md and Main.cpp at c26165c,
 *       2023-11-29; he reports runs of about 16 s where deep C-states are allowed). A 2022 part
 *       at up to 5.1 GHz, not one of the presets', so the presets keep 5 µs, an estimate that
 *       measurement agrees with; the simulator hands a turn back and forth that way at 4.9–5.0 µs
 *       per hand-over on the Skylake preset (SimulatedPlatformTest). Not used: a cross-process
 *       event wake-up of 40 µs in boostorg/interprocess#43, 2017, machine not named, which belongs
 *       to deep idle states, which the presets do not model.</li>
 *   <li>Waking a blocked thread, 1 µs to the waker: {@code unpark} of a parked thread is a
 *       system call ({@code FUTEX_WAKE} on Linux, {@code SetEvent} or {@code ReleaseSemaphore} on
 *       Windows) whose entry and exit cost about 0.1 µs, more with the page-table isolation
 *       added against Meltdown (on Windows: {@code ManualResetEvent.Set} with nobody waiting, one
 *       {@code NtSetEvent} system call, measured 122 ns on a Core i7-9700 under Windows 10 21H1 and
 *       .NET Core 3.1, a part without that isolation; open-telemetry/opentelemetry-dotnet PR #2251,
 *       2021-08-12; with a waiter no Windows figure was found), and whose wake-up takes the target
 *       processor's run-queue lock,
 *       queues the thread and sends an inter-processor interrupt to wake an idle core. Estimate;
 *       {@code calibrate} measures it on the host (the development host, a virtual machine,
 *       measured 15.3 µs and 2.6 µs in two runs: an interrupt to another virtual processor
 *       leaves the guest). An
 *       {@code unpark} of a thread that is not parked only sets its permit: an atomic. A thread
 *       is asleep only half a context switch after it parks (the half that takes it into the
 *       kernel and off its processor); the simulator lets an {@code unpark} that comes sooner cost
 *       the waker a bare system call ({@code yieldIdleNs}) and lets the parker run again one
 *       context switch after its park (switched out and back in) instead of a wake latency after
 *       the unpark. On the development host (2026-12-06) an {@code unpark} issued as soon as the
 *       parker's state read "waiting" cost the waker 1.6 µs and the parker 2.7 µs, one issued 5 to
 *       150 µs later 6.3–6.9 µs and 4–12 µs, and one after 200 µs or more 16.7 µs and 40 µs (KVM,
 *       the hypervisor of such hosts, polls a halted virtual processor for up to 200 µs by
 *       default before it gives up its physical processor); the rule models the first step
 *       only.</li>
 *   <li>Yield with a ready thread, 3 µs: it is a context switch. Yield with nobody ready,
 *       300 ns: a {@code sched_yield}/{@code SwitchToThread} system call that finds nothing to
 *       run, page-table isolation included: a bare system call measured 44–79 ns on Broadwell-EP,
 *       Haswell and Kaby Lake before Meltdown's page-table isolation and 180–250 ns with it
 *       (Garloff, "KPTI/IBRS/Retpoline Microbenchmarks", Open Telekom Cloud, January 2018; Sites,
 *       KUtrace {@code time_getpid.cc}), and a JVM's {@code Thread.yield} 171 ns on a Linux server
 *       (Korinsky, "Sleeping at JVM thread for a very short period"). Estimate: the published runs
 *       were on Windows, before and after the isolation. Windows documents that
 *       {@code SwitchToThread} and {@code Sleep(0)} return at once when no thread is ready
 *       ("SwitchToThread function", "Sleep function"), which leaves one system call: 122 ns on a
 *       Core i7-9700 under Windows 10 for {@code NtSetEvent} (see the waker's cost above), so the
 *       300 ns stands for the call and the dispatcher's look at the ready queues with the isolation
 *       on. One Windows measurement agrees: each step of .NET's {@code SpinWait} timed alone on an
 *       idle machine of 32 logical processors (Windows: its {@code Stopwatch} ran at 10 MHz), the
 *       steps that call {@code Thread.Yield} ({@code SwitchToThread}) took 0.3 and 0.2 µs after a
 *       first, cold one of 4 µs (Log2n-io/Typhon issue #803, 2026-08-14; the issue does not name
 *       the processor, a later one of the same project names a Ryzen 9 7950X).</li>
 *   <li>Sleep granularity, 1.06 ms on Linux: a 1 ms sleep overshoots by the 50 µs default
 *       timer slack plus the wake-up, so {@code Sleep(1)} lasts about 1.06 ms. Windows: the
 *       15.625 ms default clock tick (64 Hz), or 1 ms after {@code timeBeginPeriod(1)}; before
 *       Windows 10 version 2004 the finest period any process asked for held for every process
 *       ("timeBeginPeriod function"), and browsers, database servers and development tools asked
 *       for 1 ms (Dawson, "Windows Timer Resolution: Megawatts Wasted", 2013), so a benchmark of
 *       2012–2019 slept 1–2 ms or 15.6 ms depending on what else ran on its machine.</li>
 *   <li>Time slice, 4 ms on Linux: preemption is checked at the scheduler tick (HZ=250) and
 *       CFS/EEVDF slices are a few ms. Windows client: a quantum of two clock ticks,
 *       31.25 ms, tripled to 93.75 ms for the foreground process with the default
 *       {@code Win32PrioritySeparation} of 2 (variable quanta, 3:1); Windows Server: twelve ticks,
 *       187.5 ms, for every thread (Windows Internals; Microsoft's registry reference for
 *       {@code Win32PrioritySeparation}).</li>
 *   <li>Cache line, 64 bytes on every x86 part here; some Arm parts use 128.</li>
 *   <li>SMT, 1.54: two threads on one core deliver at most about 1.3 times the throughput of
 *       one (Intel's first Hyper-Threading measurements: "up to 30 %" on server benchmarks,
 *       Marr et al., "Hyper-Threading Technology Architecture and Microarchitecture", Intel
 *       Technology Journal 6(1), 2002), so while both issue instructions each takes 2 / 1.3 =
 *       1.54 times as long. A sibling in a PAUSE loop issues only the loop's own instructions
 *       between PAUSEs, so it slows the other in proportion (see the simulator's Engine). One
 *       figure for every SMT preset: an upper bound on the gain, so at least this slowdown.</li>
 *   <li>Scheduler rules ({@link OperatingSystem}), Linux by default. Windows, as Microsoft
 *       documents it: {@code SwitchToThread} (what .NET's {@code Thread.Yield} calls) yields
 *       only to a thread ready on the caller's processor ("SwitchToThread function");
 *       {@code Sleep(0)} to any ready thread ("Sleep function", since Windows Server 2003);
 *       a thread whose wait is satisfied gets a priority boost that drops one level each time
 *       it completes a time slice ("Priority Boosts"), one level for a wait on an event or a
 *       semaphore ({@code EVENT_INCREMENT} and {@code SEMAPHORE_INCREMENT} are 1 in the driver
 *       kit's {@code wdm.h}), so one boost that ends with the thread's next completed slice is
 *       what the simulator models; and a higher-priority ready thread
 *       preempts a lower one ("Context Switches"). Linux: .NET's Unix PAL makes both
 *       {@code SwitchToThread} and {@code Sleep(0)} a {@code sched_yield} (coreclr
 *       {@code src/pal/src/thread/thread.cpp} @ 0d7ba24e and {@code synchmgr/wait.cpp}
 *       @ 1f26bfcb), which CFS serves from the caller's own run queue; a woken thread preempts
 *       the running one when it lies more than the wake-up granularity behind it in virtual
 *       runtime (kernel/sched/fair.c's defaults, see the simulator's WakeupPreemption).</li>
 *   <li>Instruction clock, 0.2 cycles per executed bytecode instruction of guest code: measured
 *       by {@code calibrate} (simulator's {@code BytecodeCost}) on the 2-core development host, an
 *       AMD EPYC of family 26 (Zen 5) at 2.1 GHz, on 2026-12-03: 0.192 cycles, from plain code in
 *       which each step's object is named by a field of the step before (a chain of dependent
 *       loads, the way the primitives reach a slot through the objects before it). Such a chain
 *       costs a number of cycles set by the first-level cache's load-to-use latency, 4 to 5
 *       cycles on the Intel cores of the presets (Intel 64 and IA-32 Architectures Optimization
 *       Reference Manual) and of the same order on the host, so the figure is carried over in
 *       cycles. The same host ran independent steps (no chain) at 0.046 cycles per bytecode, so
 *       code with more parallelism than the primitives' costs less. Before this measurement the
 *       estimate was one cycle (one x86 instruction per bytecode at one instruction per cycle),
 *       which priced the primitives' own code about five times too high. The shared-memory
 *       accesses themselves are priced by the cache model, not by this figure.</li>
 *   <li>Stores, 32 bytes per cycle: zeroing a new array and {@code System.arraycopy} are charged
 *       at the core's peak L1 store width, one 32-byte store per cycle on Haswell, Skylake and
 *       Kaby Lake and 16 bytes on Sandy Bridge and Ivy Bridge (Intel 64 and IA-32 Architectures
 *       Optimization Reference Manual, the L1 data cache bandwidth of each microarchitecture).
 *       A buffer larger than L1 streams to L2 and below at a lower rate, so this is the least
 *       such code can cost. {@code calibrate} does not measure it yet.</li>
 *   <li>Run-to-run noise (used only by simulations with noise on), measured on spinlab's
 *       development host (a 2-vCPU AMD EPYC virtual machine, Linux 6.18, JDK 25) on 2026-12-01
 *       with 20,000 samples each: a park→unpark wake-up took 4.2 µs at the 10th percentile,
 *       6.1 µs at the median and 9.4 µs at the 90th; a uniform draw within ±50 % of the mean
 *       spans the same 80 % band (0.6× to 1.4× against the measured 0.69× to 1.54×), so
 *       {@code wakeJitterPercent} is 50. Batches of 100 PAUSEs varied by ±2 % and of 100 clock
 *       reads by ±6 % (10th to 90th percentile around the median), so {@code costJitterPercent}
 *       is 5. One host, not the presets' machines: an estimate for them.</li>
 * </ul>
 *
 * @param name                the profile's name, as reports and the command line show it
 * @param description         one line saying what the profile stands for; may be empty
 * @param frequencyGhz        core clock, GHz; converts PAUSE cycles to time
 * @param pauseCycles         cycles one PAUSE takes; 0 is a PAUSE that is a no-op
 * @param physicalCores       physical cores
 * @param logicalProcessors   logical processors, a multiple of the cores; what the primitives
 *                            see as the processor count
 * @param clockReadNs         one clock read, ns
 * @param atomicOpNs          one uncontended atomic read-modify-write (CAS, exchange, add), ns
 * @param cacheLineTransferNs moving a cache line that another core last wrote, ns
 * @param contextSwitchNs     one context switch, ns
 * @param wakeLatencyNs       delay from an unpark to the woken thread being runnable, ns
 * @param yieldReadyNs        a yield when another thread is ready to run (a context switch), ns
 * @param yieldIdleNs         a yield when no other thread is ready (just the system call), ns
 * @param sleepGranularityNs  timer granularity: sleeps are rounded up to a multiple of it, ns
 * @param timeSliceNs         how long a thread runs before the scheduler may preempt it, ns (on
 *                            {@code linux}, EEVDF: the scheduler tick, at which a thread past its
 *                            slice is preempted)
 * @param cacheLineBytes      cache line size, a power of two in 16..512
 * @param cyclesPerBytecode   core cycles one executed bytecode instruction of guest code costs
 *                            between two scheduling points (the simulator's instruction clock)
 * @param storeBytesPerCycle  bytes one core stores per cycle when it zeroes a new array or copies
 *                            with {@code System.arraycopy} (the instruction clock's charge for them)
 * @param wakeJitterPercent   run-to-run noise of the wake latency, % (uniform, symmetric around it),
 *                            applied only to simulations with noise on
 * @param costJitterPercent   run-to-run noise of each PAUSE batch's and clock read's cost (and of the
 *                            switch that brings back a thread unparked before it was asleep), %
 *                            (uniform, symmetric), applied only with noise on
 * @param os                  whose scheduler rules apply: how a woken thread is placed, and what
 *                            a yield and a zero sleep give way to
 * @param smtSlowdown         how many times longer a logical processor's instructions take while a
 *                            sibling on the same core issues instructions too; 1 is no effect
 * @param wakeCallNs          what waking one blocked thread costs the waker (the system call that
 *                            makes it runnable: a futex wake, {@code SetEvent}), ns
 * @param sockets             processor packages the physical cores are spread over, as evenly as
 *                            they divide ({@link #socketOfCore(int)}); 1 to physicalCores
 * @param crossSocketTransferNs moving a cache line that a core on another socket last wrote, ns;
 *                            {@code cacheLineTransferNs} is the cost within one socket
 * @param invalidationNs      a store or read-modify-write by a core that holds a shared copy of the
 *                            line (an upgrade: the other copies invalidated, no data moved), ns
 */
public record MachineProfile(
        String name,
        String description,
        double frequencyGhz,
        int pauseCycles,
        int physicalCores,
        int logicalProcessors,
        double clockReadNs,
        double atomicOpNs,
        double cacheLineTransferNs,
        double contextSwitchNs,
        double wakeLatencyNs,
        double yieldReadyNs,
        double yieldIdleNs,
        double sleepGranularityNs,
        double timeSliceNs,
        int cacheLineBytes,
        double cyclesPerBytecode,
        double storeBytesPerCycle,
        double wakeJitterPercent,
        double costJitterPercent,
        OperatingSystem os,
        double smtSlowdown,
        double wakeCallNs,
        int sockets,
        double crossSocketTransferNs,
        double invalidationNs) {

    /*
     * Implementation notes
     *
     * Invariants: every field is in its MachineField range; logicalProcessors is a multiple
     * of physicalCores; name is non-blank, without surrounding spaces or control characters;
     * description is non-null and one line. Checked once, here, so holders never re-check.
     *
     * Picosecond arithmetic: the simulator's clock is a long of picoseconds and must be
     * identical on every host, so conversions are defined bit for bit.
     * - cyclesToPicos(c) is c times the double p = 1000.0 / frequencyGhz (picoseconds per
     *   cycle, the one rounding of the frequency), multiplied exactly: p = m * 2^e with a
     *   53-bit integer m, c * m is formed in 128 bits (Math.multiplyHigh) and shifted right
     *   by -e with round-half-up. No double rounding, no BigInteger.
     * - pausePicos(n) is n * cyclesToPicos(pauseCycles): the cost of one PAUSE is rounded
     *   once, so n PAUSEs cost exactly n times one PAUSE whether the simulator charges them
     *   one by one or in a batch.
     * - Overflow: frequency >= 0.01 GHz gives p <= 100,000 ps, so 2^31 PAUSEs of 10,000
     *   cycles cost at most 2^31 * 10^9 ps, about 2.1e18, below Long.MAX_VALUE (9.2e18).
     *   Larger arguments that would overflow throw ArithmeticException, never wrap.
     *
     * Why not simpler: p * c in double loses integer precision above 2^53 ps (about 2.5 hours
     * of virtual time), and rounding per call rather than per PAUSE would make the charge
     * depend on how PAUSEs are batched.
     */

    /** Linux-like OS costs and a generic current x86 part; see the class documentation for sources. */
    private static final String DEFAULT_DESCRIPTION = "";
    private static final double DEFAULT_FREQUENCY_GHZ = 3.0;
    private static final int DEFAULT_PAUSE_CYCLES = 140;
    private static final int DEFAULT_PHYSICAL_CORES = 4;
    private static final int DEFAULT_LOGICAL_PROCESSORS = 8;
    private static final double DEFAULT_CLOCK_READ_NS = 20;
    /** 20 cycles at 3 GHz. */
    private static final double DEFAULT_ATOMIC_OP_NS = 6.7;
    private static final double DEFAULT_CACHE_LINE_TRANSFER_NS = 20;
    private static final double DEFAULT_CONTEXT_SWITCH_NS = 3_000;
    private static final double DEFAULT_WAKE_LATENCY_NS = 5_000;
    private static final double DEFAULT_YIELD_READY_NS = 3_000;
    private static final double DEFAULT_YIELD_IDLE_NS = 300;
    private static final double DEFAULT_SLEEP_GRANULARITY_NS = 1_060_000;
    private static final double DEFAULT_TIME_SLICE_NS = 4_000_000;
    private static final int DEFAULT_CACHE_LINE_BYTES = 64;
    private static final double DEFAULT_CYCLES_PER_BYTECODE = 0.2;
    private static final double DEFAULT_STORE_BYTES_PER_CYCLE = 32;
    private static final double DEFAULT_WAKE_JITTER_PERCENT = 50;
    private static final double DEFAULT_COST_JITTER_PERCENT = 5;
    private static final OperatingSystem DEFAULT_OS = OperatingSystem.LINUX;
    /** Two busy siblings deliver at most 1.3 times one thread's throughput: each runs 2 / 1.3 times longer. */
    private static final double DEFAULT_SMT_SLOWDOWN = 1.54;
    /** A system call plus the scheduler's wake-up of one thread on another core; see the class documentation. */
    private static final double DEFAULT_WAKE_CALL_NS = 1_000;
    private static final int DEFAULT_SOCKETS = 1;
    /** Between two sockets of a Xeon E5-2695 v4 (core-to-core-latency tool); see the class documentation. */
    private static final double DEFAULT_CROSS_SOCKET_TRANSFER_NS = 118;
    /** The Intel parts' median ratio of an upgrade to a transfer, 0.59, times the default transfer; see the class documentation. */
    private static final double DEFAULT_INVALIDATION_NS = 12;

    private static final int MANTISSA_BITS = 52;
    private static final long MANTISSA_MASK = (1L << MANTISSA_BITS) - 1;
    private static final int EXPONENT_MASK = 0x7ff;
    /** Exponent bias plus mantissa bits: value = mantissa * 2^(biasedExponent - 1075). */
    private static final int EXPONENT_OFFSET = 1075;

    /** Validates every field; see the class documentation for the message format. */
    public MachineProfile {
        checkName(name);
        checkDescription(name, description);
        MachineField.FREQUENCY_GHZ.checkNumber(name, frequencyGhz);
        MachineField.PAUSE_CYCLES.checkWhole(name, pauseCycles);
        MachineField.PHYSICAL_CORES.checkWhole(name, physicalCores);
        MachineField.LOGICAL_PROCESSORS.checkWhole(name, logicalProcessors);
        if (logicalProcessors % physicalCores != 0) {
            throw new IllegalArgumentException(MachineField.prefix(name) + "logicalProcessors = " + logicalProcessors
                    + " is not a multiple of physicalCores = " + physicalCores
                    + "; allowed physicalCores times the threads per core (1, 2, ...)");
        }
        MachineField.CLOCK_READ_NS.checkNumber(name, clockReadNs);
        MachineField.ATOMIC_OP_NS.checkNumber(name, atomicOpNs);
        MachineField.CACHE_LINE_TRANSFER_NS.checkNumber(name, cacheLineTransferNs);
        MachineField.CONTEXT_SWITCH_NS.checkNumber(name, contextSwitchNs);
        MachineField.WAKE_LATENCY_NS.checkNumber(name, wakeLatencyNs);
        MachineField.YIELD_READY_NS.checkNumber(name, yieldReadyNs);
        MachineField.YIELD_IDLE_NS.checkNumber(name, yieldIdleNs);
        MachineField.SLEEP_GRANULARITY_NS.checkNumber(name, sleepGranularityNs);
        MachineField.TIME_SLICE_NS.checkNumber(name, timeSliceNs);
        MachineField.CACHE_LINE_BYTES.checkWhole(name, cacheLineBytes);
        MachineField.CYCLES_PER_BYTECODE.checkNumber(name, cyclesPerBytecode);
        MachineField.STORE_BYTES_PER_CYCLE.checkNumber(name, storeBytesPerCycle);
        MachineField.WAKE_JITTER_PERCENT.checkNumber(name, wakeJitterPercent);
        MachineField.COST_JITTER_PERCENT.checkNumber(name, costJitterPercent);
        if (os == null) {
            throw new IllegalArgumentException(MachineField.prefix(name) + "os is missing; allowed "
                    + MachineField.OS.allowed());
        }
        MachineField.SMT_SLOWDOWN.checkNumber(name, smtSlowdown);
        MachineField.WAKE_CALL_NS.checkNumber(name, wakeCallNs);
        MachineField.SOCKETS.checkWhole(name, sockets);
        if (sockets > physicalCores) {
            throw new IllegalArgumentException(MachineField.prefix(name) + "sockets = " + sockets
                    + " is more than physicalCores = " + physicalCores + "; allowed 1..physicalCores");
        }
        MachineField.CROSS_SOCKET_TRANSFER_NS.checkNumber(name, crossSocketTransferNs);
        MachineField.INVALIDATION_NS.checkNumber(name, invalidationNs);
    }

    /**
     * A builder named {@code name}, starting from Linux-like defaults on a generic part:
     * 3 GHz, 140-cycle PAUSE, 4 cores / 8 threads, clock read 20 ns, atomic 6.7 ns (20 cycles),
     * cache-line transfer 20 ns, context switch 3 µs, wake latency 5 µs, yield 3 µs / 300 ns,
     * sleep granularity 1.06 ms, time slice 4 ms, 64-byte lines, 0.2 cycles per bytecode, 32 bytes
     * stored per cycle, Linux's scheduler rules, 1 µs to wake a blocked thread, one socket (118 ns
     * between sockets when there are more), 12 ns to invalidate the other copies of a shared line,
     * no description.
     */
    public static Builder builder(String name) {
        Builder builder = new Builder(DEFAULT_PHYSICAL_CORES, DEFAULT_LOGICAL_PROCESSORS);
        builder.name = name;
        builder.description = DEFAULT_DESCRIPTION;
        builder.frequencyGhz = DEFAULT_FREQUENCY_GHZ;
        builder.pauseCycles = DEFAULT_PAUSE_CYCLES;
        builder.clockReadNs = DEFAULT_CLOCK_READ_NS;
        builder.atomicOpNs = DEFAULT_ATOMIC_OP_NS;
        builder.cacheLineTransferNs = DEFAULT_CACHE_LINE_TRANSFER_NS;
        builder.contextSwitchNs = DEFAULT_CONTEXT_SWITCH_NS;
        builder.wakeLatencyNs = DEFAULT_WAKE_LATENCY_NS;
        builder.yieldReadyNs = DEFAULT_YIELD_READY_NS;
        builder.yieldIdleNs = DEFAULT_YIELD_IDLE_NS;
        builder.sleepGranularityNs = DEFAULT_SLEEP_GRANULARITY_NS;
        builder.timeSliceNs = DEFAULT_TIME_SLICE_NS;
        builder.cacheLineBytes = DEFAULT_CACHE_LINE_BYTES;
        builder.cyclesPerBytecode = DEFAULT_CYCLES_PER_BYTECODE;
        builder.storeBytesPerCycle = DEFAULT_STORE_BYTES_PER_CYCLE;
        builder.wakeJitterPercent = DEFAULT_WAKE_JITTER_PERCENT;
        builder.costJitterPercent = DEFAULT_COST_JITTER_PERCENT;
        builder.os = DEFAULT_OS;
        builder.smtSlowdown = DEFAULT_SMT_SLOWDOWN;
        builder.wakeCallNs = DEFAULT_WAKE_CALL_NS;
        builder.sockets = DEFAULT_SOCKETS;
        builder.crossSocketTransferNs = DEFAULT_CROSS_SOCKET_TRANSFER_NS;
        builder.invalidationNs = DEFAULT_INVALIDATION_NS;
        return builder;
    }

    /** A builder starting from this profile's values. */
    public Builder toBuilder() {
        Builder builder = new Builder(physicalCores, logicalProcessors);
        builder.name = name;
        builder.description = description;
        builder.frequencyGhz = frequencyGhz;
        builder.pauseCycles = pauseCycles;
        builder.clockReadNs = clockReadNs;
        builder.atomicOpNs = atomicOpNs;
        builder.cacheLineTransferNs = cacheLineTransferNs;
        builder.contextSwitchNs = contextSwitchNs;
        builder.wakeLatencyNs = wakeLatencyNs;
        builder.yieldReadyNs = yieldReadyNs;
        builder.yieldIdleNs = yieldIdleNs;
        builder.sleepGranularityNs = sleepGranularityNs;
        builder.timeSliceNs = timeSliceNs;
        builder.cacheLineBytes = cacheLineBytes;
        builder.cyclesPerBytecode = cyclesPerBytecode;
        builder.storeBytesPerCycle = storeBytesPerCycle;
        builder.wakeJitterPercent = wakeJitterPercent;
        builder.costJitterPercent = costJitterPercent;
        builder.os = os;
        builder.smtSlowdown = smtSlowdown;
        builder.wakeCallNs = wakeCallNs;
        builder.sockets = sockets;
        builder.crossSocketTransferNs = crossSocketTransferNs;
        builder.invalidationNs = invalidationNs;
        return builder;
    }

    /**
     * This profile with one field set from text, the field given by its file name
     * ({@code pauseCycles}, see {@link MachineField#names()}); the name is kept unless the
     * field is {@code name}. A change to {@code logicalProcessors} or {@code physicalCores}
     * alone keeps the threads per core where it can (see {@link Builder}).
     *
     * @throws IllegalArgumentException for an unknown field (listing the valid ones), text of
     *                                  the wrong kind, or a value out of range
     */
    public MachineProfile withField(String fieldName, String value) {
        return toBuilder().set(fieldName, value).build();
    }

    /** This profile with one field set from text. */
    public MachineProfile withField(MachineField field, String value) {
        return toBuilder().set(field, value).build();
    }

    /** This profile with a different PAUSE cost in cycles. */
    public MachineProfile withPauseCycles(int cycles) {
        return toBuilder().pauseCycles(cycles).build();
    }

    /**
     * This profile with {@code count} logical processors, keeping the threads per core when
     * {@code count} is a multiple of it and otherwise giving one thread per core.
     */
    public MachineProfile withLogicalProcessors(int count) {
        return toBuilder().logicalProcessors(count).build();
    }

    /** This profile with an explicit processor layout. */
    public MachineProfile withProcessors(int physicalCores, int logicalProcessors) {
        return toBuilder().physicalCores(physicalCores).logicalProcessors(logicalProcessors).build();
    }

    /** This profile renamed. */
    public MachineProfile withName(String newName) {
        return toBuilder().name(newName).build();
    }

    /**
     * The socket of physical core {@code core}: {@code core × sockets ÷ physicalCores}, so each
     * socket holds a run of consecutive cores and their counts differ by at most one.
     */
    public int socketOfCore(int core) {
        if (core < 0 || core >= physicalCores) {
            throw new IllegalArgumentException("core = " + core + " is out of range; allowed 0.." + (physicalCores - 1));
        }
        return (int) ((long) core * sockets / physicalCores);
    }

    /** Hardware threads per core (SMT): 1 without SMT, 2 with Hyper-Threading. */
    public int smtThreadsPerCore() {
        return logicalProcessors / physicalCores;
    }

    /** The time one PAUSE takes, ns: {@code pauseCycles / frequencyGhz}. */
    public double pauseNs() {
        return pauseCycles / frequencyGhz;
    }

    /**
     * {@code cycles} at this profile's clock, in picoseconds: {@code cycles × (1000.0 / frequencyGhz)}
     * computed exactly and rounded half up once (see the implementation notes).
     *
     * @throws IllegalArgumentException if {@code cycles} is negative
     * @throws ArithmeticException      if the result does not fit in a long
     */
    public long cyclesToPicos(long cycles) {
        if (cycles < 0) {
            throw new IllegalArgumentException("cycles = " + cycles + " is negative");
        }
        double picosPerCycle = 1000.0 / frequencyGhz;
        long bits = Double.doubleToRawLongBits(picosPerCycle);
        long mantissa = (bits & MANTISSA_MASK) | (1L << MANTISSA_BITS);
        int shift = EXPONENT_OFFSET - (int) ((bits >>> MANTISSA_BITS) & EXPONENT_MASK);
        // frequencyGhz in 0.01..10 puts picosPerCycle in 100..100000, so shift is in 36..46.
        assert shift > 1 && shift < 64 : shift;
        long high = Math.multiplyHigh(cycles, mantissa);
        long low = cycles * mantissa;
        long roundedLow = low + (1L << (shift - 1));
        if (Long.compareUnsigned(roundedLow, low) < 0) {
            high++;
        }
        if ((high >>> (shift - 1)) != 0) {
            throw new ArithmeticException(MachineField.prefix(name) + cycles + " cycles overflow a long in ps");
        }
        return (high << (64 - shift)) | (roundedLow >>> shift);
    }

    /** One PAUSE in picoseconds, rounded once: {@code cyclesToPicos(pauseCycles)}. */
    public long picosPerPause() {
        return cyclesToPicos(pauseCycles);
    }

    /**
     * {@code count} PAUSEs in picoseconds: exactly {@code count × picosPerPause()}, so the charge
     * does not depend on how PAUSEs are batched. Exact for every {@code count} up to 2^31 at any
     * valid profile.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     * @throws ArithmeticException      if the result does not fit in a long
     */
    public long pausePicos(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("PAUSE count = " + count + " is negative");
        }
        return Math.multiplyExact(count, picosPerPause());
    }

    /** A time in nanoseconds on the simulator's picosecond clock, rounded half up. */
    public static long nanosToPicos(double nanos) {
        if (!Double.isFinite(nanos) || nanos < 0 || nanos * 1000.0 >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("nanos = " + nanos + " cannot be converted to picoseconds");
        }
        return Math.round(nanos * 1000.0);
    }

    private static void checkName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("machine profile: name is missing");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("machine profile: name = '" + name + "' is blank");
        }
        if (!name.strip().equals(name)) {
            throw new IllegalArgumentException("machine profile: name = '" + name
                    + "' has leading or trailing spaces");
        }
        if (hasControlCharacter(name)) {
            throw new IllegalArgumentException("machine profile: name = '" + name.replaceAll("\\p{Cntrl}", "?")
                    + "' contains a control character; allowed " + MachineField.NAME.allowed());
        }
    }

    private static void checkDescription(String name, String description) {
        if (description == null) {
            throw new IllegalArgumentException(MachineField.prefix(name)
                    + "description is missing; use an empty one for none");
        }
        if (hasControlCharacter(description)) {
            throw new IllegalArgumentException(MachineField.prefix(name) + "description = '"
                    + description.replaceAll("\\p{Cntrl}", "?")
                    + "' contains a line break or control character; allowed " + MachineField.DESCRIPTION.allowed());
        }
    }

    private static boolean hasControlCharacter(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }

    /**
     * Builds a {@link MachineProfile}, one setter per field; {@link #build()} validates.
     *
     * <p>Processor counts: set both {@code physicalCores} and {@code logicalProcessors} to
     * choose the layout. Set only one and the other follows, keeping the threads per core of
     * the starting profile: from a 4-core, 8-thread part, {@code logicalProcessors(16)} gives
     * 8 cores and {@code physicalCores(6)} gives 12 threads. A logical count that is not a
     * multiple of the threads per core gets one thread per core ({@code logicalProcessors(5)}
     * gives 5 cores, 5 threads). This is what a sweep over "the processor count" means. A layout
     * change keeps the starting profile's sockets while there are at least as many cores, and gives
     * one socket per core below that (a 4-socket part swept to 2 processors has 2 sockets); sockets
     * set explicitly are kept, and more of them than cores is an error.
     *
     * <p>Not thread-safe; a builder may be reused after {@link #build()}.
     */
    public static final class Builder {
        private final int startThreadsPerCore;
        private boolean physicalCoresSet;
        private boolean logicalProcessorsSet;
        private boolean socketsSet;

        private String name;
        private String description;
        private double frequencyGhz;
        private int pauseCycles;
        private int physicalCores;
        private int logicalProcessors;
        private double clockReadNs;
        private double atomicOpNs;
        private double cacheLineTransferNs;
        private double contextSwitchNs;
        private double wakeLatencyNs;
        private double yieldReadyNs;
        private double yieldIdleNs;
        private double sleepGranularityNs;
        private double timeSliceNs;
        private int cacheLineBytes;
        private double cyclesPerBytecode;
        private double storeBytesPerCycle;
        private double wakeJitterPercent;
        private double costJitterPercent;
        private OperatingSystem os;
        private double smtSlowdown;
        private double wakeCallNs;
        private int sockets;
        private double crossSocketTransferNs;
        private double invalidationNs;

        private Builder(int physicalCores, int logicalProcessors) {
            this.physicalCores = physicalCores;
            this.logicalProcessors = logicalProcessors;
            this.startThreadsPerCore = logicalProcessors / physicalCores;
        }

        /** See {@link MachineProfile#name()}. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** See {@link MachineProfile#description()}. */
        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /** See {@link MachineProfile#frequencyGhz()}. */
        public Builder frequencyGhz(double frequencyGhz) {
            this.frequencyGhz = frequencyGhz;
            return this;
        }

        /** See {@link MachineProfile#pauseCycles()}. */
        public Builder pauseCycles(int pauseCycles) {
            this.pauseCycles = pauseCycles;
            return this;
        }

        /** See {@link MachineProfile#physicalCores()} and the class documentation. */
        public Builder physicalCores(int physicalCores) {
            this.physicalCores = physicalCores;
            this.physicalCoresSet = true;
            return this;
        }

        /** See {@link MachineProfile#logicalProcessors()} and the class documentation. */
        public Builder logicalProcessors(int logicalProcessors) {
            this.logicalProcessors = logicalProcessors;
            this.logicalProcessorsSet = true;
            return this;
        }

        /** See {@link MachineProfile#clockReadNs()}. */
        public Builder clockReadNs(double clockReadNs) {
            this.clockReadNs = clockReadNs;
            return this;
        }

        /** See {@link MachineProfile#atomicOpNs()}. */
        public Builder atomicOpNs(double atomicOpNs) {
            this.atomicOpNs = atomicOpNs;
            return this;
        }

        /** See {@link MachineProfile#cacheLineTransferNs()}. */
        public Builder cacheLineTransferNs(double cacheLineTransferNs) {
            this.cacheLineTransferNs = cacheLineTransferNs;
            return this;
        }

        /** See {@link MachineProfile#contextSwitchNs()}. */
        public Builder contextSwitchNs(double contextSwitchNs) {
            this.contextSwitchNs = contextSwitchNs;
            return this;
        }

        /** See {@link MachineProfile#wakeCallNs()}. */
        public Builder wakeCallNs(double wakeCallNs) {
            this.wakeCallNs = wakeCallNs;
            return this;
        }

        /** See {@link MachineProfile#sockets()}. */
        public Builder sockets(int sockets) {
            this.sockets = sockets;
            this.socketsSet = true;
            return this;
        }

        /** See {@link MachineProfile#crossSocketTransferNs()}. */
        public Builder crossSocketTransferNs(double crossSocketTransferNs) {
            this.crossSocketTransferNs = crossSocketTransferNs;
            return this;
        }

        /** See {@link MachineProfile#invalidationNs()}. */
        public Builder invalidationNs(double invalidationNs) {
            this.invalidationNs = invalidationNs;
            return this;
        }

        /** See {@link MachineProfile#wakeLatencyNs()}. */
        public Builder wakeLatencyNs(double wakeLatencyNs) {
            this.wakeLatencyNs = wakeLatencyNs;
            return this;
        }

        /** See {@link MachineProfile#yieldReadyNs()}. */
        public Builder yieldReadyNs(double yieldReadyNs) {
            this.yieldReadyNs = yieldReadyNs;
            return this;
        }

        /** See {@link MachineProfile#yieldIdleNs()}. */
        public Builder yieldIdleNs(double yieldIdleNs) {
            this.yieldIdleNs = yieldIdleNs;
            return this;
        }

        /** See {@link MachineProfile#sleepGranularityNs()}. */
        public Builder sleepGranularityNs(double sleepGranularityNs) {
            this.sleepGranularityNs = sleepGranularityNs;
            return this;
        }

        /** See {@link MachineProfile#timeSliceNs()}. */
        public Builder timeSliceNs(double timeSliceNs) {
            this.timeSliceNs = timeSliceNs;
            return this;
        }

        /** See {@link MachineProfile#cacheLineBytes()}. */
        public Builder cacheLineBytes(int cacheLineBytes) {
            this.cacheLineBytes = cacheLineBytes;
            return this;
        }

        /** See {@link MachineProfile#wakeJitterPercent()}. */
        public Builder wakeJitterPercent(double wakeJitterPercent) {
            this.wakeJitterPercent = wakeJitterPercent;
            return this;
        }

        /** See {@link MachineProfile#costJitterPercent()}. */
        public Builder costJitterPercent(double costJitterPercent) {
            this.costJitterPercent = costJitterPercent;
            return this;
        }

        /** See {@link MachineProfile#storeBytesPerCycle()}. */
        public Builder storeBytesPerCycle(double storeBytesPerCycle) {
            this.storeBytesPerCycle = storeBytesPerCycle;
            return this;
        }

        /** See {@link MachineProfile#os()}. */
        public Builder os(OperatingSystem os) {
            this.os = os;
            return this;
        }

        /** See {@link MachineProfile#smtSlowdown()}. */
        public Builder smtSlowdown(double smtSlowdown) {
            this.smtSlowdown = smtSlowdown;
            return this;
        }

        /** See {@link MachineProfile#cyclesPerBytecode()}. */
        public Builder cyclesPerBytecode(double cyclesPerBytecode) {
            this.cyclesPerBytecode = cyclesPerBytecode;
            return this;
        }

        /** Sets a field given by its file name from text; see {@link MachineProfile#withField(String, String)}. */
        public Builder set(String fieldName, String value) {
            return set(MachineField.byName(fieldName), value);
        }

        /**
         * Sets a field from text: numbers in plain decimal notation ({@code 3.4}, {@code 1e6}),
         * whole numbers without fraction or exponent. Wrong text or a value out of range is
         * rejected at once, naming the field.
         */
        public Builder set(MachineField field, String value) {
            Objects.requireNonNull(field, "field");
            if (value == null) {
                throw new IllegalArgumentException(MachineField.prefix(name) + field.fieldName()
                        + " has no value; allowed " + field.allowed());
            }
            return switch (field) {
                case NAME -> name(value);
                case DESCRIPTION -> description(value);
                case FREQUENCY_GHZ -> frequencyGhz(field.parseNumber(name, value));
                case PAUSE_CYCLES -> pauseCycles(field.parseWhole(name, value));
                case PHYSICAL_CORES -> physicalCores(field.parseWhole(name, value));
                case LOGICAL_PROCESSORS -> logicalProcessors(field.parseWhole(name, value));
                case CLOCK_READ_NS -> clockReadNs(field.parseNumber(name, value));
                case ATOMIC_OP_NS -> atomicOpNs(field.parseNumber(name, value));
                case CACHE_LINE_TRANSFER_NS -> cacheLineTransferNs(field.parseNumber(name, value));
                case CONTEXT_SWITCH_NS -> contextSwitchNs(field.parseNumber(name, value));
                case WAKE_LATENCY_NS -> wakeLatencyNs(field.parseNumber(name, value));
                case YIELD_READY_NS -> yieldReadyNs(field.parseNumber(name, value));
                case YIELD_IDLE_NS -> yieldIdleNs(field.parseNumber(name, value));
                case SLEEP_GRANULARITY_NS -> sleepGranularityNs(field.parseNumber(name, value));
                case TIME_SLICE_NS -> timeSliceNs(field.parseNumber(name, value));
                case CACHE_LINE_BYTES -> cacheLineBytes(field.parseWhole(name, value));
                case CYCLES_PER_BYTECODE -> cyclesPerBytecode(field.parseNumber(name, value));
                case STORE_BYTES_PER_CYCLE -> storeBytesPerCycle(field.parseNumber(name, value));
                case WAKE_JITTER_PERCENT -> wakeJitterPercent(field.parseNumber(name, value));
                case COST_JITTER_PERCENT -> costJitterPercent(field.parseNumber(name, value));
                case OS -> os(field.parseOs(name, value));
                case SMT_SLOWDOWN -> smtSlowdown(field.parseNumber(name, value));
                case WAKE_CALL_NS -> wakeCallNs(field.parseNumber(name, value));
                case SOCKETS -> sockets(field.parseWhole(name, value));
                case CROSS_SOCKET_TRANSFER_NS -> crossSocketTransferNs(field.parseNumber(name, value));
                case INVALIDATION_NS -> invalidationNs(field.parseNumber(name, value));
            };
        }

        /** A validated profile. */
        public MachineProfile build() {
            int cores = physicalCores;
            int logical = logicalProcessors;
            if (logicalProcessorsSet && !physicalCoresSet && inRange(MachineField.LOGICAL_PROCESSORS, logical)) {
                cores = logical % startThreadsPerCore == 0 ? logical / startThreadsPerCore : logical;
            } else if (physicalCoresSet && !logicalProcessorsSet && inRange(MachineField.PHYSICAL_CORES, cores)) {
                long derived = (long) cores * startThreadsPerCore;
                if (derived > MachineField.LOGICAL_PROCESSORS.max()) {
                    throw new IllegalArgumentException(MachineField.prefix(name) + "physicalCores = " + cores
                            + " with " + startThreadsPerCore + " threads per core gives logicalProcessors = " + derived
                            + ", out of range; allowed " + MachineField.LOGICAL_PROCESSORS.allowed()
                            + " (set logicalProcessors as well)");
                }
                logical = (int) derived;
            }
            int socketCount = sockets;
            if ((physicalCoresSet || logicalProcessorsSet) && !socketsSet && socketCount > cores && cores >= 1) {
                socketCount = cores; // a layout sweep below the socket count: one socket per core
            }
            return new MachineProfile(name, description, frequencyGhz, pauseCycles, cores, logical, clockReadNs,
                    atomicOpNs, cacheLineTransferNs, contextSwitchNs, wakeLatencyNs, yieldReadyNs, yieldIdleNs,
                    sleepGranularityNs, timeSliceNs, cacheLineBytes, cyclesPerBytecode,
                    storeBytesPerCycle, wakeJitterPercent, costJitterPercent, os, smtSlowdown, wakeCallNs,
                    socketCount, crossSocketTransferNs, invalidationNs);
        }

        private static boolean inRange(MachineField field, int value) {
            return value >= field.min() && value <= field.max();
        }
    }
}
