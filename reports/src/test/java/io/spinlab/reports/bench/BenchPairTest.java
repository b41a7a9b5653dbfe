package io.spinlab.reports.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The pairing convention and the ratio arithmetic, on synthetic scores: nothing here is timed. */
class BenchPairTest {

    private static final String PKG = "io.spinlab.reports.bench.";

    private static BenchScore score(String benchmark, double score, double error) {
        return new BenchScore(PKG + benchmark, "", score, error, "ops/us");
    }

    private static BenchScore score(String benchmark, String params, double score) {
        return new BenchScore(PKG + benchmark, params, score, Double.NaN, "ops/us");
    }

    @Test
    void shouldParseSideSubjectAndScenarioWhenNameFollowsTheConvention() {
        BenchName name = BenchName.parse(PKG + "LockBenchmark.spinlab_spinLockTracking_contended");

        assertThat(name).isEqualTo(new BenchName("LockBenchmark", BenchName.Side.SPINLAB, "spinLockTracking",
                "contended"));
        assertThat(name.pairLabel()).isEqualTo("LockBenchmark.contended");
        assertThat(BenchName.parse("LockBenchmark.peer_reentrantLock_contended").side()).isEqualTo(BenchName.Side.PEER);
    }

    @Test
    void shouldRejectNamesThatBreakTheConvention() {
        for (String bad : List.of("LockBenchmark.spinlab_lock", "LockBenchmark.jdk_reentrantLock_contended",
                "LockBenchmark.spinlab_a_b_c", "LockBenchmark.spinlab__contended", "LockBenchmark.spinlab_lock_",
                "noMethod", "LockBenchmark.")) {
            assertThatThrownBy(() -> BenchName.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(bad)
                    .hasMessageContaining("side_subject_scenario");
        }
    }

    @Test
    void shouldPairEverySpinlabBenchmarkWithThePeerOfItsScenario() {
        List<BenchScore> scores = List.of(
                score("LockBenchmark.peer_reentrantLock_contended", 10, 1),
                score("LockBenchmark.peer_reentrantLock_uncontended", 50, 1),
                score("LockBenchmark.spinlab_monitorLock_contended", 12, 1),
                score("LockBenchmark.spinlab_spinLockAnonymous_contended", 20, 1),
                score("LockBenchmark.spinlab_spinLockAnonymous_uncontended", 40, 1));

        List<BenchPair> pairs = BenchPair.pairAll(scores);

        assertThat(pairs).extracting(p -> p.label() + ": " + p.spinlab().name().subject() + " vs "
                + p.peer().name().subject())
                .containsExactly(
                        "LockBenchmark.contended: monitorLock vs reentrantLock",
                        "LockBenchmark.contended: spinLockAnonymous vs reentrantLock",
                        "LockBenchmark.uncontended: spinLockAnonymous vs reentrantLock");
        assertThat(pairs).extracting(BenchPair::ratio).containsExactly(1.2, 2.0, 0.8);
    }

    @Test
    void shouldKeepScenariosOfDifferentClassesApart() {
        List<BenchScore> scores = List.of(
                score("LockBenchmark.peer_reentrantLock_contended", 10, 1),
                score("SemaphoreBenchmark.peer_semaphore_contended", 5, 1),
                score("SemaphoreBenchmark.spinlab_semaphoreSlim_contended", 6, 1));

        List<BenchPair> pairs = BenchPair.pairAll(scores);

        assertThat(pairs).hasSize(2);
        assertThat(pairs.get(0).spinlab()).isNull();
        assertThat(pairs.get(0).peer().benchmark()).endsWith("peer_reentrantLock_contended");
        assertThat(pairs.get(1).peer().benchmark()).endsWith("peer_semaphore_contended");
        assertThat(pairs.get(1).ratio()).isCloseTo(1.2, within(1e-12));
    }

    @Test
    void shouldPairOnlyScoresWithEqualParameters() {
        List<BenchScore> scores = List.of(
                score("SeamCostBenchmark.peer_onSpinWait_spin", "pauses=1", 40),
                score("SeamCostBenchmark.peer_onSpinWait_spin", "pauses=16", 2.5),
                score("SeamCostBenchmark.spinlab_platformPause_spin", "pauses=1", 39),
                score("SeamCostBenchmark.spinlab_platformPause_spin", "pauses=16", 2.5));

        List<BenchPair> pairs = BenchPair.pairAll(scores);

        assertThat(pairs).extracting(BenchPair::description)
                .containsExactly("SeamCostBenchmark.spin [pauses=1]", "SeamCostBenchmark.spin [pauses=16]");
        assertThat(pairs).extracting(BenchPair::ratio).containsExactly(39.0 / 40, 1.0);
    }

    @Test
    void shouldLeaveThePeerEmptyWhenTheFilterSkippedIt() {
        BenchPair pair = BenchPair.pairAll(List.of(score("LockBenchmark.spinlab_monitorLock_contended", 12, 1)))
                .getFirst();

        assertThat(pair.peer()).isNull();
        assertThat(pair.ratio()).isNaN();
        assertThat(pair.ratioInterval()).containsExactly(Double.NaN, Double.NaN);
    }

    @Test
    void shouldPairEachSpinlabBenchmarkWithEveryPeerOfItsScenario() {
        List<BenchScore> scores = List.of(
                score("LockBenchmark.peer_reentrantLockFair_contended", 5, 1),
                score("LockBenchmark.peer_reentrantLockUnfair_contended", 10, 1),
                score("LockBenchmark.spinlab_monitorLock_contended", 12, 1),
                score("LockBenchmark.spinlab_spinLockAnonymous_contended", 20, 1));

        List<BenchPair> pairs = BenchPair.pairAll(scores);

        assertThat(pairs).extracting(p -> p.spinlab().name().subject() + " vs " + p.peer().name().subject())
                .containsExactly("monitorLock vs reentrantLockFair", "monitorLock vs reentrantLockUnfair",
                        "spinLockAnonymous vs reentrantLockFair", "spinLockAnonymous vs reentrantLockUnfair");
        assertThat(pairs).extracting(BenchPair::ratio).containsExactly(2.4, 1.2, 4.0, 2.0);
    }

    @Test
    void shouldRejectTheSameBenchmarkTwice() {
        List<BenchScore> scores = List.of(
                score("LockBenchmark.peer_reentrantLock_contended", 10, 1),
                score("LockBenchmark.peer_reentrantLock_contended", 11, 1));

        assertThatThrownBy(() -> BenchPair.pairAll(scores))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two scores for " + PKG + "LockBenchmark.peer_reentrantLock_contended");
    }

    @Test
    void shouldRejectAPairWhoseSidesHaveDifferentUnits() {
        List<BenchScore> scores = List.of(
                score("LockBenchmark.peer_reentrantLock_contended", 10, 1),
                new BenchScore(PKG + "LockBenchmark.spinlab_monitorLock_contended", "", 100, 1, "ns/op"));

        assertThatThrownBy(() -> BenchPair.pairAll(scores))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("units differ");
    }

    private static BenchScore sampled(String benchmark, double mean, double stdDev, long samples) {
        return new BenchScore(PKG + benchmark, "", mean, Double.NaN, "ops/us", samples, stdDev, Double.NaN,
                Double.NaN, Double.NaN);
    }

    @Test
    void shouldComputeTheRatioIntervalOnTheLogScaleWithWelchDegreesOfFreedom() {
        // Relative standard errors (3 / 30) / sqrt(4) = (2 / 20) / sqrt(4) = 0.05; variance of the log
        // ratio v = 2 × 0.05²; Welch df = v² / (2 × 0.05⁴ / 3) = 6; t(6, 0.995) = 3.7074.
        BenchPair pair = new BenchPair("LockBenchmark.contended", "",
                sampled("LockBenchmark.spinlab_monitorLock_contended", 30, 3, 4),
                sampled("LockBenchmark.peer_reentrantLockUnfair_contended", 20, 2, 4));

        double halfWidth = 3.7074 * Math.sqrt(2 * 0.05 * 0.05);
        double[] interval = pair.ratioInterval();

        assertThat(pair.ratio()).isCloseTo(1.5, within(1e-12));
        assertThat(interval[0]).isCloseTo(1.5 * Math.exp(-halfWidth), within(1e-4));
        assertThat(interval[1]).isCloseTo(1.5 * Math.exp(halfWidth), within(1e-4));
        assertThat(pair.verdict()).isEqualTo(BenchPair.Verdict.FASTER);
    }

    @Test
    void shouldCallARatioInconclusiveWhenItsIntervalSpansOne() {
        BenchPair close = new BenchPair("LockBenchmark.contended", "",
                sampled("LockBenchmark.spinlab_monitorLock_contended", 21, 3, 12),
                sampled("LockBenchmark.peer_reentrantLockUnfair_contended", 20, 3, 12));
        BenchPair slower = new BenchPair("LockBenchmark.contended", "",
                sampled("LockBenchmark.spinlab_monitorLock_contended", 10, 0.5, 12),
                sampled("LockBenchmark.peer_reentrantLockUnfair_contended", 20, 1, 12));

        assertThat(close.ratio()).isGreaterThan(1);
        assertThat(close.ratioInterval()[0]).isLessThan(1);
        assertThat(close.verdict()).isEqualTo(BenchPair.Verdict.INCONCLUSIVE);
        assertThat(slower.ratioInterval()[1]).isLessThan(1);
        assertThat(slower.verdict()).isEqualTo(BenchPair.Verdict.SLOWER);
    }

    @Test
    void shouldCallARatioInconclusiveWhenASideHasTooFewSamplesForAnInterval() {
        BenchPair pair = new BenchPair("LockBenchmark.contended", "",
                sampled("LockBenchmark.spinlab_monitorLock_contended", 40, Double.NaN, 1),
                sampled("LockBenchmark.peer_reentrantLockUnfair_contended", 20, 1, 12));

        assertThat(pair.ratio()).isEqualTo(2.0);
        assertThat(pair.ratioInterval()).containsExactly(Double.NaN, Double.NaN);
        assertThat(pair.verdict()).isEqualTo(BenchPair.Verdict.INCONCLUSIVE);
    }

    @Test
    void shouldRejectAPairWithNeitherSide() {
        assertThatThrownBy(() -> new BenchPair("LockBenchmark.contended", "", null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldFindSomePeerAndSomeSpinlabSubjectForEveryScenarioOfTheRealBenchmarks() {
        // Reads META-INF/BenchmarkList, which the JMH annotation processor wrote into target/classes.
        List<String> benchmarks = BenchRunner.benchmarks(BenchRunner.ALL);
        Map<String, List<BenchName>> byScenario = new LinkedHashMap<>();
        for (String benchmark : benchmarks) {
            BenchName name = BenchName.parse(benchmark);
            byScenario.computeIfAbsent(name.pairLabel(), k -> new ArrayList<>()).add(name);
        }

        assertThat(byScenario.get("LockBenchmark.contended")).extracting(BenchName::subject)
                .contains("reentrantLockFair", "reentrantLockUnfair");
        assertThat(byScenario.get("EventHandoffBenchmark.handoff")).extracting(BenchName::subject)
                .contains("phaser", "flagPark").doesNotContain("countDownLatch");
        assertThat(byScenario.get("ConcurrentStackQueueBenchmark.twoThreads")).extracting(BenchName::subject)
                .contains("treiberStack").doesNotContain("concurrentLinkedDeque");
        assertThat(byScenario.keySet()).contains("LockBenchmark.uncontended", "LockBenchmark.contended",
                "SemaphoreBenchmark.uncontended", "SemaphoreBenchmark.contended", "EventHandoffBenchmark.handoff",
                "SeamCostBenchmark.spin");
        byScenario.forEach((scenario, names) -> {
            assertThat(names).as(scenario).filteredOn(n -> n.side() == BenchName.Side.PEER).isNotEmpty();
            assertThat(names).as(scenario).filteredOn(n -> n.side() == BenchName.Side.SPINLAB).isNotEmpty();
        });
    }
}
