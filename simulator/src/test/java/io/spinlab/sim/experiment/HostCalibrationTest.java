package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.OperatingSystem;
import io.spinlab.sim.workload.Window;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The calibration measures this host, builds its profile, and pairs hardware with simulated scores. */
class HostCalibrationTest {

    @Test
    void shouldTakeTheMedianOfTheBusyProcessorsAndReadTheProcessTime() {
        assertThat(HostCalibration.median(List.of(1.9, 0.4, 1.1))).isEqualTo(1.1);
        assertThat(HostCalibration.median(List.of(1.0, 2.0))).isEqualTo(2.0);
        assertThat(HostCalibration.median(List.of())).isNaN();
        // HotSpot reports the process's processor time; it only grows
        long before = HostCalibration.processCpuNanos();
        long spun = 0;
        for (int i = 0; i < 5_000_000; i++) {
            spun += i % 7;
        }
        assertThat(spun).isPositive();
        assertThat(before).isNotNegative();
        assertThat(HostCalibration.processCpuNanos()).isGreaterThanOrEqualTo(before);
        CalibrationPoint old = new CalibrationPoint("w", "p", "t", 1, 1, 100, 100);
        assertThat(old.hardwareBusy()).isNaN();
        assertThat(old.simulatedBusy()).isNaN();
    }

    @Test
    void shouldBuildHostProfileWhenPauseIsMeasured() {
        double ns = HostCalibration.measureNsPerPause();

        MachineProfile host = HostCalibration.hostProfile(ns);

        // Every PAUSE (or its stand-in, e.g. an ISB or YIELD) costs some fraction of a ns to a few
        // hundred ns; a measurement outside that range is a broken measurement, not a slow host.
        assertThat(ns).as("ns per PAUSE").isBetween(0.05, 1_000.0);
        assertThat(host.name()).isEqualTo("host");
        assertThat(host.physicalCores()).as("SMT is not detected: every processor counts as a core")
                .isEqualTo(host.logicalProcessors());
        assertThat(host.pauseNs()).as("half a cycle of rounding at most")
                .isCloseTo(ns, within(Math.max(0.5, ns * 0.05)));
    }

    @Test
    void shouldTurnAPauseCostIntoCyclesAtTheHostClockWhenProfiled() {
        MachineProfile ten = HostCalibration.hostProfile(10.0);
        MachineProfile forty = HostCalibration.hostProfile(40.0);

        assertThat(forty.pauseCycles()).as("four times the cost, four times the cycles (to rounding)")
                .isCloseTo(4 * ten.pauseCycles(), within(2));
        assertThat(forty.pauseNs()).as("a cycle of rounding at most").isCloseTo(40.0, within(1.0));
        assertThat(HostCalibration.hostProfile(0.0).pauseCycles()).isZero();
    }

    @Test
    void shouldTakeTheMeasuredOsCostsIntoTheHostProfile() {
        // Wake-ups 4.2, 6.1 and 9.4 µs at the 10th, 50th and 90th percentile: a uniform draw whose
        // central 80 % spans 5.2 µs has a half-width of 3.25 µs, 53 % of the median.
        HostCosts costs = new HostCosts(30.44, 6_100, 4_200, 9_400, 310, 1_058_000, 2_000);
        assertThat(costs.wakeJitterPercent()).isCloseTo(5_200 / 0.8 / 2 / 6_100 * 100, within(1e-9));

        MachineProfile host = HostCalibration.hostProfile(20.0, costs);
        assertThat(host.clockReadNs()).isEqualTo(30.4);
        assertThat(host.wakeLatencyNs()).isEqualTo(6_100);
        assertThat(host.wakeJitterPercent()).isEqualTo(53);
        assertThat(host.yieldIdleNs()).isEqualTo(310);
        assertThat(host.sleepGranularityNs()).isEqualTo(1_058_000);
        assertThat(host.description()).contains("wake-up 6.1 µs (p10 4.2, p90 9.4 µs over 2000");
        assertThat(new HostCosts(30, 1_000, 0, 100_000, 300, 1e6, 10).wakeJitterPercent()).isEqualTo(100);
        // Without the machine figures the defaults stay.
        assertThat(host.atomicOpNs()).isEqualTo(HostCalibration.hostProfile(20.0).atomicOpNs());
        assertThat(host.wakeCallNs()).isEqualTo(HostCalibration.hostProfile(20.0).wakeCallNs());
    }

