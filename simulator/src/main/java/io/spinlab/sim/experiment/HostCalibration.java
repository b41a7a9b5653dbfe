package io.spinlab.sim.experiment;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SampledPauseNormalizer;
import io.spinlab.model.machine.MachineField;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.OperatingSystem;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.EventPipeStress;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Window;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadResult;
import io.spinlab.sim.workload.WorkloadRunner;
import io.spinlab.sim.workload.WorkloadType;
import io.spinlab.sim.workload.Workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The simulator's calibration against this host: measure the host's PAUSE with the production
 * normalization code ({@link SampledPauseNormalizer} on {@link HardwarePlatform}), build a
 * {@link MachineProfile} for the host from it, run every registry workload under several tunings
 * on real threads and in a simulation of that profile, and compare the scores by rank
 * ({@link CalibrationResult#spearman()}).
 *
 * <pre>{@code
 * CalibrationResult r = HostCalibration.run(HostCalibration.Settings.defaults(), point -> { });
 * double rho = r.spearman();
 * }</pre>
 *
 * <p>The host profile takes the measured PAUSE, the processor count the JVM sees (every
 * processor counted as a core: SMT is not detected), the clock from {@code /proc/cpuinfo} when
 * readable (else 3 GHz; it only turns the measured ns into cycles and back), and the OS costs
 * {@link HostCosts} measures (clock read, wake-up latency and its spread, yield, sleep, CAS, line
 * transfer, a switch to a ready thread, the store rate, what an unpark costs the waker) and the
 * cost of one bytecode of guest code ({@link BytecodeCost}); the time slice and
 * SMT are the defaults of {@link MachineProfile#builder}, not measured.
 */
public final class HostCalibration {

    /**
     * Generations every workload runs under: the newest, the oldest, and CoreRT's before corert
     * #7569 (today's spin shape in raw PAUSE counts, the side most sensitive to the PAUSE cost).
     */
    public static final List<String> DEFAULT_TUNINGS = List.of("net6", "netcore2.0", "corert-2019-before");

    /** This host's scheduler rules and tick, read once. */
    public static final HostScheduler HOST_SCHEDULER = HostScheduler.detect();

    private static final double DEFAULT_GHZ = 3.0;
    /**
     * Time slices a default calibration window spans on both sides: with one slice (the 4 ms the
     * simulated side had before), which of three threads on two processors waited out the window
     * decided a point (the 2026-12-04 section of {@code simulator/SIMULATOR-RESULTS.md}).
     */
    public static final int WINDOW_SLICES = 10;
    /** How much longer each retry's window is when a side counted too few operations. */
    private static final int WINDOW_GROWTH = 4;
    /** Retries with a longer window, at most: 40 ms becomes 160 and then 640 ms. */
    private static final int WINDOW_EXTENSIONS = 2;

    /**
     * What a calibration runs.
     *
     * @param hardwareWindow  warm-up and window of each hardware run
     * @param simulatedWindow warm-up and window of each simulated run
     * @param repetitions     hardware runs per point (the median counts, the range is its spread),
     *                        1..{@value #MAX_REPETITIONS}
     * @param seeds           simulated runs per point, seeds 1..n with the machine's run-to-run noise on
     *                        (the median counts), 1..{@link Experiment#MAX_SEEDS}
     * @param tunings         tunings, as {@link Tuning#parse} reads them
     * @param workloads       registry workload names
     * @param wakeSamples     wake-ups {@link HostCosts} measures
     * @param hardwareWarmupNanos real time each point runs on real threads, unmeasured, before its
     *                        repetitions (whole runs, at least one when positive; every tuning of a workload
     *                        is warmed up before the workload's first measured round): the JIT compiles the
     *                        point's code meanwhile, so that the repetitions measure compiled code, as the
     *                        simulator's virtual time assumes; 0..{@value #MAX_HARDWARE_WARMUP_NANOS} ns
     */
    public record Settings(Window hardwareWindow, Window simulatedWindow, int repetitions, int seeds,
                           List<String> tunings, List<String> workloads, int wakeSamples, long hardwareWarmupNanos) {

        /** Most hardware runs per point. */
        public static final int MAX_REPETITIONS = 100;
        /**
         * Hardware runs per point when not told: two halves of five (the "at least 5" each), so that
         * {@link CalibrationResult#hostSelfAgreement()} compares medians as good as the score of a run of five.
         * A default run is 45 ms: the five more cost some 10 s over the 45 points, against minutes of simulation.
         */
        public static final int DEFAULT_REPETITIONS = 10;
        /** Simulated seeds per point when not told: as {@code reproduce}'s rows. */
        public static final int DEFAULT_SEEDS = 3;
        /**
         * Unmeasured real-thread runs per point when not told, in ns of real time: 0.5 s. On this project's
         * 2-core host (2026-12-06, ten 45 ms runs of each point in a row, the points one after another in one
         * fresh JVM) the first one to four runs of a workload scored far below the rest: SemaphoreSlim throughput under net6 262 operations/ms,
         * then 4,929 to 10,913; under netcore2.0 1,069, 3,256, 1,398 and 3,155, then 4,714 to 5,290;
         * MresWaitLatency under net6 2,869 and 8,791, then 24,222 to 33,302. Four runs are 180 ms; 0.5 s
         * leaves room for a slower host.
         */
        public static final long DEFAULT_HARDWARE_WARMUP_NANOS = 500_000_000L;
        /** Most unmeasured real time per point: one minute. */
        public static final long MAX_HARDWARE_WARMUP_NANOS = 60_000_000_000L;

        /** Settings with the default number of wake-ups measured and the default warm-up of each point. */
        public Settings(Window hardwareWindow, Window simulatedWindow, int repetitions, int seeds, List<String> tunings,
                List<String> workloads) {
            this(hardwareWindow, simulatedWindow, repetitions, seeds, tunings, workloads,
                    HostCosts.DEFAULT_WAKE_SAMPLES, DEFAULT_HARDWARE_WARMUP_NANOS);
        }

        public Settings {
            Objects.requireNonNull(hardwareWindow, "hardwareWindow");
            Objects.requireNonNull(simulatedWindow, "simulatedWindow");
            if (repetitions < 1 || repetitions > MAX_REPETITIONS) {
                throw new IllegalArgumentException("repetitions = " + repetitions + " is out of range; allowed 1.."
                        + MAX_REPETITIONS);
            }
            if (seeds < 1 || seeds > Experiment.MAX_SEEDS) {
                throw new IllegalArgumentException("seeds = " + seeds + " is out of range; allowed 1.."
                        + Experiment.MAX_SEEDS);
            }
            if (hardwareWarmupNanos < 0 || hardwareWarmupNanos > MAX_HARDWARE_WARMUP_NANOS) {
                throw new IllegalArgumentException("hardwareWarmupNanos = " + hardwareWarmupNanos
                        + " is out of range; allowed 0.." + MAX_HARDWARE_WARMUP_NANOS);
            }
            tunings = List.copyOf(tunings);
            tunings.forEach(Tuning::parse);
            workloads = List.copyOf(workloads);
            workloads.forEach(Workloads::byName);
        }

        /**
         * The same window on both sides: 5 ms warm-up, then {@value HostCalibration#WINDOW_SLICES} time
         * slices of the host profile (40 ms: calibrate does not measure the slice, so the profile has the
         * builder's 4 ms), so that no point is decided by which threads hold the processors for one
         * slice; 5 repetitions on real threads, 3 seeds with noise simulated; every workload.
         */
        public static Settings defaults() {
            long slice = Math.round(MachineProfile.builder("host").build().timeSliceNs());
            Window window = new Window(5_000_000, WINDOW_SLICES * slice);
            return new Settings(window, window, DEFAULT_REPETITIONS, DEFAULT_SEEDS, DEFAULT_TUNINGS,
                    Workloads.names());
        }

        /** These settings with {@code count} hardware runs and {@code seeds} simulated runs per point. */
        public Settings withRuns(int count, int seedCount) {
            return new Settings(hardwareWindow, simulatedWindow, count, seedCount, tunings, workloads, wakeSamples,
                    hardwareWarmupNanos);
        }

        /** These settings on {@code names} only. */
        public Settings withWorkloads(List<String> names) {
            return new Settings(hardwareWindow, simulatedWindow, repetitions, seeds, tunings, names, wakeSamples,
                    hardwareWarmupNanos);
        }
    }

    private HostCalibration() {
    }

    /** This host's PAUSE cost in ns, measured by the production normalizer (eight samples, minimum). */
    public static double measureNsPerPause() {
        SampledPauseNormalizer normalizer = new SampledPauseNormalizer(HardwarePlatform.INSTANCE);
        normalizer.refreshIfDue();
        return normalizer.nsPerPause();
    }

    /**
     * A profile named {@code host} for this machine: {@code nsPerPause} turned into cycles at the
     * host's clock, every processor the JVM sees, default OS costs.
     */
    public static MachineProfile hostProfile(double nsPerPause) {
        return baseProfile(nsPerPause).build();
    }

    /** {@link #hostProfile(double)} with the OS costs {@code costs} measured on this host. */
    public static MachineProfile hostProfile(double nsPerPause, HostCosts costs) {
        int processors = Runtime.getRuntime().availableProcessors();
        MachineProfile.Builder builder = baseProfile(nsPerPause)
                .description(String.format(Locale.ROOT, "This host: %d processors, PAUSE measured at %.2f ns; "
                        + "measured: %s", processors, nsPerPause, costs.describe()))
                .clockReadNs(Math.round(costs.clockReadNs() * 10) / 10.0)
                .wakeLatencyNs(Math.round(costs.wakeLatencyNs()))
                .wakeJitterPercent(Math.round(costs.wakeJitterPercent()))
                .yieldIdleNs(Math.round(costs.yieldIdleNs()))
                .sleepGranularityNs(Math.max(1_000, Math.round(costs.sleepGranularityNs())));
        // The machine costs where they were measured (a figure that could not be, NaN, keeps the default).
        if (costs.casNs() > 0) {
            builder.atomicOpNs(Math.round(costs.casNs() * 10) / 10.0);
        }
        if (costs.lineTransferNs() > 0) {
            builder.cacheLineTransferNs(Math.round(costs.lineTransferNs()));
        }
        if (costs.invalidationNs() >= 0) {
            builder.invalidationNs(Math.round(costs.invalidationNs()));
        }
        if (costs.storeBytesPerNs() > 0) {
            // Bytes per cycle at the profile's clock; a figure outside the field's range (a clock
            // misread) keeps the default, and the description still shows what was measured.
            double ghz = hostProfile(nsPerPause).frequencyGhz();
            double perCycle = Math.round(costs.storeBytesPerNs() / ghz * 10) / 10.0;
            if (perCycle >= MachineField.STORE_BYTES_PER_CYCLE.min()
                    && perCycle <= MachineField.STORE_BYTES_PER_CYCLE.max()) {
                builder.storeBytesPerCycle(perCycle);
            }
        }
        if (costs.unparkNs() > 0) {
            builder.wakeCallNs(Math.round(costs.unparkNs()));
        }
        if (costs.yieldReadyNs() > 0) {
            // A yield to a ready thread is a switch to it: the same cost serves both fields.
            builder.yieldReadyNs(Math.round(costs.yieldReadyNs())).contextSwitchNs(Math.round(costs.yieldReadyNs()));
        }
        return withTick(builder.build(), HOST_SCHEDULER);
    }

    /**
     * {@code host} with the scheduler tick of {@code scheduler} as its time slice, where it runs
     * Linux's EEVDF rules and the tick was read (said in its description); unchanged otherwise.
     */
    static MachineProfile withTick(MachineProfile host, HostScheduler scheduler) {
        if (!scheduler.setsTimeSlice()) {
            return host;
        }
        return host.toBuilder().timeSliceNs(scheduler.tickNs())
                .description(host.description() + String.format(Locale.ROOT, ", scheduler tick %.1f ms (%s)",
                        scheduler.tickNs() / 1e6, scheduler.tickSource()))
                .build();
    }

    /**
     * {@code host} with the measured cost of one bytecode as its {@code cyclesPerBytecode} (three
     * decimals) and said in its description; unchanged when the measurement is not usable.
     */
    static MachineProfile withBytecodeCost(MachineProfile host, BytecodeCost bytecode) {
        if (!bytecode.usable()) {
            return host;
        }
        double cycles = Math.round(bytecode.cyclesPerBytecode() * 1000) / 1000.0;
        return host.toBuilder().cyclesPerBytecode(cycles)
                .description(host.description() + String.format(Locale.ROOT, ", one bytecode of guest code %.3f "
                        + "cycles", cycles))
                .build();
    }

    private static MachineProfile.Builder baseProfile(double nsPerPause) {
        int processors = Runtime.getRuntime().availableProcessors();
        double ghz = hostGhz().orElse(DEFAULT_GHZ);
        int cycles = (int) Math.max(0, Math.min(10_000, Math.round(nsPerPause * ghz)));
        return MachineProfile.builder("host")
                .description(String.format(Locale.ROOT, "This host: %d processors, PAUSE measured at %.2f ns",
                        processors, nsPerPause))
                .frequencyGhz(Math.round(ghz * 100) / 100.0)
                .pauseCycles(cycles)
                .physicalCores(processors)
                .logicalProcessors(processors)
                .atomicOpNs(Math.round(20 / ghz * 10) / 10.0)
                .os(HOST_SCHEDULER.os());
    }

    /** The first {@code cpu MHz} of {@code /proc/cpuinfo}, in GHz, if there is one. */
    static Optional<Double> hostGhz() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuinfo)) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
                if (line.startsWith("cpu MHz")) {
                    int colon = line.indexOf(':');
                    double mhz = Double.parseDouble(line.substring(colon + 1).strip());
                    return mhz > 10 ? Optional.of(mhz / 1000) : Optional.empty();
                }
            }
        } catch (IOException | NumberFormatException | StringIndexOutOfBoundsException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * Measures the host, then runs every workload of {@code settings} under every tuning on real
     * threads and in the simulator, calling {@code onPoint} after each point.
     *
     * @throws InterruptedException if interrupted during a hardware run
     */
    public static CalibrationResult run(Settings settings, Consumer<CalibrationPoint> onPoint)
            throws InterruptedException {
        double ns = measureNsPerPause();
        HostCosts costs = HostCosts.measure(settings.wakeSamples());
        MachineProfile measured = hostProfile(ns, costs);
        BytecodeCost bytecode = BytecodeCost.measure(measured);
        MachineProfile host = withBytecodeCost(measured, bytecode);
        ContendedCasCheck casLoop = ContendedCasCheck.measure(host, ContendedCasCheck.Loop.WORD);
        ContendedCasCheck ringLoop = ContendedCasCheck.measure(host, ContendedCasCheck.Loop.RING);
        HandoverCheck handovers = HandoverCheck.measure(host);
        PollingReaderCheck pollingReader = PollingReaderCheck.measure(host);
        YieldCheck yields = YieldCheck.measure(host);
        WakeCheck wakes = WakeCheck.measure(host);
        List<CalibrationPoint> points = new ArrayList<>();
        int threads = Math.max(1, Math.min(settings.seeds(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "calibrate-simulation");
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (String name : settings.workloads()) {
                WorkloadType type = Workloads.byName(name);
                List<Tuning> tunings = settings.tunings().stream().map(Tuning::parse).toList();
                for (Tuning tuning : tunings) {
                    WorkloadRunner.warmUpOnHardware(type.create(parameters(type, settings.hardwareWindow())), tuning,
                            settings.hardwareWarmupNanos());
                }
                double transferBefore = HostCosts.lineTransfer();
                List<Measured> hardware = interleaved(type, settings.hardwareWindow(), settings.repetitions(), tunings,
                        WorkloadRunner::onHardware);
                double transferAfter = HostCosts.lineTransfer();
                MachineProfile workloadHost = withLineTransfer(host, transferBefore, transferAfter);
                for (int i = 0; i < tunings.size(); i++) {
                    Tuning tuning = tunings.get(i);
                    Measured real = hardware.get(i);
                    Window simulatedFirst = simulatedWindow(settings, real);
                    // From the real runs' lengthened window: no longer one (the real runs stopped there too).
                    int extensions = simulatedFirst.equals(settings.simulatedWindow()) ? WINDOW_EXTENSIONS : 0;
                    Measured simulated = simulated(pool, type, simulatedFirst, extensions, settings.seeds(),
                            workloadHost, tuning);
                    CalibrationPoint point = new CalibrationPoint(name, real.parameters(), tuning.describe(),
                            real.spread().median(), simulated.failed() ? Double.NaN : simulated.spread().median(),
                            real.fewest(), simulated.failed() ? -1 : simulated.fewest(), real.spread(),
                            simulated.spread(), simulated.parameters(), real.busy(), simulated.busy(),
                            transferBefore, transferAfter, workloadHost.cacheLineTransferNs());
                    points.add(point);
                    onPoint.accept(point);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new CalibrationResult(host, ns, points, costs, bytecode, HostCosts.lineTransfer(), casLoop, ringLoop,
                handovers, pollingReader, yields, wakes);
    }

    /**
     * Parameters a workload is calibrated with besides its defaults and the window: EventPipe's stress run in
     * the regime of the {@code eventpipe-lockless} rows (a 16 MB limit that the writers fill, so that the
     * reader has buffers to free); with its default 256 MB limit a 2-core host read nothing in any window.
     */
    static final Map<String, String> CALIBRATION_PARAMETERS =
            Map.of(EventPipeStress.NAME, "limit=" + Experiments.EVENTPIPE_LIMIT);

    /**
     * Where the simulated runs of a point start: the settings' simulated window (by default the real runs'
     * own), or the real runs' window where those had to be lengthened to count enough operations, since then
     * the workload's start-up is what the shorter window would measure.
     */
    static Window simulatedWindow(Settings settings, Measured hardware) {
        Window real = hardware.window();
        return real != null && real.measureNanos() > settings.hardwareWindow().measureNanos() ? real
                : settings.simulatedWindow();
    }

    /** The parameters of {@code type}'s calibration runs in {@code window}. */
    static String parameters(WorkloadType type, Window window) {
        String extra = CALIBRATION_PARAMETERS.get(type.name());
        return extra == null ? window.parameters() : extra + "," + window.parameters();
    }

    /**
     * One side of a point: the parameters it ran with, its scores, the fewest operations a run counted, the
     * median of the processors its runs kept busy (NaN when not measured), and the window it ran in (null until
     * {@link #extending} sets it).
     */
    record Measured(String parameters, Spread spread, long fewest, boolean failed, double busy, Window window) {
        Measured(String parameters, Spread spread, long fewest, boolean failed) {
            this(parameters, spread, fewest, failed, Double.NaN, null);
        }

        Measured(String parameters, Spread spread, long fewest, boolean failed, double busy) {
            this(parameters, spread, fewest, failed, busy, null);
        }

        boolean tooFew() {
            return !failed && fewest < ExperimentRow.MIN_OPERATIONS;
        }

        Measured in(Window w) {
            return new Measured(parameters, spread, fewest, failed, busy, w);
        }
    }

    /** The median of {@code values}, NaN when there are none (the upper median of an even count). */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /**
     * The process's processor time so far, ns, or −1 where the JVM does not report it. Read around a
     * real-thread run (nothing else of spinlab runs then), it tells how many processors the run kept busy:
     * its threads' working, spinning and yielding, and the JVM's own compiler and collector threads.
     */
    static long processCpuNanos() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The runs of one side of a point in one window. */
    @FunctionalInterface
    interface SideRun {
        Measured run(Window window) throws InterruptedException;
    }

    /**
     * {@code side} in {@code first}; while a run counts fewer than {@link ExperimentRow#MIN_OPERATIONS}
     * operations, again in a window {@value #WINDOW_GROWTH} times longer (the same warm-up), at most
     * {@value #WINDOW_EXTENSIONS} times: the last window's runs count, measurable or not. A failed
     * run is not retried.
     */
    static Measured extending(Window first, SideRun side) throws InterruptedException {
        return extending(first, WINDOW_EXTENSIONS, side);
    }

    /** As {@link #extending(Window, SideRun)}, lengthening the window at most {@code extensions} times. */
    static Measured extending(Window first, int extensions, SideRun side) throws InterruptedException {
        Window window = first;
        for (int extension = 0; ; extension++) {
            Measured measured = side.run(window);
            if (!measured.tooFew() || extension == extensions) {
                return measured.in(window);
            }
            window = new Window(window.warmupNanos(), window.measureNanos() * WINDOW_GROWTH);
        }
    }

    /** One run of a workload on this host's real threads (in production {@link WorkloadRunner#onHardware}). */
    @FunctionalInterface
    interface HardwareRun {
        WorkloadResult run(Workload workload, Tuning tuning) throws InterruptedException;
    }

    /**
     * The real-thread side of every point of one workload: {@code repetitions} rounds, each of which runs
     * every tuning once, the first of round {@code r} being tuning {@code r mod n} and the rest following in
     * their order. Run one tuning after another, the points met the host at different minutes, and this
     * host's speed moves from minute to minute (its virtual processors move between the machine's cores:
     * the line transfer measured 232 ns before one run and 26 ns after it, 2026-12-06); in rounds, each
     * tuning's runs are spread over the same minutes, so that a drift falls on every tuning of the workload
     * alike and the order of two tunings is not the order of their minutes. A tuning whose runs counted fewer
     * than {@link ExperimentRow#MIN_OPERATIONS} operations runs again, alone and {@link #extending}, in
     * longer windows. Returns one side per tuning, in the order of {@code tunings}; each side's scores are in
     * the order of its rounds (see {@link CalibrationResult#hostSelfAgreement()}).
     */
    static List<Measured> interleaved(WorkloadType type, Window first, int repetitions, List<Tuning> tunings,
            HardwareRun hardware) throws InterruptedException {
        int n = tunings.size();
        Workload workload = type.create(parameters(type, first));
        List<List<Double>> scores = new ArrayList<>();
        List<List<Double>> busy = new ArrayList<>();
        long[] fewest = new long[n];
        for (int i = 0; i < n; i++) {
            scores.add(new ArrayList<>());
            busy.add(new ArrayList<>());
            fewest[i] = Long.MAX_VALUE;
        }
        for (int round = 0; round < repetitions; round++) {
            for (int k = 0; k < n; k++) {
                int i = (round + k) % n;
                Run run = timed(workload, tunings.get(i), hardware);
                scores.get(i).add(run.result().opsPerMs());
                fewest[i] = Math.min(fewest[i], run.result().operations());
                if (!Double.isNaN(run.busy())) {
                    busy.get(i).add(run.busy());
                }
            }
        }
        List<Measured> sides = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Measured side = new Measured(workload.parameters(), Spread.of(scores.get(i)), fewest[i], false,
                    median(busy.get(i)), first);
            if (side.tooFew()) {
                Tuning tuning = tunings.get(i);
                side = extending(new Window(first.warmupNanos(), first.measureNanos() * WINDOW_GROWTH),
                        WINDOW_EXTENSIONS - 1, window -> inARow(type, window, repetitions, tuning, hardware));
            }
            sides.add(side);
        }
        return sides;
    }

    /** {@code repetitions} real-thread runs of one tuning in a row, in {@code window}. */
    private static Measured inARow(WorkloadType type, Window window, int repetitions, Tuning tuning,
            HardwareRun hardware) throws InterruptedException {
        Workload workload = type.create(parameters(type, window));
        List<Double> scores = new ArrayList<>();
        List<Double> busy = new ArrayList<>();
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < repetitions; i++) {
            Run run = timed(workload, tuning, hardware);
            scores.add(run.result().opsPerMs());
            fewest = Math.min(fewest, run.result().operations());
            if (!Double.isNaN(run.busy())) {
                busy.add(run.busy());
            }
        }
        return new Measured(workload.parameters(), Spread.of(scores), fewest, false, median(busy));
    }

    /** One real-thread run and the processors it kept busy (NaN where the JVM does not report its processor time). */
    private record Run(WorkloadResult result, double busy) {
    }

    private static Run timed(Workload workload, Tuning tuning, HardwareRun hardware) throws InterruptedException {
        long cpuBefore = processCpuNanos();
        long wallBefore = System.nanoTime();
        WorkloadResult result = hardware.run(workload, tuning);
        long wall = System.nanoTime() - wallBefore;
        long cpuAfter = processCpuNanos();
        double busy = cpuBefore >= 0 && cpuAfter >= 0 && wall > 0 ? (double) (cpuAfter - cpuBefore) / wall
                : Double.NaN;
        return new Run(result, busy);
    }

    /**
     * The host profile with the cache-line transfer a point's real-thread runs met: the mean of the two
     * measurements made just before and just after them (this host's two virtual processors move between
     * the physical cores, and with them the transfer: 26 and 232 ns in one run of 2026-12-06), rounded to a
     * tenth of a ns, and the invalidation keeping its share of the transfer; the profile's own figures where
     * either measurement is missing (one processor).
     */
    static MachineProfile withLineTransfer(MachineProfile host, double beforeNs, double afterNs) {
        if (!(beforeNs > 0) || !(afterNs > 0)) {
            return host;
        }
        double mean = Math.round((beforeNs + afterNs) / 2 * 10) / 10.0;
        double invalidation = host.cacheLineTransferNs() > 0
                ? Math.round(host.invalidationNs() * mean / host.cacheLineTransferNs() * 10) / 10.0
                : host.invalidationNs();
        return host.toBuilder().cacheLineTransferNs(mean).invalidationNs(invalidation).build();
    }

    /**
     * {@code seeds} simulated runs (seeds 1..n, noise on) at once on {@code pool}, after the real-thread
     * runs of the point are over so that they never share the processors; extended like {@link #onHardware}.
     */
    private static Measured simulated(ExecutorService pool, WorkloadType type, Window first, int extensions,
            int seeds, MachineProfile host, Tuning tuning) throws InterruptedException {
        return extending(first, extensions, window -> {
            Workload workload = type.create(parameters(type, window));
            List<Future<SimulatedRun>> runs = new ArrayList<>();
            for (int seed = 1; seed <= seeds; seed++) {
                long s = seed;
                runs.add(pool.submit(() -> WorkloadRunner.simulate(workload.name(), workload.parameters(), tuning,
                        Simulation.builder(host).seed(s).faults(Faults.none()).budgets(Experiment.ROW_BUDGETS)
                                .memoryModel(true).noise(true))));
            }
            List<Double> scores = new ArrayList<>();
            List<Double> busy = new ArrayList<>();
            long fewest = Long.MAX_VALUE;
            boolean failed = false;
            for (Future<SimulatedRun> future : runs) {
                SimulatedRun run;
                try {
                    run = future.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a simulated calibration run of " + workload.name() + " under "
                            + tuning.describe() + " threw", e.getCause());
                }
                if (run.simulation().completed() && run.workloadResult().isPresent()) {
                    scores.add(run.workloadResult().get().opsPerMs());
                    fewest = Math.min(fewest, run.workloadResult().get().operations());
                    busy.add(Experiment.busyProcessorsOverRun(run.simulation().metrics())); // as the host's side measures it
                } else {
                    failed = true;
                }
            }
            return failed ? new Measured(workload.parameters(), Spread.of(List.of(Double.NaN)), -1, true)
                    : new Measured(workload.parameters(), Spread.of(scores), fewest, false, median(busy));
        });
    }
}
