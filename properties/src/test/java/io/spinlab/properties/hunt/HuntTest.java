package io.spinlab.properties.hunt;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.SimGens;
import io.spinlab.sim.workload.WorkloadSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class HuntTest {

    private static final List<WorkloadSource> MRES = HuntWorkloads.named(HuntWorkloads.DEFAULT);

    /** The Skylake preset with a PAUSE of {@code pauseCycles} and {@code processors} processors, as a hunt varies it. */
    private static MachineProfile skylake(int pauseCycles, int processors) {
        return SimGens.vary(MachinePresets.byName("skylake-i7-6700"), pauseCycles, processors);
    }

    /** A score as {@code WorkloadResult.opsPerMs} computes it: operations over a window of {@code micros}. */
    private static double opsPerMs(long operations, int micros) {
        return operations * 1_000_000.0 / (micros * 1_000L);
    }

    /**
     * The case the planted-regression hunts below shrink to: the drain rate at 2 x 4 processors in a 300 µs
     * window, seed 0 (with a PAUSE of {@code pauseCycles}). Before a side that counted fewer than 100
     * operations stopped being evidence (2026-12-07, forty-eighth session), both shrank further, to 0.5 x 2
     * processors with a 10-cycle PAUSE, where spin=none counted 29 operations in its 300 µs.
     */
    private static void assertSmallestDrainCase(HuntCase found, int pauseCycles) {
        assertThat(found.workload().name()).isEqualTo("mres-wait-drain-rate");
        assertThat(found.machine().name()).isEqualTo("skylake-i7-6700@pause=" + pauseCycles + ",procs=4");
        assertThat(found.machine().pauseCycles()).isEqualTo(pauseCycles);
        assertThat(found.machine().logicalProcessors()).isEqualTo(4);
        assertThat(found.multiplier()).isEqualTo(2.0);
        assertThat(found.windowMicros()).isEqualTo(300);
        assertThat(found.seed()).isZero();
    }

    /**
     * A case in which a side counted fewer than 100 operations is no evidence, however large its Δ: spin=none
     * drains 29 events in 300 µs at 0.5 x 2 processors, against 1,023 for the current spin.
     */
    @Test
    void shouldNotCountACaseWhoseSideCountedTooFewOperationsAsARegression() {
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.parse("current,spin=none"),
                HuntWorkloads.named(List.of("mres-wait-drain-rate")), 1, 7, 10);
        HuntCase tiny = new HuntCase(HuntWorkloads.named(List.of("mres-wait-drain-rate")).getFirst(),
                skylake(10, 2), 0.5, 300, 0);

        Hunt.Outcome outcome = Hunt.outcome(tiny, config);

        assertThat(outcome.candidate()).isLessThan(outcome.baseline() / 10);
        assertThat(outcome.regressed()).isFalse();
        assertThat(outcome.notMeasurable()).hasValueSatisfying(why -> assertThat(why)
                .startsWith("the candidate counted 29 operations with seed 0")
                .endsWith(" in the window (fewer than 100)"));
    }

    /**
     * A case whose window a side spent in its start-up on every seed is no evidence, however large its Δ:
     * netcore2.0's latency at 16 x 4 processors (10-cycle PAUSE) falls to 0.52-0.63 of its first half's rate in
     * the second half of a 3 ms window, on every seed, at a quarter of net6's. The same case in a 300 µs
     * window, where netcore2.0's rate holds, is a regression.
     */
    @Test
    void shouldNotCountACaseMeasuredInsideAStartUpAsARegression() {
        List<WorkloadSource> latency = HuntWorkloads.named(List.of("mres-wait-latency"));
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.legacy(), latency, 1, 7, 10);
        MachineProfile machine = skylake(10, 4);

        Hunt.Outcome settling = Hunt.outcome(new HuntCase(latency.getFirst(), machine, 16.0, 3_000, 0), config);
        Hunt.Outcome steady = Hunt.outcome(new HuntCase(latency.getFirst(), machine, 16.0, 300, 0), config);

        assertThat(settling.candidate()).isLessThan(settling.baseline() * 0.3);
        assertThat(settling.notMeasurable()).isEmpty();
        assertThat(settling.regressed()).isFalse();
        assertThat(settling.rateChanging()).contains("the candidate side counted 0.52 to 0.63 times as many "
                + "operations in the window's second half as in its first, on every seed");
        assertThat(steady.rateChanging()).isEmpty();
        assertThat(steady.regressed()).isTrue();
    }

    /**
     * A case in which a side's seeds scored more than ten times apart is no evidence, as such a row of reproduce is
     * not measurable: netcore2.0's latency at 2 x 4 processors (140-cycle PAUSE) in a 1 ms window counts bursts,
     * 73,226, 18,642 and 245 waits per ms on seeds 1 to 3, beside net6's steady 14,700-14,800.
     */
    @Test
    void shouldNotCountACaseWhoseSeedsScoredMoreThanTenfoldApartAsEvidence() {
        List<WorkloadSource> latency = HuntWorkloads.named(List.of("mres-wait-latency"));
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.legacy(), latency, 1, 7, 10);
        HuntCase bursts = new HuntCase(latency.getFirst(), skylake(140, 4), 2.0, 1_000, 1);

        Hunt.Outcome outcome = Hunt.outcome(bursts, config);

        assertThat(outcome.regressed()).isFalse();
        assertThat(outcome.rateChanging()).isEmpty();
        assertThat(outcome.notMeasurable()).hasValue("the candidate side's scores over 3 seeds span 298.9× (245.0 to "
                + "73226.0 per ms; more than 10×)");
    }

    /** A replay of such a case says why it is no evidence, in place of the threshold it did not cross. */
    @Test
    void shouldSayWhyAReplayedCaseMeasuredInsideAStartUpIsNoEvidence() {
        List<WorkloadSource> latency = HuntWorkloads.named(List.of("mres-wait-latency"));
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.legacy(), latency, 1, 7, 10);
        HuntCase replayed = new HuntCase(latency.getFirst(), skylake(10, 4), 16.0, 3_000, 0);
        String why = "the candidate side counted 0.52 to 0.63 times as many operations in the window's second half "
                + "as in its first, on every seed";
        Hunt.Report report = new Hunt.Report(Optional.empty(), Optional.empty(), 1000, 250, 1, 0, "", 7,
                Optional.of(replayed), Optional.empty(), Optional.of(why));

        assertThat(report.describe(config)).startsWith("hunt netcore2.0 vs net6, replayed case: mres-wait-latency(")
                .endsWith("candidate: 250.0 ops/ms, -75.0 %: no evidence: " + why + " (a start-up)")
                .doesNotContain("no regression");
    }

    @Test
    void shouldFindAndShrinkAPlantedRegression() {
        // Not spinning before blocking must lose to the current spin on a drain workload. The
        // hunt is seeded and every run deterministic, so what it finds is exact.
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.parse("current,spin=none"),
                HuntWorkloads.named(List.of("mres-wait-drain-rate")), 30, 7, 10);
        Hunt.Report report = Hunt.run(config);
        System.out.println(report.describe(config));

        assertThat(report.found()).isPresent();
        HuntCase shrunk = report.found().orElseThrow();
        HuntCase original = report.original().orElseThrow();
        assertSmallestDrainCase(shrunk, 1);
        // Exact counts since a contended line's handover point is drawn from the seed with noise
        // (2026-12-06, thirty-eighth session: before it 797 and 29 here, 2,886 and 1,374 in the legacy
        // hunt, and this hunt first found the third case, 4 x 8 processors with a 10-cycle PAUSE, seed
        // 762; now the second, 2 x 4 processors with a 1-cycle PAUSE, seed 34). Before that since the
        // memory model's queued requests (2026-12-05, thirty-third session:
        // 899 and 1,156 before them in the two drain tests, 1,286 in the legacy hunt); before that
        // since the ports' release stores and the unpark's drain of the store buffer
        // (2026-12-04, twenty-sixth session: 907 and 1,287 before them here and in the legacy hunt;
        // the store buffer itself, the twenty-fifth session, moved 797 and 819 in the two drain tests
        // below and 1,377 in the legacy hunt). Since an access happens after the
        // instructions before it, the third case loses: 4 x 8
        // processors with a 10-cycle PAUSE, seed 762 (with accesses priced when their thread stopped
        // and 0.2 cycles per bytecode, the second: 2 x 4 processors, PAUSE 1 cycle, seed 34).
        assertThat(original.machine().name()).isEqualTo("skylake-i7-6700@pause=1,procs=4");
        assertThat(original.multiplier()).isEqualTo(2.0);
        assertThat(original.windowMicros()).isEqualTo(3_000);
        assertThat(original.seed()).isEqualTo(34);
        assertThat(report.casesTried()).isEqualTo(2);
        assertThat(report.shrinkSteps()).isEqualTo(1);
        // (811 and 29 before a store to a line its core shares paid the invalidation instead of a transfer;
        // 1,107 and 29 before a hit stopped adding an L1 latency to the instruction clock's charge; 1,023 and 29,
        // shrunk to 0.5 x 2 processors, before a side that counted fewer than 100 operations stopped being evidence)
        assertThat(report.baselineScore()).isEqualTo(opsPerMs(155, 300));
        assertThat(report.candidateScore()).isEqualTo(opsPerMs(128, 300));
        assertThat(report.replay()).endsWith("--candidate net6,spin=none --workload mres-wait-drain-rate "
                + "--threshold 10.0 --replay c:0,1,1,2,0,0");

        String choices = report.replay().substring(report.replay().indexOf("c:"));
        Hunt.Report replayed = Hunt.replay(config, choices);
        assertThat(replayed.found()).contains(shrunk);
        assertThat(replayed.candidateScore()).isEqualTo(report.candidateScore());
        assertThat(replayed.baselineScore()).isEqualTo(report.baselineScore());
    }

    @Test
    void shouldRunOneTrajectoryPerCaseWithOneSeedAndNoNoise() {
        // The protocol's options: one seed without noise is the hunt of before, to the operation.
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.parse("current,spin=none"),
                HuntWorkloads.named(List.of("mres-wait-drain-rate")), 30, 7, 10, io.spinlab.sim.engine.Faults.none(),
                1, false);
        Hunt.Report report = Hunt.run(config);
        System.out.println(report.describe(config));

        assertSmallestDrainCase(report.found().orElseThrow(), 10);
        // (818 and 28 before a store to a line its core shares paid the invalidation instead of a transfer;
        // 1,224 and 29 before a hit stopped adding an L1 latency to the instruction clock's charge; 1,270 and 29,
        // shrunk to 0.5 x 2 processors, before a side that counted fewer than 100 operations stopped being evidence)
        assertThat(report.baselineScore()).isEqualTo(opsPerMs(154, 300));
        assertThat(report.candidateScore()).isEqualTo(opsPerMs(132, 300));
        assertThat(report.replay()).contains(" --seeds 1 --no-noise --replay ");
        assertThat(report.describe(config)).doesNotContain("medians of");
        assertThatThrownBy(() -> new Hunt.Config(Tuning.current(), Tuning.legacy(), MRES, 5, 1, 5,
                io.spinlab.sim.engine.Faults.none(), 0, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("seeds = 0 is out of range; allowed 1..100");
    }

    @Test
    void shouldReportNothingWhenTheCandidateIsTheBaseline() {
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.current(), MRES, 5, 3, 1);
        Hunt.Report report = Hunt.run(config);
        assertThat(report.found()).isEmpty();
        assertThat(report.casesTried()).isEqualTo(5);
        assertThat(report.describe(config)).contains("no regression");
    }

    @Test
    void shouldHuntCurrentAgainstLegacyOverTheMresWorkloads() {
        // Seeded and deterministic: the hunt finds the current spin losing 52 % to the legacy one
        // (the medians of three noisy seeds, every seed's Δ below -10 %)
        // in wait latency on a 10-cycle-PAUSE part with 2 processors, after exactly 4 cases (2 before
        // a line's holder kept it until a request reaches it: first found on 16 processors, seed 14).
        Hunt.Config config = new Hunt.Config(Tuning.legacy(), Tuning.current(), MRES, 40, 2026, 10);
        Hunt.Report report = Hunt.run(config);
        System.out.println(report.describe(config));

        assertThat(report.found()).isPresent();
        HuntCase shrunk = report.found().orElseThrow();
        assertThat(shrunk.workload().name()).isEqualTo("mres-wait-latency");
        assertThat(shrunk.machine().name()).isEqualTo("skylake-i7-6700@pause=10,procs=2");
        assertThat(shrunk.multiplier()).isEqualTo(0.5);
        assertThat(shrunk.windowMicros()).isEqualTo(300);
        assertThat(shrunk.seed()).isZero();
        HuntCase original = report.original().orElseThrow();
        assertThat(original.workload().name()).isEqualTo("mres-wait-latency");
        assertThat(original.machine().name()).isEqualTo("skylake-i7-6700@pause=10,procs=2");
        assertThat(original.multiplier()).isEqualTo(0.5);
        assertThat(original.windowMicros()).isEqualTo(3_000);
        assertThat(original.seed()).isEqualTo(422);
        assertThat(report.casesTried()).isEqualTo(4);
        assertThat(report.shrinkSteps()).isEqualTo(2);
        // (2,886 and 1,374, -52 %, before a contended line's handover point was drawn from the seed;
        // 2,951 and 1,633 before the harness announced its measured window, a call in guest code that
        // shifts the instruction clock by a few bytecodes; 2,951 and 1,681 before a thread woken within
        // half a context switch of its park skipped the wake latency; 2,948 and 1,681, -43 %, before a store
        // to a line its core shares paid the invalidation instead of a transfer; 3,440 and 1,438 before the
        // switch that brings back a thread unparked before it was asleep was jittered with the other costs;
        // 3,418 and 1,438 before a hit stopped adding an L1 latency to the instruction clock's charge)
        assertThat(report.baselineScore()).isEqualTo(opsPerMs(3400, 300));
        assertThat(report.candidateScore()).isEqualTo(opsPerMs(1618, 300));
        assertThat(report.replay()).endsWith("--replay c:0,0,0,0,0,0");
    }

    @Test
    void shouldRejectABadConfiguration() {
        assertThatThrownBy(() -> HuntWorkloads.named(List.of("nope")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown hunt workload 'nope'")
                .hasMessageContaining("mres-wait-drain-rate");
        assertThatThrownBy(() -> new Hunt.Config(Tuning.current(), Tuning.legacy(), MRES, 0, 1, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget = 0");
        assertThatThrownBy(() -> new Hunt.Config(Tuning.current(), Tuning.legacy(), MRES, 5, 1, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
    }
}