    @Test
    void shouldTakeTheMeasuredAtomicLineTransferAndSwitchCostsIntoTheHostProfile() {
        HostCosts costs = new HostCosts(30.44, 6_100, 4_200, 9_400, 310, 1_058_000, 2_000, 6.27, 48.6, 2_300, 2_950);
        MachineProfile host = HostCalibration.hostProfile(20.0, costs);
        assertThat(host.atomicOpNs()).isEqualTo(6.3);
        assertThat(host.cacheLineTransferNs()).isEqualTo(49);
        assertThat(host.yieldReadyNs()).isEqualTo(2_950);
        assertThat(host.contextSwitchNs()).isEqualTo(2_950);
        assertThat(host.wakeCallNs()).as("the waker's cost of an unpark").isEqualTo(2_300);
        assertThat(host.description()).contains("CAS 6.3 ns, line transfer 49 ns, unpark 2.3 µs to the waker, "
                + "yield to a ready thread 2950 ns");
        HostCosts oneProcessor = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1e6, 10, 6, Double.NaN, 2_000, 3_000);
        assertThat(HostCalibration.hostProfile(20.0, oneProcessor).cacheLineTransferNs())
                .isEqualTo(HostCalibration.hostProfile(20.0).cacheLineTransferNs());
        assertThat(oneProcessor.describe()).contains("line transfer not measurable (one processor)");
    }

    @Test
    void shouldTakeTheReadingHandoverLessTheCasOneAsTheInvalidationAndNoLessThanZero() {
        HostCosts slowerReader = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1e6, 10, 6, 40, 2_000, 3_000, Double.NaN,
                63.4);
        HostCosts quickerReader = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1e6, 10, 6, 270, 2_000, 3_000,
                Double.NaN, 225);
        HostCosts readerUnmeasured = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1e6, 10, 6, 40, 2_000, 3_000);

        assertThat(slowerReader.invalidationNs()).isCloseTo(23.4, within(1e-9));
        assertThat(HostCalibration.hostProfile(20.0, slowerReader).invalidationNs()).isEqualTo(23);
        assertThat(quickerReader.invalidationNs()).isZero();
        assertThat(HostCalibration.hostProfile(20.0, quickerReader).invalidationNs()).isZero();
        assertThat(readerUnmeasured.invalidationNs()).isNaN();
        assertThat(HostCalibration.hostProfile(20.0, readerUnmeasured).invalidationNs())
                .isEqualTo(HostCalibration.hostProfile(20.0).invalidationNs());
        assertThat(slowerReader.describe()).contains("line transfer 40 ns (CAS ping-pong; to a reader 63 ns)");
    }

    @Test
    void shouldTakeTheMeasuredStoreRateAsBytesPerCycleAtTheHostClock() {
        double ghz = HostCalibration.hostProfile(20.0).frequencyGhz();
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1e6, 10, 6, 40, 2_000, 3_000, 25.0 * ghz);

        MachineProfile host = HostCalibration.hostProfile(20.0, costs);

        assertThat(host.storeBytesPerCycle()).isEqualTo(25.0);
        assertThat(costs.describe()).endsWith(String.format(java.util.Locale.ROOT,
                ", stores %.1f bytes/ns copying within L1", 25.0 * ghz));
        HostCosts misread = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1e6, 10, 6, 40, 2_000, 3_000, 5_000 * ghz);
        assertThat(HostCalibration.hostProfile(20.0, misread).storeBytesPerCycle())
                .as("out of the field's range: the default stays").isEqualTo(HostCalibration.hostProfile(20.0)
                        .storeBytesPerCycle());
    }

    @Test
    void shouldTakeTheKernelsTickAsTheTimeSliceUnderEevdfOnly() {
        MachineProfile host = HostCalibration.hostProfile(20.0).toBuilder().os(OperatingSystem.LINUX).build();

        MachineProfile thousandHz = HostCalibration.withTick(host,
                new HostScheduler(OperatingSystem.LINUX, 1_000_000, "CONFIG_HZ=1000 in /boot/config-6.8.0"));

        assertThat(thousandHz.timeSliceNs()).isEqualTo(1_000_000);
        assertThat(thousandHz.description()).endsWith(", scheduler tick 1.0 ms (CONFIG_HZ=1000 in /boot/config-6.8.0)");
        assertThat(HostCalibration.withTick(host, new HostScheduler(OperatingSystem.LINUX, 0, "none readable")))
                .as("no tick read: the default slice").isEqualTo(host);
        assertThat(HostCalibration.withTick(host, new HostScheduler(OperatingSystem.LINUX_CFS, 1_000_000, "x")))
                .as("CFS keeps its slice").isEqualTo(host);
    }

    @Test
    void shouldLeavePointsThatMeasureNothingOutOfTheCorrelations() {
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000);
        List<CalibrationPoint> points = List.of(
                point("a", "net6", List.of(98.0, 99.0, 100.0, 101.0, 102.0), List.of(10.0)),
                point("a", "netcore2.0", List.of(198.0, 199.0, 200.0, 201.0, 202.0), List.of(20.0)),
                new CalibrationPoint("b", "", "net6", 300, 30, 6_000, 6_000),
                // Measures nothing on either side: a 0 against a 0 would otherwise join the ranks.
                new CalibrationPoint("c", "", "net6", 0, 0, 0, 0),
                new CalibrationPoint("c", "", "netcore2.0", 40, Double.NaN, 800, -1));
        CalibrationResult result = new CalibrationResult(HostCalibration.hostProfile(20, costs), 20, points, costs);

        assertThat(result.measurable()).extracting(CalibrationPoint::workload).containsExactly("a", "a", "b");
        assertThat(result.notMeasurable()).hasSize(2);
        assertThat(points.get(3).notMeasurable()).hasValue("hardware counted 0 and simulated counted 0 operations "
                + "(fewer than 100)");
        assertThat(points.get(4).notMeasurable()).hasValue("the simulated run failed");
        // Over the three measurable points the ranks agree exactly, too few points for an interval.
        assertThat(result.spearman()).isEqualTo(1.0);
        assertThat(result.spearmanInterval().known()).isFalse();
        assertThat(result.tuningOrderAgreement()).isEqualTo(1.0);
        assertThat(result.tuningOrderAgreementInterval()).isEqualTo(ConfidenceInterval.wilson(1, 1));
    }

    @Test
    void shouldLeavePointsWhoseRunsScoredMoreThanTenfoldApartOutOfTheCorrelations() {
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000);
        List<CalibrationPoint> points = List.of(
                point("a", "net6", List.of(98.0, 99.0, 100.0, 101.0, 102.0), List.of(10.0, 11.0, 12.0)),
                point("a", "netcore2.0", List.of(198.0, 199.0, 200.0, 201.0, 202.0), List.of(20.0, 21.0, 22.0)),
                // MresWaitLatency's real-thread runs in the eighteenth session's calibration: bursts, not a rate.
                point("a", "corert-2019-before", List.of(523.0, 1_200.0, 4_000.0, 9_000.0, 11_652.0),
                        List.of(1.0, 1.5, 2.0)),
                // Exactly ten times apart is still a rate; one run cannot be apart.
                point("b", "net6", List.of(100.0, 1_000.0), List.of(50.0)),
                point("b", "netcore2.0", List.of(300.0), List.of(100.0, 1_001.0)));
        CalibrationResult result = new CalibrationResult(HostCalibration.hostProfile(20, costs), 20, points, costs);

        assertThat(points.get(2).notMeasurable()).hasValue("the 5 real-thread runs scored 22.3× apart (523.0 to "
                + "11652.0 per ms; more than 10×)");
        assertThat(points.get(3).notMeasurable()).isEmpty();
        assertThat(points.get(4).notMeasurable()).hasValue("the 2 simulated seeds scored 10.0× apart (100.0 to 1001.0 "
                + "per ms; more than 10×)");
        assertThat(point("c", "net6", List.of(1.0, 20.0), List.of(1.0, 20.0)).notMeasurable()).hasValue("the 2 "
                + "real-thread runs scored 20.0× apart (1.0 to 20.0 per ms; more than 10×) and the 2 simulated seeds "
                + "scored 20.0× apart (1.0 to 20.0 per ms; more than 10×)");
        assertThat(result.measurable()).containsExactly(points.get(0), points.get(1), points.get(3));
        assertThat(result.notMeasurable()).containsExactly(points.get(2), points.get(4));
        // Over the three measurable points the ranks agree exactly; with the burst point, its pairs with a's other
        // tunings (told apart on the host, reversed in the simulator) would have counted as ordered otherwise.
        assertThat(result.spearman()).isEqualTo(1.0);
        assertThat(result.tuningOrderAgreement()).isEqualTo(1.0);
        assertThat(result.tuningPairs().distinguishable()).isEqualTo(1);
    }

    @Test
    void shouldSayWhenTheLineTransferMovedMoreThanTwofoldDuringTheRuns() {
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000, 5.4, 100, 7_000, 1_700);
        MachineProfile host = HostCalibration.hostProfile(20, costs);

        assertThat(result(host, costs, 199).lineTransferMoved()).isFalse();
        assertThat(result(host, costs, 201).lineTransferMoved()).isTrue();
        assertThat(result(host, costs, 50).lineTransferMoved()).isFalse();
        assertThat(result(host, costs, 49).lineTransferMoved()).isTrue();
        assertThat(result(host, costs, Double.NaN).lineTransferMoved()).isFalse();
        assertThat(new CalibrationResult(host, 20, List.of(), costs).lineTransferAfterNs()).isNaN();
        HostCosts oneProcessor = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000, 5.4, Double.NaN,
                7_000, 1_700);
        assertThat(result(host, oneProcessor, 500).lineTransferMoved()).isFalse();
    }

    private static CalibrationResult result(MachineProfile host, HostCosts costs, double after) {
        return new CalibrationResult(host, 20, List.of(), costs, BytecodeCost.unmeasured(), after);
    }

    @Test
    void shouldRunBothSidesOfEveryPointOverTenTimeSlicesOfTheHostProfileByDefault() {
        HostCalibration.Settings defaults = HostCalibration.Settings.defaults();

        assertThat(defaults.simulatedWindow()).isEqualTo(defaults.hardwareWindow());
        assertThat((double) defaults.simulatedWindow().measureNanos())
                .isEqualTo(HostCalibration.WINDOW_SLICES * HostCalibration.hostProfile(40).timeSliceNs());
        assertThat(defaults.simulatedWindow().parameters()).isEqualTo("warmup=5ms,window=40ms");
    }

    @Test
    void shouldWarmEachPointUpOnRealThreadsBeforeItsMeasuredRunsByDefault() throws InterruptedException {
        HostCalibration.Settings defaults = HostCalibration.Settings.defaults();
        assertThat(defaults.hardwareWarmupNanos()).isEqualTo(HostCalibration.Settings.DEFAULT_HARDWARE_WARMUP_NANOS);
        assertThat(defaults.withRuns(3, 2).hardwareWarmupNanos()).isEqualTo(defaults.hardwareWarmupNanos());
        assertThat(defaults.withWorkloads(List.of("spinlock-throughput")).hardwareWarmupNanos())
                .isEqualTo(defaults.hardwareWarmupNanos());

        io.spinlab.sim.workload.Workload workload = io.spinlab.sim.workload.Workloads.create("spinlock-throughput",
                new Window(100_000, 1_000_000).parameters());
        io.spinlab.model.tuning.Tuning current = io.spinlab.model.tuning.Tuning.current();
        assertThat(io.spinlab.sim.workload.WorkloadRunner.warmUpOnHardware(workload, current, 0)).isZero();
        // Whole runs until the time is up, at least one for any positive time.
        assertThat(io.spinlab.sim.workload.WorkloadRunner.warmUpOnHardware(workload, current, 20_000_000))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void shouldSimulateEachPointWithTheLineTransferItsRealRunsMet() {
        MachineProfile host = HostCalibration.hostProfile(20);
        assertThat(HostCalibration.withLineTransfer(host, 232, 26).cacheLineTransferNs()).isEqualTo(129.0);
        assertThat(HostCalibration.withLineTransfer(host, 30.04, 30.1).cacheLineTransferNs()).isEqualTo(30.1);
        assertThat(HostCalibration.withLineTransfer(host, Double.NaN, 26)).isSameAs(host);
        assertThat(HostCalibration.withLineTransfer(host, 26, Double.NaN)).isSameAs(host);
        MachineProfile upgrading = host.toBuilder().cacheLineTransferNs(40).invalidationNs(20).build();
        assertThat(HostCalibration.withLineTransfer(upgrading, 80, 82).invalidationNs())
                .as("the invalidation keeps its share of the transfer").isEqualTo(40.5);

        Spread one = Spread.of(List.of(1.0));
        CalibrationPoint steady = new CalibrationPoint("w", "p", "t", 1, 1, 100, 100, one, one, "p", 1, 1, 200, 110,
                155);
        CalibrationPoint moved = new CalibrationPoint("w", "p", "t", 1, 1, 100, 100, one, one, "p", 1, 1, 232, 26,
                129);
        CalibrationPoint unmeasured = new CalibrationPoint("w", "p", "t", 1, 1, 100, 100, one, one, "p", 1, 1);
        assertThat(steady.lineTransferMoved()).isFalse();
        assertThat(moved.lineTransferMoved()).isTrue();
        assertThat(unmeasured.lineTransferMoved()).isFalse();
        assertThat(unmeasured.simulatedLineTransferNs()).isNaN();
    }

    @Test
    void shouldRejectAWarmupOutsideItsRange() {
        Window w = new Window(1_000_000, 2_000_000);
        assertThatThrownBy(() -> new HostCalibration.Settings(w, w, 1, 1, List.of("current"),
                List.of("spinlock-throughput"), 10, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hardwareWarmupNanos = -1 is out of range; allowed 0..60000000000");
    }

    @Test
    void shouldCalibrateEventPipeInTheRegimeOfItsPublishedRows() {
        io.spinlab.sim.workload.Window window = new io.spinlab.sim.workload.Window(5_000_000, 20_000_000);
        String eventPipe = HostCalibration.parameters(io.spinlab.sim.workload.Workloads.byName("eventpipe-stress"), window);
        assertThat(eventPipe).isEqualTo("limit=" + Experiments.EVENTPIPE_LIMIT + "," + window.parameters());
        assertThat(io.spinlab.sim.workload.Workloads.byName("eventpipe-stress").create(eventPipe).parameters())
                .contains("limit=16mb", "reader-interval=" + Experiments.EVENTPIPE_READER_INTERVAL, "threads=32");
        assertThat(HostCalibration.parameters(io.spinlab.sim.workload.Workloads.byName("spinlock-throughput"), window))
                .isEqualTo(window.parameters());
    }

    @Test
    void shouldLengthenTheWindowFourfoldAtMostTwiceWhileARunCountsTooFew() throws InterruptedException {
        List<Long> windows = new ArrayList<>();
        // A side that counts one operation per 100 µs of window: 10 in 1 ms, 40 in 4 ms, 160 in 16 ms.
        HostCalibration.Measured slow = HostCalibration.extending(new Window(500_000, 1_000_000), window -> {
            windows.add(window.measureNanos());
            return new HostCalibration.Measured(window.parameters(), Spread.of(List.of(1.0)),
                    window.measureNanos() / 100_000, false);
        });
        assertThat(windows).containsExactly(1_000_000L, 4_000_000L, 16_000_000L);
        assertThat(slow.parameters()).isEqualTo("warmup=500us,window=16ms");
        assertThat(slow.fewest()).isEqualTo(160);

        windows.clear();
        // One per ms: still too few after two extensions; the last window's runs are what counts.
        HostCalibration.Measured starved = HostCalibration.extending(new Window(0, 1_000_000), window -> {
            windows.add(window.measureNanos());
            return new HostCalibration.Measured(window.parameters(), Spread.of(List.of(1.0)),
                    window.measureNanos() / 1_000_000, false);
        });
        assertThat(windows).containsExactly(1_000_000L, 4_000_000L, 16_000_000L);
        assertThat(starved.fewest()).isEqualTo(16);

        windows.clear();
        // Enough at once, or a failed run: the first window stands.
        for (boolean failed : new boolean[] {false, true}) {
            HostCalibration.extending(new Window(0, 1_000_000), window -> {
                windows.add(window.measureNanos());
                return new HostCalibration.Measured(window.parameters(), Spread.of(List.of(1.0)), failed ? -1 : 100,
                        failed);
            });
        }
        assertThat(windows).containsExactly(1_000_000L, 1_000_000L);
    }

    @Test
    void shouldRunAWorkloadsTuningsInRoundsEachStartingWithTheNextTuning() throws InterruptedException {
        List<io.spinlab.model.tuning.Tuning> tunings = List.of("net6", "netcore2.0", "legacy").stream()
                .map(io.spinlab.model.tuning.Tuning::parse).toList();
        List<String> order = new ArrayList<>();
        // Each run scores its place in the whole sequence, so a side's scores show when its runs were made.
        HostCalibration.HardwareRun fake = (workload, tuning) -> {
            order.add(tuning.describe());
            return new io.spinlab.sim.workload.WorkloadResult(workload.name(), workload.parameters(), "fake",
                    order.size() * 1_000L, 1_000_000);
        };

        List<HostCalibration.Measured> sides = HostCalibration.interleaved(
                io.spinlab.sim.workload.Workloads.byName("spinlock-throughput"), new Window(1_000_000, 2_000_000), 3,
                tunings, fake);

        String a = tunings.get(0).describe();
        String b = tunings.get(1).describe();
        String c = tunings.get(2).describe();
        assertThat(order).containsExactly(a, b, c, b, c, a, c, a, b);
        assertThat(sides).hasSize(3);
        assertThat(sides.get(0).spread().values()).containsExactly(1_000.0, 6_000.0, 8_000.0);
        assertThat(sides.get(1).spread().values()).containsExactly(2_000.0, 4_000.0, 9_000.0);
        assertThat(sides.get(2).spread().values()).containsExactly(3_000.0, 5_000.0, 7_000.0);
        assertThat(sides).allSatisfy(side -> {
            assertThat(side.window()).isEqualTo(new Window(1_000_000, 2_000_000));
            assertThat(side.parameters()).contains("warmup=1ms,window=2ms");
        });
        assertThat(sides.get(0).fewest()).isEqualTo(1_000);
    }

    @Test
    void shouldRunATuningThatCountedTooFewAgainAloneInLongerWindows() throws InterruptedException {
        List<io.spinlab.model.tuning.Tuning> tunings = List.of("net6", "netcore2.0").stream()
                .map(io.spinlab.model.tuning.Tuning::parse).toList();
        String slow = tunings.get(1).describe();
        List<String> order = new ArrayList<>();
        // netcore2.0 counts one operation per 100 µs of window: 20 in 2 ms, 80 in 8 ms, 320 in 32 ms.
        HostCalibration.HardwareRun fake = (workload, tuning) -> {
            long window = Long.parseLong(workload.parameters().replaceAll(".*window=(\\d+)ms.*", "$1")) * 1_000_000;
            order.add(tuning.describe() + "@" + window / 1_000_000);
            long operations = tuning.describe().equals(slow) ? window / 100_000 : 500;
            return new io.spinlab.sim.workload.WorkloadResult(workload.name(), workload.parameters(), "fake",
                    operations, window);
        };

        List<HostCalibration.Measured> sides = HostCalibration.interleaved(
                io.spinlab.sim.workload.Workloads.byName("spinlock-throughput"), new Window(1_000_000, 2_000_000), 2,
                tunings, fake);

        String fast = tunings.get(0).describe();
        assertThat(order).containsExactly(fast + "@2", slow + "@2", slow + "@2", fast + "@2", slow + "@8",
                slow + "@8", slow + "@32", slow + "@32");
        assertThat(sides.get(0).window()).isEqualTo(new Window(1_000_000, 2_000_000));
        assertThat(sides.get(1).window()).isEqualTo(new Window(1_000_000, 32_000_000));
        assertThat(sides.get(1).fewest()).isEqualTo(320);
        assertThat(sides.get(1).spread().values()).hasSize(2);
    }

    @Test
    void shouldRankTheMediansOfTheHostsOddAndEvenRunsAgainstEachOtherForItsAgreementWithItself() {
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000);
        MachineProfile host = HostCalibration.hostProfile(20, costs);
        // Odd runs (1st, 3rd, 5th) and even runs order the three points alike: 1.
        List<CalibrationPoint> alike = List.of(
                point("a", "net6", List.of(100.0, 110.0, 105.0, 115.0, 95.0), List.of(1.0)),
                point("a", "netcore2.0", List.of(200.0, 210.0, 190.0, 220.0, 205.0), List.of(2.0)),
                point("b", "net6", List.of(50.0, 60.0, 40.0, 55.0, 45.0), List.of(3.0)));
        assertThat(new CalibrationResult(host, 20, alike, costs).hostSelfAgreement()).isEqualTo(1.0);

        // The halves order the three points in reverse: -1.
        List<CalibrationPoint> reversed = List.of(
                point("a", "net6", List.of(10.0, 300.0, 10.0, 300.0), List.of(1.0)),
                point("a", "netcore2.0", List.of(20.0, 200.0, 20.0, 200.0), List.of(2.0)),
                point("b", "net6", List.of(30.0, 100.0, 30.0, 100.0), List.of(3.0)));
        assertThat(new CalibrationResult(host, 20, reversed, costs).hostSelfAgreement()).isEqualTo(-1.0);

        // Points with one run have no halves, and one point with two runs is no ranking: NaN.
        List<CalibrationPoint> single = List.of(
                point("a", "net6", List.of(10.0), List.of(1.0)),
                point("a", "netcore2.0", List.of(20.0, 30.0), List.of(2.0)),
                point("b", "net6", List.of(30.0), List.of(3.0)));
        assertThat(new CalibrationResult(host, 20, single, costs).hostSelfAgreement()).isNaN();
    }

    @Test
    void shouldJudgeOnlyTheTuningPairsThatTheHostsRunsTellApart() {
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000);
        List<CalibrationPoint> points = List.of(
                point("a", "net6", List.of(100.0, 101.0, 102.0, 103.0, 104.0), List.of(10.0, 11.0, 12.0)),
                // Above net6 on every run: the simulator puts it below, a pair ordered the other way.
                point("a", "netcore2.0", List.of(200.0, 201.0, 202.0, 203.0, 204.0), List.of(5.0, 6.0, 7.0)),
                // Interleaves net6's runs: the host cannot order these two, so they are not judged; four of
                // its five runs are below every run of netcore2.0 and one, 250, above them all.
                point("a", "legacy", List.of(90.0, 101.5, 150.0, 103.5, 250.0), List.of(50.0, 50.0, 50.0)),
                // Nine of ten runs above every run of the other and one slow run below them all (a run at a
                // fifth of its neighbours, as this host has): every run above every other fails, the ranks
                // tell the two apart (U = 90 of 100, p = 0.003).
                point("b", "net6", List.of(300.0, 310.0, 320.0, 330.0, 340.0, 350.0, 360.0, 370.0, 380.0, 60.0),
                        List.of(50.0, 51.0, 52.0)),
                point("b", "netcore2.0", List.of(100.0, 110.0, 120.0, 130.0, 140.0, 150.0, 160.0, 170.0, 180.0,
                        190.0), List.of(40.0, 41.0, 42.0)));
        CalibrationResult result = new CalibrationResult(HostCalibration.hostProfile(20, costs), 20, points, costs);

        CalibrationResult.Pairs pairs = result.tuningPairs();

        // a: three pairs; netcore2.0 against net6 told apart (U = 25 of 25, p = 0.008), ordered the other way by
        // the simulator; against legacy not (U = 20 of 25, p = 0.15); net6 against legacy not. b: one pair, told
        // apart, ordered alike.
        assertThat(points.get(3).hardware().clearlyAbove(points.get(4).hardware())).isFalse();
        assertThat(pairs).isEqualTo(new CalibrationResult.Pairs(4, 2, 1,
                List.of(new CalibrationResult.Disagreement(points.get(1), points.get(0)))));
        assertThat(pairs.orderedOtherwise().getFirst().describe()).isEqualTo(
                "a: netcore2.0 above net6 on this host (202.0 against 102.0), not simulated (6.0 against 11.0)");
        assertThat(result.tuningOrderAgreement()).isEqualTo(0.5);
        // One of two pairs ordered alike: Wilson's interval spans nearly everything (9 % to 91 %).
        assertThat(result.tuningOrderAgreementInterval().formatPercent()).isEqualTo("9–91 %");
        // Over the five points (ranks 1 4 2 5 3 on the host, 2 1 4 5 3 simulated) ρ is 0.3, its interval
        // from −0.81 to 0.94.
        assertThat(result.spearman()).isCloseTo(0.3, within(1e-12));
        assertThat(result.spearmanInterval()).isEqualTo(ConfidenceInterval.spearman(result.spearman(), 5));
        assertThat(result.spearmanInterval().low()).isLessThan(-0.8);
    }

    private static CalibrationPoint point(String workload, String tuning, List<Double> hardware,
            List<Double> simulated) {
        Spread hw = Spread.of(hardware);
        Spread sim = Spread.of(simulated);
        return new CalibrationPoint(workload, "", tuning, hw.median(), sim.median(), 2_000, 2_000, hw, sim);
    }

    @Test
    void shouldMeasureOrderedPercentilesOfTheWakeUp() throws InterruptedException {
        HostCosts costs = HostCosts.measure(50);

        assertThat(costs.wakeSamples()).isEqualTo(50);
        assertThat(costs.wakeP10Ns()).isLessThanOrEqualTo(costs.wakeLatencyNs());
        assertThat(costs.wakeLatencyNs()).isLessThanOrEqualTo(costs.wakeP90Ns());
        // A wake-up is at least a clock read later than the stamp it reads.
        assertThat(costs.wakeP10Ns()).isPositive();
        // Thread.sleep(1) cannot return before 1 ms has passed.
        assertThat(costs.sleepGranularityNs()).isGreaterThanOrEqualTo(1_000_000);
        // A broken measurement gives 0 or NaN; a real one takes time.
        assertThat(costs.casNs()).isPositive();
        assertThat(costs.unparkNs()).isPositive();
        assertThat(costs.yieldReadyNs()).isPositive();
        if (Runtime.getRuntime().availableProcessors() >= 2) {
            assertThat(costs.lineTransferNs()).isPositive();
            assertThat(costs.readHandoverNs()).isPositive();
            assertThat(costs.invalidationNs()).isGreaterThanOrEqualTo(0);
        } else {
            assertThat(costs.lineTransferNs()).isNaN();
            assertThat(costs.readHandoverNs()).isNaN();
        }
    }

    @Test
    void shouldPairEveryWorkloadAndTuningWhenCalibrationRuns() throws InterruptedException {
        // 20 ms hardware windows: long enough that a loaded 2-core machine still counts operations. 10 ms
        // simulated ones: in one run under load (the host profile is measured, so it changes from run to
        // run) a 1 ms window counted 2 drain rounds, not measurable, which left two tied points and no rho.
        HostCalibration.Settings settings = new HostCalibration.Settings(new Window(2_000_000, 20_000_000),
                new Window(2_000_000, 10_000_000), 2, 2, List.of("current", "legacy"),
                List.of("mres-wait-drain-rate", "spinlock-throughput"));
        List<CalibrationPoint> seen = new ArrayList<>();

        CalibrationResult result = HostCalibration.run(settings, seen::add);

        assertThat(result.points()).hasSize(4).containsExactlyElementsOf(seen);
        assertThat(result.points()).allSatisfy(p -> {
            assertThat(p.hardwareScore()).as("operations counted on real threads: %s", p).isPositive();
            assertThat(p.simulatedScore()).as("a completed simulation that counted operations: %s", p)
                    .isPositive();
            assertThat(p.hardware().values()).as("one score per repetition").hasSize(2);
            assertThat(p.simulated().values()).as("one score per seed").hasSize(2);
            assertThat(p.hardwareScore()).isEqualTo(p.hardware().median());
            assertThat(p.simulatedScore()).isEqualTo(p.simulated().median());
            if (Runtime.getRuntime().availableProcessors() >= 2) {
                assertThat(p.lineTransferBeforeNs()).isPositive();
                assertThat(p.lineTransferAfterNs()).isPositive();
                assertThat(p.simulatedLineTransferNs()).isCloseTo(
                        (p.lineTransferBeforeNs() + p.lineTransferAfterNs()) / 2, within(0.051));
            }
        });
        assertThat(result.points()).extracting(CalibrationPoint::workload).containsExactly("mres-wait-drain-rate",
                "mres-wait-drain-rate", "spinlock-throughput", "spinlock-throughput");
        assertThat(result.byWorkload()).containsOnlyKeys("mres-wait-drain-rate", "spinlock-throughput");
        assertThat(result.host().name()).isEqualTo("host");
        assertThat(result.spearman()).as("every simulated run completed, so rho is defined: %s", result.points())
                .isNotNaN();
    }
}
