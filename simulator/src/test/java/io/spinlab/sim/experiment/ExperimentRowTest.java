package io.spinlab.sim.experiment;

import io.spinlab.sim.workload.WorkloadResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A row's verdict: a side that counted too few operations makes no verdict, whatever its Δ. */
class ExperimentRowTest {

    private static ExperimentRow row(double left, double right, long leftOps, long rightOps,
            Optional<String> failure) {
        return new ExperimentRow("e", "w", "m", "threads=1pc", "l", left, "r", right,
                Published.delta(30, "a PR"), Map.of(), Map.of(), failure, 0, true, leftOps, rightOps, 1L);
    }

    @Test
    void shouldBeNotMeasurableWhenASideCountedFewerThanTheFloor() {
        ExperimentRow zeros = row(0, 0, 0, 0, Optional.empty());
        ExperimentRow oneSide = row(500, 24.75, 2_000, 99, Optional.empty());

        assertThat(zeros.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(zeros.notMeasurable()).contains(
                "left counted 0 and right counted 0 operations in the window (fewer than 100)");
        assertThat(oneSide.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(oneSide.notMeasurable()).contains("right counted 99 operations in the window (fewer than 100)");
    }

    /** A thread-pool row counts chains of 512 items: 1,024 items are two chains, no score. */
    @Test
    void shouldApplyTheFloorToBatchesWhenTheWorkloadCountsInBatches() {
        Map<String, Double> chains = Map.of(WorkloadResult.OPERATIONS_PER_COUNT, 512.0);
        ExperimentRow twoChains = new ExperimentRow("e", "quwi", "m", "depth=512", "l", 256, "r", 256,
                Published.delta(30, "a PR"), chains, chains, Optional.empty(), 0, true, 1_024, 51_200, 1L);
        ExperimentRow hundredChains = new ExperimentRow("e", "quwi", "m", "depth=512", "l", 12_800, "r", 12_800,
                Published.delta(30, "a PR"), chains, chains, Optional.empty(), 0, true, 51_200, 51_200, 1L);

        assertThat(twoChains.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(twoChains.notMeasurable()).contains(
                "left counted 1024 (2 batches of 512) operations in the window (fewer than 100 batches)");
        assertThat(hundredChains.notMeasurable()).isEmpty();
        assertThat(hundredChains.verdict()).isEqualTo(Verdict.DISAGREES);
    }

    @Test
    void shouldSetTheSimulatedLeftScoreOverThePublishedOneWhenTheSourcePrintedIt() {
        Published level = Published.direction(Published.Direction.RIGHT_BETTER, "a table").withLeftPerMs(140);
        ExperimentRow measured = new ExperimentRow("e", "w", "m", "threads=1pc", "l", 700, "r", 650, level,
                Map.of(), Map.of(), Optional.empty(), 0, true, 2_800, 2_600, 1L);
        ExperimentRow tooFew = new ExperimentRow("e", "w", "m", "threads=1pc", "l", 700, "r", 10, level,
                Map.of(), Map.of(), Optional.empty(), 0, true, 2_800, 40, 1L);

        assertThat(measured.leftOverPublished()).hasValue(5.0);
        assertThat(measured.errorFactor()).isEmpty();
        assertThat(tooFew.leftOverPublished()).isEmpty();
        assertThat(row(700, 650, 2_800, 2_600, Optional.empty()).leftOverPublished()).isEmpty();
        assertThat(new ExperimentRow("e", "w", "m", "threads=1pc", "l", 700, "r", 650, level, Map.of(), Map.of(),
                Optional.of("boom"), 0, true, 2_800, 2_600, 1L).leftOverPublished()).isEmpty();
    }

    @Test
    void shouldSummarizeTheRatiosByTheirMedianAndRange() {
        Published level = Published.direction(Published.Direction.RIGHT_BETTER, "a table").withLeftPerMs(100);
        List<ExperimentRow> rows = java.util.stream.Stream.of(50.0, 200.0, 400.0, 1_600.0)
                .map(left -> new ExperimentRow("e", "w", "m", "threads=1pc", "l", left, "r", left, level, Map.of(),
                        Map.of(), Optional.empty(), 0, true, 100_000, 100_000, 1L)).toList();

        LevelAgreement levels = LevelAgreement.of(rows);

        assertThat(levels.rows()).isEqualTo(4);
        assertThat(levels.median()).isCloseTo(2.83, org.assertj.core.api.Assertions.within(0.01)); // √(2 × 4)
        assertThat(levels.lowest()).isEqualTo(0.5);
        assertThat(levels.highest()).isEqualTo(16);
        assertThat(levels.describe()).isEqualTo(
                "simulated left scores ×2.83 the published ones (median over 4 rows; ×0.500 to ×16)");
        assertThat(LevelAgreement.of(List.of(row(1, 1, 1_000, 1_000, Optional.empty()))).describe())
                .isEqualTo("no published left score measured");
        assertThatThrownBy(() -> level.withLeftPerMs(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A row of three seeds whose windows' halves counted in the given ratios (second over first). */
    private static ExperimentRow halves(long leftOps, List<Double> left, List<Double> right) {
        return new ExperimentRow("e", "w", "m", "threads=1pc", "l", 100, "r", 150, Published.delta(30, "a PR"),
                Map.of(), Map.of(), Optional.empty(), 0, true, leftOps, 600, List.of(1L, 2L, 3L),
                List.of(100.0, 100.0, 100.0), List.of(150.0, 150.0, 150.0), "", left, right);
    }

    @Test
    void shouldSayTheRateStillChangesWhenEverySeedsHalvesDifferBeyondTheFactorInOneDirection() {
        List<Double> steady = List.of(1.1, 0.8, 1.45);

        assertThat(halves(400, steady, List.of(1.85, 1.51, 2.0)).rateChanging()).contains("the right side counted "
                + "1.51 to 2.00 times as many operations in the window's second half as in its first, on every seed");
        assertThat(halves(400, List.of(0.5, 0.25, Double.POSITIVE_INFINITY), steady).rateChanging()).isEmpty();
        assertThat(halves(400, List.of(0.5, 0.25, 0.6), List.of(3.0, 3.0, Double.POSITIVE_INFINITY)).rateChanging())
                .contains("the left side counted 0.25 to 0.60 times as many operations and the right side counted "
                        + "3.00 to ∞ times as many operations in the window's second half as in its first, on every "
                        + "seed");
    }

    @Test
    void shouldNotSayTheRateChangesWhenASeedIsSteadyOrUnknownOrTheRowMeasuredNothing() {
        List<Double> rising = List.of(1.85, 1.9, 2.0);

        assertThat(halves(400, List.of(1.85, 1.4, 2.0), List.of(1.0, 1.0, 1.0)).rateChanging()).isEmpty();
        assertThat(halves(400, List.of(1.85, Double.NaN, 2.0), rising).rateChanging()).isPresent()
                .hasValueSatisfying(why -> assertThat(why).startsWith("the right side"));
        assertThat(halves(400, List.of(), List.of()).rateChanging()).isEmpty();
        assertThat(halves(99, rising, rising).rateChanging()).as("not measurable").isEmpty();
        assertThat(halves(99, rising, rising).verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
    }

    @Test
    void shouldJudgeTheDirectionWhenBothSidesReachTheFloor() {
        assertThat(row(100, 150, 100, 150, Optional.empty()).verdict()).isEqualTo(Verdict.AGREES);
        assertThat(row(100, 50, 100, 100, Optional.empty()).verdict()).isEqualTo(Verdict.DISAGREES);
        assertThat(row(100, 50, 100, 100, Optional.empty()).notMeasurable()).isEmpty();
    }

    @Test
    void shouldReportAFailureBeforeAnEmptyWindow() {
        assertThat(row(Double.NaN, 0, -1, 0, Optional.of("deadlock")).verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void shouldMeasureTheErrorFactorAgainstThePublishedRatio() {
        // Published +30 %, i.e. 1.3×. Simulated 2.6× is off by 2×, 0.65× by 2× the other way.
        assertThat(row(100, 260, 400, 1040, Optional.empty()).errorFactor().getAsDouble()).isCloseTo(2.0,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(row(100, 65, 400, 260, Optional.empty()).errorFactor().getAsDouble()).isCloseTo(2.0,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(row(100, 130, 400, 520, Optional.empty()).errorFactor().getAsDouble()).isCloseTo(1.0,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(row(0, 0, 0, 0, Optional.empty()).errorFactor()).isEmpty();
        assertThat(row(100, 0, 400, 100, Optional.empty()).errorFactor()).isEmpty();
        assertThat(row(Double.NaN, 100, -1, 400, Optional.of("deadlock")).errorFactor()).isEmpty();
        ExperimentRow noFigure = new ExperimentRow("e", "w", "m", "p", "l", 100, "r", 200,
                Published.direction(Published.Direction.RIGHT_BETTER, "a PR"), Map.of(), Map.of(), Optional.empty(), 0,
                true, 400, 800, 1L);
        assertThat(noFigure.errorFactor()).isEmpty();
    }

    @Test
    void shouldSummarizeTheErrorFactorsByTheirMedian() {
        // Against a published 1.3×: 1.3× (factor 1), 1.95× (1.5), 3.9× (3), and an empty window.
        Fidelity fidelity = Fidelity.of(java.util.List.of(row(100, 130, 400, 520, Optional.empty()),
                row(100, 195, 400, 780, Optional.empty()), row(100, 390, 400, 1560, Optional.empty()),
                row(0, 0, 0, 0, Optional.empty())));

        assertThat(fidelity.rows()).isEqualTo(3);
        assertThat(fidelity.median()).isCloseTo(1.5, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(fidelity.withinTwo()).isEqualTo(2);
        assertThat(fidelity.describe()).isEqualTo("median error ×1.50 over 3 published figures, 2 within 2×");
        assertThat(Fidelity.of(java.util.List.of()).describe()).isEqualTo("no published figure measured");
        // Equal scores against a published +100 %: a factor of 2, within 2× whatever the rounding.
        ExperimentRow doubled = new ExperimentRow("e", "w", "m", "p", "l", 316.25, "r", 316.25,
                Published.delta(100, "a PR"), Map.of(), Map.of(), Optional.empty(), 0, true, 1265, 1265, 1L);
        assertThat(Fidelity.of(java.util.List.of(doubled)).withinTwo()).isEqualTo(1);
    }

    @Test
    void shouldCountAgreeingDirectionsAmongTheRowsThatAgreeOrDisagree() {
        // Against a published +30 %: +30 % and +95 % agree, −50 % disagrees, a failed run and an empty window
        // decide nothing; only the first three count.
        List<ExperimentRow> rows = List.of(row(100, 130, 400, 520, Optional.empty()),
                row(100, 195, 400, 780, Optional.empty()), row(100, 50, 400, 200, Optional.empty()),
                row(100, 130, 400, 520, Optional.of("the simulation deadlocked")), row(0, 0, 0, 0, Optional.empty()));
        DirectionAgreement directions = DirectionAgreement.of(rows);

        assertThat(rows).extracting(ExperimentRow::verdict).containsExactly(Verdict.AGREES, Verdict.AGREES,
                Verdict.DISAGREES, Verdict.FAILED, Verdict.NOT_MEASURABLE);
        assertThat(directions).isEqualTo(new DirectionAgreement(2, 3));
        assertThat(directions.interval()).isEqualTo(ConfidenceInterval.wilson(2, 3));
        assertThat(directions.describe()).isEqualTo("2 of 3 agree (67 %, 95 % interval 21–94 %)");
        // Half of 94, as in the reproduce run of 2026-12-07 at 3c9a355: a coin's share lies well inside.
        assertThat(new DirectionAgreement(47, 94).describe()).isEqualTo("47 of 94 agree (50 %, 95 % interval 40–60 %)");
        assertThat(DirectionAgreement.of(List.of()).describe()).isEqualTo("none agrees or disagrees");
        assertThat(DirectionAgreement.of(List.of()).share()).isNaN();
    }

    private static ExperimentRow seeded(Published published, List<Double> left, List<Double> right) {
        double leftMedian = Spread.of(left).median();
        double rightMedian = Spread.of(right).median();
        return new ExperimentRow("e", "w", "m", "p", "l", leftMedian, "r", rightMedian, published, Map.of(), Map.of(),
                Optional.empty(), 0, true, 1000, 1000, List.of(1L, 2L, 3L), left, right);
    }

    /**
     * Skylake MresWaitLatency at 1 x processors, seeds 1-3 of the forty-ninth session's reproduce: the left
     * side's seeds 186 times apart, the right side's 18 times. No verdict, no error factor; the window is not
     * made longer for it (the row counted enough), and its halves no longer say "rate still changing".
     */
    @Test
    void shouldBeNotMeasurableWhenASidesSeedsLieMoreThanTenfoldApart() {
        List<Double> left = List.of(1145.3, 1542.5, 212836.8);
        List<Double> right = List.of(8823.3, 138045.3, 160749.8);
        ExperimentRow bursty = new ExperimentRow("e", "w", "m", "p", "l", 1542.5, "r", 138045.3,
                Published.delta(30, "a PR"), Map.of(), Map.of(), Optional.empty(), 0, true, 4581, 35293,
                List.of(1L, 2L, 3L), left, right, "", List.of(2.0, 1.9, 1.6), List.of(1.0, 1.0, 1.0));

        assertThat(bursty.tooFewOperations()).isEmpty();
        assertThat(bursty.seedsApart()).contains("the left side's scores over 3 seeds span 185.8× (1145.3 to "
                + "212836.8 per ms; more than 10×) and the right side's scores over 3 seeds span 18.2× (8823.3 to "
                + "160749.8 per ms; more than 10×)");
        assertThat(bursty.notMeasurable()).isEqualTo(bursty.seedsApart());
        assertThat(bursty.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(bursty.errorFactor()).isEmpty();
        assertThat(bursty.rateChanging()).isEmpty();
        assertThat(bursty.halvesApart()).hasValueSatisfying(why -> assertThat(why).startsWith("the left side counted"));
        // Too few operations is said first, and alone.
        ExperimentRow both = new ExperimentRow("e", "w", "m", "p", "l", 1542.5, "r", 138045.3,
                Published.delta(30, "a PR"), Map.of(), Map.of(), Optional.empty(), 0, true, 40, 35293,
                List.of(1L, 2L, 3L), left, right);
        assertThat(both.notMeasurable()).contains("left counted 40 operations in the window (fewer than 100)");
    }

    @Test
    void shouldMeasureASideWhoseSeedsLieTenfoldApartOrCloserOrThatRanOneSeed() {
        Published better = Published.delta(30, "a PR");
        ExperimentRow tenfold = seeded(better, List.of(100.0, 500.0, 1000.0), List.of(300.0, 1500.0, 3000.0));
        assertThat(tenfold.seedsApart()).isEmpty();
        assertThat(tenfold.verdict()).isEqualTo(Verdict.AGREES);
        ExperimentRow beyond = seeded(better, List.of(100.0, 500.0, 1000.1), List.of(300.0, 1500.0, 3000.0));
        assertThat(beyond.verdict()).isEqualTo(Verdict.NOT_MEASURABLE);
        assertThat(row(100, 5000, 1000, 1000, Optional.empty()).seedsApart()).isEmpty();
        assertThat(row(Double.NaN, 5000, -1, 1000, Optional.of("failed")).seedsApart()).isEmpty();
    }

    @Test
    void shouldComputeThePairedDeltasAndTheirIntervalOverTheSeeds() {
        ExperimentRow row = seeded(Published.delta(30, "a PR"), List.of(100.0, 200.0, 400.0),
                List.of(110.0, 260.0, 400.0));

        assertThat(row.leftScore()).isEqualTo(200.0);
        assertThat(row.rightScore()).isEqualTo(260.0);
        assertThat(row.deltaPercent()).isEqualTo(30.0);
        assertThat(row.deltaPercents()).containsExactly(10.0, 30.0, 0.0);
        Spread delta = row.deltaSpread().orElseThrow();
        // over the log ratios ln 1.1, ln 1.3, 0: mean m, sample sd s, t(2) = 4.303, mapped back to Δ %
        double[] logs = {Math.log(1.1), Math.log(1.3), 0};
        double mean = (logs[0] + logs[1] + logs[2]) / 3;
        double sd = Math.sqrt((Math.pow(logs[0] - mean, 2) + Math.pow(logs[1] - mean, 2) + Math.pow(logs[2] - mean, 2))
                / 2);
        double half = 4.303 * sd / Math.sqrt(3);
        assertThat(delta.low95()).isCloseTo((Math.exp(mean - half) - 1) * 100, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(delta.high95()).isCloseTo((Math.exp(mean + half) - 1) * 100, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(delta.median()).isEqualTo(10.0);
        assertThat(delta.min()).isEqualTo(0.0);
        assertThat(delta.max()).isEqualTo(30.0);
        // The interval holds 0: against a published improvement, neither agreement nor disagreement.
        assertThat(row.neutral()).isTrue();
        assertThat(row.verdict()).isEqualTo(Verdict.NEUTRAL);
        // The median Δ alone (+30 %) would have agreed.
        assertThat(Published.delta(30, "a PR").judge(row.deltaPercent())).isEqualTo(Verdict.AGREES);
    }

    @Test
    void shouldDecideOnlyWhenTheWholeIntervalIsOnOneSideOfTheClaimsThreshold() {
        List<Double> left = List.of(100.0, 200.0, 400.0);
        Published better = Published.delta(30, "a PR");
        Published notWorse = Published.direction(Published.Direction.NOT_WORSE, "a PR");
        Published tie = Published.direction(Published.Direction.NEUTRAL, "a PR");
        // Δ per seed +10, -10, 0: an interval of about ±25 % around 0 decides nothing.
        List<Double> wobbly = List.of(110.0, 180.0, 400.0);
        assertThat(seeded(notWorse, left, wobbly).verdict()).isEqualTo(Verdict.NEUTRAL);
        assertThat(seeded(tie, left, wobbly).verdict()).isEqualTo(Verdict.NEUTRAL);
        assertThat(seeded(Published.none(), left, wobbly).verdict()).isEqualTo(Verdict.NO_CLAIM);
        assertThat(seeded(Published.none(), left, wobbly).neutral()).isTrue();
        // Δ per seed 0, +0.5, -0.25: a tight interval inside ±5 %.
        List<Double> flat = List.of(100.0, 201.0, 399.0);
        assertThat(seeded(notWorse, left, flat).verdict()).isEqualTo(Verdict.AGREES);
        assertThat(seeded(tie, left, flat).verdict()).isEqualTo(Verdict.AGREES);
        assertThat(seeded(better, left, flat).verdict()).as("a confident tie is not an improvement")
                .isEqualTo(Verdict.DISAGREES);
        // Exactly equal on every seed: an interval of one point, 0, against a published improvement.
        assertThat(seeded(better, left, left).verdict()).isEqualTo(Verdict.DISAGREES);
        assertThat(seeded(better, left, left).neutral()).isFalse();
        // Every seed gains 48-52 %: clearly better.
        ExperimentRow clear = seeded(better, left, List.of(148.0, 300.0, 608.0));
        assertThat(clear.neutral()).isFalse();
        assertThat(clear.verdict()).isEqualTo(Verdict.AGREES);
        ExperimentRow worse = seeded(better, left, List.of(52.0, 100.0, 192.0));
        assertThat(worse.verdict()).isEqualTo(Verdict.DISAGREES);
        assertThat(seeded(notWorse, left, List.of(52.0, 100.0, 192.0)).verdict()).isEqualTo(Verdict.DISAGREES);
        assertThat(seeded(tie, left, List.of(148.0, 300.0, 608.0)).verdict()).isEqualTo(Verdict.DISAGREES);
    }

    @Test
    void shouldAgreeWhenEverySeedGainsSeveralHundredPerCentHoweverWidelyTheGainsDiffer() {
        // Ivy Bridge 4x12 EventPipe, score=attempted, seeds 1-3 of the store-buffer reproduce:
        // Δ +17,409 %, +70,981 %, +122,083 %. Student's t on the Δ % themselves gives an interval
        // of about -60,000 % to +200,000 %, which holds 0; on the ratios it lies far above +5 %.
        ExperimentRow row = seeded(Published.direction(Published.Direction.RIGHT_BETTER, "a PR"),
                List.of(2382.75, 584.0, 345.5), List.of(417205.0, 415112.25, 422141.0));

        Spread delta = row.deltaSpread().orElseThrow();
        assertThat(Spread.of(row.deltaPercents()).low95()).as("the interval of the Δ % themselves").isNegative();
        assertThat(delta.low95()).isGreaterThan(4_000); // about +4,322 %
        assertThat(delta.high95()).isGreaterThan(delta.max());
        assertThat(row.neutral()).isFalse();
        assertThat(row.verdict()).isEqualTo(Verdict.AGREES);
        // The same seeds the other way round: clearly worse.
        ExperimentRow reversed = seeded(Published.direction(Published.Direction.RIGHT_BETTER, "a PR"),
                List.of(417205.0, 415112.25, 422141.0), List.of(2382.75, 584.0, 345.5));
        assertThat(reversed.verdict()).isEqualTo(Verdict.DISAGREES);
    }

    @Test
    void shouldTakeTheIntervalOfTheDeltasThemselvesWhenASideScoredNothing() {
        Spread spread = Spread.ofDeltaPercents(List.of(-100.0, 20.0, 40.0));
        assertThat(spread.low95()).isEqualTo(Spread.of(List.of(-100.0, 20.0, 40.0)).low95());
        assertThat(spread.high95()).isEqualTo(Spread.of(List.of(-100.0, 20.0, 40.0)).high95());
    }

    @Test
    void shouldHaveNoDeltaIntervalWithOneSeed() {
        ExperimentRow one = row(100, 200, 1000, 1000, Optional.empty());
        assertThat(one.deltaSpread()).isEmpty();
        assertThat(one.neutral()).isFalse();
        assertThat(one.leftSpread().orElseThrow().values()).containsExactly(100.0);
    }

    /**
     * A side's score settles when its 95 % interval over the seeds is within ±5 % of its mean:
     * 90, 100, 110 has a standard deviation of 10, so 4.303 × 10 / √3 = ±24.8 %; 99, 100, 101 ±2.5 %.
     */
    @Test
    void shouldCallAScoreSettledOnlyWhenItsIntervalIsWithinFivePerCentOfItsMean() {
        Published claim = Published.delta(30, "a PR");
        List<Double> flat = List.of(100.0, 100.0, 100.0);
        List<Double> close = List.of(99.0, 100.0, 101.0);
        List<Double> wide = List.of(90.0, 100.0, 110.0);

        assertThat(seeded(claim, flat, close).unsettled()).isEmpty();
        assertThat(seeded(claim, flat, wide).unsettled())
                .contains("the right score's 95 % interval is ±24.8 % of its mean over 3 seeds (wider than ±5 %)");
        assertThat(seeded(claim, wide, wide).unsettled()).contains("the left score's 95 % interval is ±24.8 % of its "
                + "mean and the right score's 95 % interval is ±24.8 % of its mean over 3 seeds (wider than ±5 %)");
        assertThat(seeded(claim, List.of(0.0, 0.0, 0.0), flat).unsettled())
                .contains("the left score's 95 % interval is 0.0 to 0.0 around a mean of 0.0 over 3 seeds (wider "
                        + "than ±5 %)");
        assertThat(row(100, 100, 1_000, 1_000, Optional.empty()).unsettled())
                .contains("one seed gives the score no interval");
        assertThat(row(Double.NaN, 100, -1, 1_000, Optional.of("deadlock")).unsettled()).isEmpty();
    }

    private static ExperimentRow windowed(String parameters, Published published, List<Double> left,
            List<Double> right) {
        return new ExperimentRow("e", "w", "m", parameters, "l", Spread.of(left).median(), "r",
                Spread.of(right).median(), published, Map.of(), Map.of(), Optional.empty(), 0, true, 1000, 1000,
                List.of(1L, 2L, 3L), left, right);
    }

    /**
     * The protocol's window: ten time slices, or scores settled within ±5 % over the seeds. A 4 ms window on a
     * 4 ms slice with a wide right side falls short; ten slices, or settled scores, do not; a row that measured
     * nothing, or names no window, is not judged.
     */
    @Test
    void shouldSayWhenARowsWindowIsShortOfTheProtocol() {
        Published claim = Published.delta(30, "a PR");
        List<Double> close = List.of(99.0, 100.0, 101.0);
        List<Double> wide = List.of(90.0, 100.0, 110.0);
        long slice = 4_000_000;

        assertThat(windowed("threads=1pc,warmup=2ms,window=4ms", claim, close, wide).windowShortOfProtocol(slice))
                .contains("a window of 4ms (1.0 time slice) and the right score's 95 % interval is ±24.8 % of its "
                        + "mean over 3 seeds (wider than ±5 %)");
        assertThat(windowed("threads=1pc,warmup=2ms,window=6ms", claim, wide, close).windowShortOfProtocol(slice))
                .contains("a window of 6ms (1.5 time slices) and the left score's 95 % interval is ±24.8 % of its "
                        + "mean over 3 seeds (wider than ±5 %)");
        assertThat(windowed("threads=1pc,warmup=10ms,window=40ms", claim, wide, wide).windowShortOfProtocol(slice))
                .as("ten slices").isEmpty();
        assertThat(windowed("threads=1pc,warmup=2ms,window=4ms", claim, close, close).windowShortOfProtocol(slice))
                .as("settled").isEmpty();
        assertThat(windowed("threads=1pc", claim, wide, wide).windowShortOfProtocol(slice)).as("no window").isEmpty();
        assertThat(new ExperimentRow("e", "w", "m", "window=4ms", "l", 0, "r", 0, claim, Map.of(), Map.of(),
                Optional.empty(), 0, true, 0, 0, 1L).windowShortOfProtocol(slice)).as("not measurable").isEmpty();
        // On a 31.25 ms slice (Windows' server quanta) even 40 ms is 1.3 slices.
        assertThat(windowed("window=40ms", claim, wide, close).windowShortOfProtocol(31_250_000))
                .hasValueSatisfying(why -> assertThat(why).startsWith("a window of 40ms (1.3 time slices) and "));
    }

    /** Over a table: how many measured rows fall short, and how many agreeing or disagreeing verdicts rest on them. */
    @Test
    void shouldCountTheRowsAndVerdictsShortOfTheProtocolsWindow() {
        Published claim = Published.delta(30, "a PR");
        List<Double> low = List.of(99.0, 100.0, 101.0);
        List<Double> high = List.of(198.0, 200.0, 202.0);
        List<Double> wideHigh = List.of(150.0, 200.0, 250.0);
        List<ExperimentRow> rows = List.of(
                windowed("window=4ms", claim, low, high), // agrees, settled
                windowed("window=4ms", claim, low, wideHigh), // agrees, short
                windowed("window=40ms", claim, low, wideHigh), // agrees, ten slices
                windowed("window=4ms", claim, high, low), // disagrees, settled
                windowed("window=4ms", Published.none(), low, wideHigh), // no claim, short
                new ExperimentRow("e", "w", "m", "window=4ms", "l", 0, "r", 0, claim, Map.of(), Map.of(),
                        Optional.empty(), 0, true, 0, 0, 1L)); // not measurable

        WindowShortfall shortfall = WindowShortfall.of(rows, row -> 4_000_000);

        assertThat(shortfall).isEqualTo(new WindowShortfall(5, 2, 4, 1));
        assertThat(shortfall.describe()).isEqualTo("2 of 5 measured rows ran under 10 time slices with a score not "
                + "settled within ±5 % over the seeds (the protocol asks for one or the other); 1 of the 4 verdicts "
                + "that agree or disagree rest on such rows");
    }
}
