package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Generation;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.MonitorPolicy;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.workload.EventPipeStress;
import io.spinlab.sim.workload.MonitorThroughput;
import io.spinlab.sim.workload.MresWaitDrainRate;
import io.spinlab.sim.workload.MresWaitLatency;
import io.spinlab.sim.workload.PoolBatch;
import io.spinlab.sim.workload.Quwi;
import io.spinlab.sim.workload.QuwiSuite;
import io.spinlab.sim.workload.SpinLockThroughput;
import io.spinlab.sim.workload.ThreadCount;
import io.spinlab.sim.workload.Window;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.Workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The named experiments that re-create the published results ({@code reference/published-results.md})
 * on simulated machines, plus the what-if sweep:
 * <ul>
 *   <li>{@code mres-proc-scaling}: processor-scaled vs unscaled spin before blocking (coreclr #13556);</li>
 *   <li>{@code normalized-spin}: raw vs pre-Skylake-scaled PAUSE in CoreRT's SpinWait (corert #7569);</li>
 *   <li>{@code eventpipe-lockless}: buffer reservation under the lock vs lockless (runtime #50797);</li>
 *   <li>{@code threadpool-global-queue}: QueueSegment vs ConcurrentQueue global queue (coreclr #9234);</li>
 *   <li>{@code monitor-convoy}: convoy vs barging Monitor handoff (coreclr #13978, #14216);</li>
 *   <li>{@code future-cpus}: netcore2.0 against net6 across PAUSE costs and processor counts.</li>
 * </ul>
 *
 * <p>Each published experiment compares the two generations its pull request measured, or one
 * generation with and without the single change it measured ({@link Generation}).
 *
 * <p>Every row runs both tunings with seed 1 and no faults. The measured window grows with the
 * number of threads ({@link #windowFor}), the same rule for every row, so that even the slowest
 * configurations complete several rounds; a row costs a fraction of a second to a few seconds.
 */
public final class Experiments {

    /** The seed of every row. */
    public static final long SEED = 1;

    private static final List<String> NAMES = List.of("mres-proc-scaling", "normalized-spin",
            "eventpipe-lockless", "threadpool-global-queue", "monitor-convoy", "future-cpus");

    /** PAUSE costs of the future-cpus sweep, cycles. */
    public static final List<Integer> FUTURE_PAUSE_CYCLES = List.of(1, 10, 40, 140, 300, 1000);
    /** Processor counts of the future-cpus sweep. */
    public static final List<Integer> FUTURE_PROCESSORS = List.of(4, 16, 64, 256);

    private static final String SKYLAKE = "skylake-i7-6700";
    private static final String SANDY_BRIDGE = "sandybridge-e5-1650";
    private static final String KABY_LAKE = "kabylake-e3-1245v6";
    private static final String HASWELL = "haswell-i5-4670k";
    private static final String XEON_32T = "xeon-2s-32t";
    private static final long ONE_MICROSECOND = 1_000;
    /** Work items per batch of the pool-batch rows: the PR description gives no count ({@link PoolBatch}). */
    private static final int POOL_BATCH_ITEMS = 1_000;
    /**
     * The pool-batch rows' window: a row counts whole batches, and about 10 items per µs on the
     * quad-core Skylake need 16 ms for some 150 of them, above the 100 a row must count (within
     * the first window, so that no row runs twice).
     */
    private static final Window POOL_BATCH_WINDOW = new Window(2_000_000, 16_000_000);

    private Experiments() {
    }

    /** The experiment names, in the order a full {@code reproduce} runs them. */
    public static List<String> names() {
        return NAMES;
    }

    /** Every experiment, in {@link #names()} order. */
    public static List<Experiment> all() {
        return NAMES.stream().map(Experiments::byName).toList();
    }

    /**
     * The experiment called {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid names
     */
    public static Experiment byName(String name) {
        Objects.requireNonNull(name, "name");
        Supplier<Experiment> factory = switch (name) {
            case "mres-proc-scaling" -> Experiments::mresProcScaling;
            case "normalized-spin" -> Experiments::normalizedSpin;
            case "threadpool-global-queue" -> Experiments::threadPoolGlobalQueue;
            case "monitor-convoy" -> Experiments::monitorConvoy;
            case "future-cpus" -> Experiments::futureCpus;
            case "eventpipe-lockless" -> Experiments::eventPipeLockless;
            default -> throw new IllegalArgumentException("unknown experiment '" + name + "'; valid experiments: "
                    + String.join(", ", NAMES));
        };
        return factory.get();
    }

    /**
     * The warm-up and window of a row with {@code threads} threads: warm-up max(2 ms, 10 µs ×
     * threads), window max(4 ms, 40 µs × threads). The floor covers the start-up of the slowest
     * spin phases (a processor-scaled spin on 8 processors with a 140-cycle PAUSE lasts about
     * 1.3 ms before it blocks); the slope gives a round in which every thread wakes room to
     * happen several times.
     */
    public static Window windowFor(int threads) {
        long warmup = Math.max(2_000_000L, 10_000L * threads);
        long window = Math.max(4_000_000L, 40_000L * threads);
        return new Window(warmup, window);
    }

    private static Window windowFor(ThreadCount threads, MachineProfile machine) {
        return windowFor(threads.resolve(machine.logicalProcessors()));
    }

    /** What was published about this row ({@link PublishedFigures}). */
    private static Published claim(String experiment, String machine, Workload workload) {
        return PublishedFigures.standard().claim(experiment, machine, workload);
    }

    private static Published total(String experiment, String machine) {
        return PublishedFigures.standard().total(experiment, machine).orElseThrow(() -> new IllegalStateException(
                "published.json has no total of " + experiment + " on " + machine));
    }

    // ------------------------------------------------------------------ mres-proc-scaling

    private static Experiment mresProcScaling() {
        List<PlannedRow> rows = new ArrayList<>();
        for (String machineName : List.of(SANDY_BRIDGE, SKYLAKE)) {
            MachineProfile machine = MachinePresets.byName(machineName);
            for (String workload : List.of(MresWaitDrainRate.NAME, MresWaitLatency.NAME)) {
                for (long delay : List.of(0L, ONE_MICROSECOND)) {
                    for (ThreadCount threads : ThreadCount.PUBLISHED_MULTIPLES) {
                        Workload w = workload.equals(MresWaitDrainRate.NAME)
                                ? new MresWaitDrainRate(threads, delay, windowFor(threads, machine))
                                : new MresWaitLatency(threads, delay, windowFor(threads, machine));
                        rows.add(new PlannedRow(w, machine, claim("mres-proc-scaling", machineName, w), SEED));
                    }
                }
            }
        }
        return new Experiment("mres-proc-scaling",
                "ManualResetEvent's spin before blocking: SpinWait(ProcessorCount × (4 << i)) against the same "
                        + "without the multiply (dotnet/coreclr #13556/#13631): .NET Core 2.0 before and after, raw "
                        + "PAUSE counts, convoy Monitor; on a 10-cycle Sandy Bridge and a 140-cycle Skylake; "
                        + "MresWaitDrainRate and MresWaitLatency at every published multiplier, with and without a "
                        + "1 µs delay before each set.",
                Generation.NETCORE2_0.tuning(), Generation.NETCORE2_0_13556.tuning(),
                rows, List.of("skylake-i7-6700: total over all 16 published rows +322 %",
                        "sandybridge-e5-1650: about +50 % in total, most rows improving"))
                .withPublishedTotal(SANDY_BRIDGE, total("mres-proc-scaling", SANDY_BRIDGE))
                .withPublishedTotal(SKYLAKE, total("mres-proc-scaling", SKYLAKE));
    }

    // ------------------------------------------------------------------ normalized-spin

    private static Experiment normalizedSpin() {
        List<PlannedRow> rows = new ArrayList<>();
        for (String machineName : List.of(KABY_LAKE, HASWELL)) {
            MachineProfile machine = MachinePresets.byName(machineName);
            for (String workload : Workloads.spinPerfNames()) {
                for (ThreadCount threads : List.of(ThreadCount.ofMultiple(1), ThreadCount.ofMultiple(2))) {
                    Window window = windowFor(threads, machine);
                    Workload w = Workloads.create(workload, "threads=" + threads + "," + window.parameters());
                    rows.add(new PlannedRow(w, machine, claim("normalized-spin", machineName, w), SEED));
                }
            }
        }
        return new Experiment("normalized-spin",
                "CoreRT's port of the normalized PAUSE (dotnet/corert #7569, 2019): the retuned SpinWait shape "
                        + "(min(2^count, 64) spins, yields interleaved from count 10) in raw PAUSEs against the same "
                        + "counts sent through YieldProcessorNormalizedForPreSkylakeCount (count × yields per "
                        + "normalized yield / 8), on a 140-cycle Kaby Lake Xeon and a 10-cycle Haswell; the whole "
                        + "SpinPerf suite at 1 and 2 × processors. Both sides lock with CoreRT's own managed Monitor "
                        + "(its Lock, which SemaphoreSlim and ManualResetEventSlim take), as the published runs did.",
                Generation.CORERT_2019_BEFORE.tuning(), Generation.CORERT_2019_AFTER.tuning(), rows,
                List.of("kabylake-e3-1245v6: no scenario regressed by more than noise",
                        "haswell-i5-4670k: close to neutral"));
    }

    // ------------------------------------------------------------------ eventpipe-lockless

    /** The limit of the eventpipe-lockless rows: 256 MB scaled down so that a ms-long window saturates it. */
    public static final String EVENTPIPE_LIMIT = "16mb";
    /** The reader interval of the eventpipe-lockless rows: EventPipe's 100 ms, scaled as the limit. */
    public static final String EVENTPIPE_READER_INTERVAL = "1ms";
    private static final int EVENTPIPE_WRITERS = 32;

    private static Experiment eventPipeLockless() {
        List<PlannedRow> rows = new ArrayList<>();
        for (String machineName : List.of("kabylake-i7-7700hq", "kabylake-i7-7700", "ivybridge-e7-4x12")) {
            MachineProfile machine = MachinePresets.byName(machineName);
            Window window = eventPipeWindow(machine);
            for (EventPipeStress.Score score : EventPipeStress.Score.values()) {
                Workload w = Workloads.create(EventPipeStress.NAME, String.format(Locale.ROOT,
                        "threads=%d,payload=200,limit=%s,reader-interval=%s,score=%s,stream=%s,%s", EVENTPIPE_WRITERS,
                        EVENTPIPE_LIMIT, EVENTPIPE_READER_INTERVAL, score.text(), eventPipeStream(machineName),
                        window.parameters()));
                rows.add(new PlannedRow(w, machine, claim("eventpipe-lockless", machineName, w), SEED));
            }
        }
        return new Experiment("eventpipe-lockless",
                "EventPipe's buffer reservation: under the buffer manager's lock, where every writer that fails "
                        + "queues on the lock (a lock caravan), against a lock-free CAS reservation that takes the "
                        + "lock only to link a buffer it got (dotnet/runtime #50797); 32 writers of 200-byte events, "
                        + "one reader, a saturated limit (256 MB and a 100 ms reader interval in the published "
                        + "60 s run; 16 MB and 1 ms here, for ms-long windows), on the three published machines; "
                        + "the .NET 5 code with and without that one change (the PR predates net6's other changes). "
                        + "As in the published setup, the events go from the runtime's streaming thread through the "
                        + "operating system's pipe or socket (16 KB on Windows, 8 KB on macOS) to a reading process "
                        + "that copies them to a file. "
                        + "Each machine has a row for events read and one for write attempts.",
                Generation.NET5.tuning(), Generation.NET5.tuning().with(Knob.RESERVATION, ReservationPolicy.LOCKLESS),
                rows,
                List.of("kabylake-i7-7700hq: events read +63.9 %, events attempted +47.9 %",
                        "kabylake-i7-7700, ivybridge-e7-4x12: improvements reported"));
    }

    /**
     * The kernel buffer between the traced process and the reading one on the machine's operating
     * system ({@code EventPipeStress}'s implementation notes): the 2017 MacBook Pro ran macOS, whose
     * local stream sockets hold 8 KB; the other two machines are taken to run Windows (as
     * {@code MachinePresets} says), whose diagnostics named pipe has 16 KB buffers.
     */
    static String eventPipeStream(String machineName) {
        return machineName.equals("kabylake-i7-7700hq") ? "8kb" : "16kb";
    }

    /**
     * The usual window where the writers, the streaming thread and the reading process each have a
     * processor; where they do
     * not (32 writers that never block on 8 processors), 10 ms of warm-up and a 40 ms window:
     * the threads then take 4 ms time slices in turn, the reader about one in every 16 ms, and
     * the window must hold several of its passes.
     */
    static Window eventPipeWindow(MachineProfile machine) {
        int threads = EVENTPIPE_WRITERS + 2;
        if (threads <= machine.logicalProcessors()) {
            return windowFor(threads);
        }
        return new Window(10_000_000, 40_000_000);
    }

    // ------------------------------------------------------------------ threadpool-global-queue

    private static Experiment threadPoolGlobalQueue() {
        MachineProfile machine = MachinePresets.byName(XEON_32T);
        List<PlannedRow> rows = new ArrayList<>();
        for (QuwiSuite.From from : List.of(QuwiSuite.From.POOL, QuwiSuite.From.THREADS)) { // the table's order
            for (int depth : Quwi.PUBLISHED_DEPTHS) {
                for (int drivers : Quwi.PUBLISHED_DRIVERS) {
                    Window window = windowFor(Math.max(drivers, machine.logicalProcessors()));
                    Workload w = Workloads.create(QuwiSuite.NAME, String.format(Locale.ROOT,
                            "drivers=%d,depth=%d,from=%s,requests=per-item,%s", drivers, depth, from.text(),
                            window.parameters()));
                    rows.add(new PlannedRow(w, machine, claim("threadpool-global-queue", machine.name(), w), SEED));
                }
            }
        }
        MachineProfile quad = MachinePresets.byName(SKYLAKE);
        for (ThreadCount queuers : List.of(ThreadCount.ofAbsolute(1), ThreadCount.ofMultiple(1))) {
            Window window = POOL_BATCH_WINDOW;
            Workload w = Workloads.create(PoolBatch.NAME, String.format(Locale.ROOT,
                    "threads=%s,items=%d,requests=per-item,%s", queuers, POOL_BATCH_ITEMS, window.parameters()));
            rows.add(new PlannedRow(w, quad, claim("threadpool-global-queue", quad.name(), w), SEED));
        }
        return new Experiment("threadpool-global-queue",
                "The thread pool's global queue: QueueSegment (256-slot linked segments, indices packed 16/16 in "
                        + "one int) against ConcurrentQueue (dotnet/coreclr #9234), on a 2-socket Xeon with 32 "
                        + "logical processors; the QUWI matrix as the published table ran it (benaadams/"
                        + "ThreadPoolTaskTesting at 1f5bdf1: drivers queue chain heads in batches without waiting for "
                        + "the chains), chain depth × drivers, with the drivers on the pool ('(TP)') and on dedicated "
                        + "threads; "
                        + "and the PR description's own benchmark on a quad-core hyperthreaded part (pool-batch: "
                        + "one or ProcessorCount threads queue batches of work items that signal a CountdownEvent). "
                        + "The .NET Core 2.0 pool with .NET Core 1.x's queue against itself: both sides request "
                        + "workers per item, as the pool did then, so that only the queue differs.",
                Generation.NETCORE2_0.tuning().with(Knob.GLOBAL_QUEUE, GlobalQueuePolicy.QUEUE_SEGMENT),
                Generation.NETCORE2_0.tuning(), rows,
                List.of("QUWI on a 32-core box: 47 of 50 cells improved (the cells after the change could not be "
                        + "read); the description's batch benchmark on an 8-processor machine: about 2× when one "
                        + "non-pool thread queues and waits, about +50 % when ProcessorCount threads queue"));
    }

    // ------------------------------------------------------------------ monitor-convoy

    private static Experiment monitorConvoy() {
        MachineProfile machine = MachinePresets.byName(SKYLAKE);
        List<PlannedRow> rows = new ArrayList<>();
        for (long hold : List.of(0L, ONE_MICROSECOND)) {
            for (ThreadCount threads : List.of(ThreadCount.ofMultiple(1), ThreadCount.ofMultiple(4),
                    ThreadCount.ofMultiple(16))) {
                Window standard = windowFor(threads, machine);
                long cycle = convoySpinNanos(machine);
                Window window = new Window(cycle + standard.warmupNanos(), Math.max(standard.measureNanos(), 2 * cycle));
                Workload w = new MonitorThroughput(threads, hold, window);
                rows.add(new PlannedRow(w, machine, claim("monitor-convoy", SKYLAKE, w), SEED));
            }
        }
        return new Experiment("monitor-convoy",
                "The Monitor handoff: convoy (no arriving thread may take the lock while one waits; release "
                        + "hands it to the woken waiter) against barging with spinner counting (dotnet/coreclr "
                        + "#13978, fixed by #14216): .NET Core 2.1 with and without that change, on a contended lock, "
                        + "Skylake i7-6700. The convoy side is the 2017 AwareLock, whose raw 50 × 3^k spin lasts "
                        + "about 76 ms on this part before a thread blocks; the warm-up lets the first spin end "
                        + "and the window spans two such spins, since a convoy forms and drains at that period.",
                Generation.NETCORE2_1.tuning().with(Knob.MONITOR, MonitorPolicy.CONVOY), Generation.NETCORE2_1.tuning(),
                rows, List.of());
    }

    /**
     * How long the 2017 AwareLock ({@code monitor=convoy}) spins before it first blocks on
     * {@code machine}: one pass of raw PAUSE delays 50 × 3^k while at most 20,000 × processors,
     * then ten more passes (AwareLock::Contention), all in PAUSEs of the profile's cost (the
     * SwitchToThread calls between them cost next to nothing on an idle-enough machine). Its
     * constants are g_SpinConstants', as {@code ConvoyAwareLock} cites them.
     */
    public static long convoySpinNanos(MachineProfile machine) {
        long maximum = 20_000L * machine.logicalProcessors();
        long pauses = 0;
        for (long delay = 50; delay <= maximum; delay *= 3) {
            pauses += delay;
        }
        return (long) Math.ceil(11 * pauses * machine.pauseNs());
    }

    // ------------------------------------------------------------------ future-cpus

    /**
     * A what-if part: the Skylake i7-6700 preset's costs and clock, with {@code pauseCycles} and
     * {@code processors} logical processors (two per core, except a 4-processor part: 2 × 2).
     */
    public static MachineProfile futureMachine(int pauseCycles, int processors) {
        int cores = Math.max(1, processors / 2);
        return MachinePresets.byName(SKYLAKE).toBuilder()
                .name("future-p" + pauseCycles + "-n" + processors)
                .description("What-if: " + processors + " logical processors, " + pauseCycles + "-cycle PAUSE")
                .pauseCycles(pauseCycles)
                .physicalCores(cores)
                .logicalProcessors(processors)
                .build();
    }

    private static Experiment futureCpus() {
        List<PlannedRow> rows = new ArrayList<>();
        ThreadCount one = ThreadCount.ofMultiple(1);
        for (int processors : FUTURE_PROCESSORS) {
            for (int pause : FUTURE_PAUSE_CYCLES) {
                MachineProfile machine = futureMachine(pause, processors);
                rows.add(new PlannedRow(new MresWaitDrainRate(one, 0, windowFor(one, machine)), machine,
                        Published.none(), SEED));
                rows.add(new PlannedRow(new SpinLockThroughput(one, windowFor(one, machine)), machine,
                        Published.none(), SEED));
            }
        }
        return new Experiment("future-cpus",
                "Today's heuristics (net6: SpinOnce spin, normalized PAUSE, SpinWait spin lock) against the "
                        + ".NET Core 2.0 ones (netcore2.0) on parts that do not exist yet: PAUSE of 1 to 1,000 cycles × "
                        + "4 to 256 logical processors, MresWaitDrainRate and SpinLockThroughput at 1 × "
                        + "processors. Where does the current tuning stop winning?",
                Tuning.legacy(), Tuning.current(), rows, List.of());
    }
}
