package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.CalibrationPoint;
import io.spinlab.sim.experiment.CalibrationResult;
import io.spinlab.sim.experiment.HostCalibration;
import io.spinlab.sim.experiment.HostCosts;
import io.spinlab.sim.experiment.Spread;
import io.spinlab.sim.machine.MachineProfileFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CalibrateCommandTest {

    @Test
    void shouldMeasureThisMachineAndWriteAProfileThatLoadsBack(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path profile = dir.resolve("host.json");
        int code = SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("calibrate", "--workload", "mres-wait-latency", "--out", profile.toString(), "--quiet",
                        "--repetitions", "2", "--seeds", "2");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .containsPattern("this machine: [0-9.]+ ns per PAUSE, " + Runtime.getRuntime().availableProcessors()
                        + " logical processors")
                .containsPattern("scheduler: the simulator's (windows|linux|linux-cfs) rules, time slice [0-9.]+ ms \\(")
                .contains("each score: the median of 2 real-thread runs (after 0.5 s of unmeasured runs of the point, for the "
                        + "JIT; a workload's tunings run in rounds, one run of each per round) and of 2 simulated seeds, "
                        + "with their range")
                .contains("hardware ops/ms").contains("hardware range").contains("simulated ops/ms")
                .contains("simulated range")
                .containsPattern("mres-wait-latency +net6 +[0-9.]+ +[0-9.]+–[0-9.]+ +[0-9.]+ +[0-9.]+–[0-9.]+")
                .containsPattern("mres-wait-latency +netcore2.0 +[0-9.]+ +[0-9.]+–[0-9.]+ +[0-9.]+ +[0-9.]+–[0-9.]+ +"
                        + "[0-9]+\\.[0-9]{2} +[0-9]+\\.[0-9]{2}")
                .contains("busy hw").contains("busy sim").contains("xfer ns")
                // two runs a point rank no pair apart at 5 %
                .containsPattern("tuning pairs ordered as on this host: 0 of the 0 whose hardware runs tell them apart "
                        + "by rank \\(Mann–Whitney, two-sided 5 %\\) \\(none to judge; [0-3] pairs in all\\)")
                .containsPattern("instruction clock: (one bytecode costs [0-9.]+ cycles|one bytecode's cost not "
                        + "measurable).*; spinlock-throughput: [0-9.]+ ns per operation on this host")
                .contains("rank correlation (Spearman)").contains("wrote the profile to " + profile)
                // three points of two runs each: their odd and even runs rank them, or tie them all (NaN, no line)
                .containsPattern("the host against itself \\(the same, between the medians of each point's "
                        + "odd-numbered and even-numbered real-thread runs\\): -?[0-9]\\.[0-9]{3}, about as high as "
                        + "the simulator's can be expected to reach against this host's noise|rank correlation "
                        + "\\(Spearman\\) of hardware and simulated scores over [0-9] measurable points: [-0-9.NaN]+\\n"
                        + "tuning pairs");
        if (Runtime.getRuntime().availableProcessors() >= 2) {
            assertThat(out.toString()).containsPattern("line transfer measured again after the runs: [0-9]+ ns \\(the "
                    + "profile has the [0-9]+ ns measured before them\\)")
                    // a shared host sometimes runs the two threads one after the other: such runs are left out
                    .containsPattern("contended line: 2 threads in a read-then-CAS loop on one word: (this host [0-9.]+ "
                            + "ns per success, [0-9.]+ successes per change of writer, [0-9.]+ failed CASes per success, at "
                            + "most [0-9]+ lost in a row \\(median of [1-5] runs(; [1-9][0-9]* more left out, their threads "
                            + "changed hands fewer than 100 times)?\\)|this host not measured \\(in none of 15 runs did "
                            + "the threads change hands 100 times: they did not run side by side\\)); simulated [0-9.]+ ns, "
                            + "[0-9.]+, [0-9.]+, [0-9]+ \\(median of 3 seeds\\)")
                    .containsPattern("contended ring: 2 threads offering and taking one item at a time on a queue's "
                            + "ring, backing off after a lost race: (this host [0-9.]+ ns per offer, [0-9.]+ offers per "
                            + "change of offerer, [0-9.]+ lost attempts per offer, at most [0-9]+ lost in a row|this host "
                            + "not measured).*; simulated [0-9.]+ ns, [0-9.]+, [0-9.]+, [0-9]+ \\(median of 3 seeds\\)")
                    .containsPattern("line hand-over: 2 threads handing a counter back and forth, ns per hand-over: "
                            + "waiting by reads with a PAUSE between them, this host [0-9.]+, simulated [0-9.]+ "
                            + "\\([0-9.]+× the profile's line transfer of [0-9.]+\\); waiting by CAS retries, this host "
                            + "[0-9.]+, simulated [0-9.]+ \\(median of 5 runs, of 3 seeds\\)")
                    .containsPattern("polling reader: a thread offering and taking alone on a queue's ring, then beside a "
                            + "thread polling the ring's tail and slot with a PAUSE between rounds: this host [0-9.]+ ns "
                            + "per offer and take alone, [0-9.]+ beside the poller, the poller [0-9.]+ ns a round; "
                            + "simulated [0-9.]+, [0-9.]+, [0-9.]+ \\(median of 5 runs, of 3 seeds\\)");
        } else {
            assertThat(out.toString()).doesNotContain("line transfer measured again")
                    .contains("contended line: not measured (it needs 2 cores)")
                    .contains("contended ring: not measured (it needs 2 cores)")
                    .contains("line hand-over: not measured (it needs 2 cores)")
                    .contains("polling reader: not measured (it needs 2 cores)");
        }
        assertThat(out.toString()).containsPattern("yield behind busy threads: a busy thread on every processor and "
                + "one more yielding: this host [0-9.]+ µs per yield on average, [0-9.]+ µs median, [0-9.]+ % away over "
                + "100 µs, longest [0-9.]+ µs \\(median of 3 runs of 2000 yields\\); simulated [0-9.]+ µs per yield on "
                + "average, [0-9.]+ µs median, [0-9.]+ % away over 100 µs, longest [0-9.]+ µs \\(median of 3 seeds of "
                + "500\\)");
        assertThat(out.toString()).doesNotContain("semaphore-latency");
        MachineProfile host = MachineProfileFiles.load(profile);
        assertThat(host.name()).isEqualTo("host");
        assertThat(host.logicalProcessors()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldPrintTheCalibrationAsOneJsonObjectWithEveryRunOfEveryPoint(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path profile = dir.resolve("host.yaml");
        int code = SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("calibrate", "--workload", "spinlock-throughput", "--out", profile.toString(), "--quiet",
                        "--repetitions", "4", "--seeds", "1", "--json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.toString());
        assertThat(json.get("nsPerPause").asDouble()).isPositive();
        assertThat(json.get("logicalProcessors").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(json.get("protocol").get("repetitions").asInt()).isEqualTo(4);
        assertThat(json.get("protocol").get("seeds").asInt()).isEqualTo(1);
        assertThat(json.get("checks").get("instructionClock").asText()).isNotEmpty();
        assertThat(json.get("checks").get("contendedRing").asText()).isNotEmpty();
        assertThat(json.get("checks").get("lineHandover").asText()).isNotEmpty();
        assertThat(json.get("checks").get("pollingReader").asText()).isNotEmpty();
        JsonNode points = json.get("points");
        assertThat(points).hasSize(3);
        int measurable = 0;
        for (JsonNode point : points) {
            assertThat(point.get("workload").asText()).isEqualTo("spinlock-throughput");
            assertThat(point.get("hardwareRuns")).as("one score per real-thread run: %s", point).hasSize(4);
            assertThat(point.get("simulatedSeeds")).as("one score per seed: %s", point).hasSize(1);
            assertThat(point.get("hardwareScore").asDouble()).isPositive();
            assertThat(point.get("simulatedScore").asDouble()).isPositive();
            // A lock's throughput is a rate on any host, but four real-thread runs on a loaded shared host can catch
            // a preempted holder: runs more than 10 times apart are then left out, with that reason and no other.
            if (point.get("notMeasurable").isNull()) {
                measurable++;
            } else {
                assertThat(point.get("notMeasurable").asText())
                        .matches("the 4 real-thread runs scored [0-9.]+× apart \\([0-9.]+ to [0-9.]+ per ms; more "
                                + "than 10×\\)");
            }
        }
        assertThat(json.get("tuningPairs").get("measurable").asInt()).isEqualTo(measurable * (measurable - 1) / 2);
        assertThat(json.get("tuningPairs").get("orderedOtherwise").size()).isEqualTo(
                json.get("tuningPairs").get("distinguishable").asInt() - json.get("tuningPairs").get("orderedAlike")
                        .asInt());
        assertThat(json.has("spearman")).isTrue();
        assertThat(json.has("hostSelfAgreement")).isTrue();
        assertInterval(json, "spearman", "spearmanInterval95");
        assertInterval(json, "hostSelfAgreement", "hostSelfAgreementInterval95");
        assertInterval(json.get("tuningPairs"), "share", "shareInterval95");
        assertThat(json.get("profile").asText()).isEqualTo(profile.toString());
        assertThat(MachineProfileFiles.load(profile).name()).isEqualTo("host");
        assertThat(out.toString()).doesNotContain("rank correlation");
        assertThat(err.toString()).isEmpty();
    }

    /**
     * The figure's lines on fixed points: five measurable points of two workloads, the simulator putting a's
     * third tuning below the other two where the host puts it above (ρ 0.7 over five points, an interval that
     * says little; 2 of 4 pairs alike).
     */
    @Test
    void shouldPrintEachFigureWithItsInterval() {
        List<CalibrationPoint> points = List.of(
                point("a", "net6", List.of(100.0, 101.0, 102.0, 103.0, 104.0), List.of(10.0, 11.0, 12.0)),
                point("a", "netcore2.0", List.of(200.0, 201.0, 202.0, 203.0, 204.0), List.of(20.0, 21.0, 22.0)),
                point("a", "legacy", List.of(300.0, 301.0, 302.0, 303.0, 304.0), List.of(5.0, 6.0, 7.0)),
                point("b", "net6", List.of(1000.0, 1001.0, 1002.0, 1003.0, 1004.0), List.of(100.0, 101.0, 102.0)),
                point("b", "netcore2.0", List.of(2000.0, 2001.0, 2002.0, 2003.0, 2004.0),
                        List.of(200.0, 201.0, 202.0)));
        HostCosts costs = new HostCosts(30, 6_000, 4_000, 9_000, 300, 1_060_000, 2_000);
        CalibrationResult result = new CalibrationResult(HostCalibration.hostProfile(20, costs), 20, points, costs);

        assertThat(CalibrateCommand.figures(result).lines().toList()).containsExactly(
                "rank correlation (Spearman) of hardware and simulated scores over 5 measurable points: 0.700, 95 % "
                        + "interval -0.508–0.980",
                "the host against itself (the same, between the medians of each point's odd-numbered and even-numbered "
                        + "real-thread runs): 1.000, 95 % interval 1.000–1.000, about as high as the simulator's can be "
                        + "expected to reach against this host's noise",
                "tuning pairs ordered as on this host: 2 of the 4 whose hardware runs tell them apart by rank "
                        + "(Mann–Whitney, two-sided 5 %) (50 %, 95 % interval 15–85 %; 4 pairs in all)",
                "ordered otherwise: a: legacy above net6 on this host (302.0 against 102.0), not simulated (6.0 against "
                        + "11.0)",
                "ordered otherwise: a: legacy above netcore2.0 on this host (302.0 against 202.0), not simulated (6.0 "
                        + "against 21.0)");
    }

    private static CalibrationPoint point(String workload, String tuning, List<Double> hardware,
            List<Double> simulated) {
        Spread hw = Spread.of(hardware);
        Spread sim = Spread.of(simulated);
        return new CalibrationPoint(workload, "", tuning, hw.median(), sim.median(), 2_000, 2_000, hw, sim);
    }

    /** An interval beside each figure: null where the figure is, else around it. */
    private static void assertInterval(JsonNode node, String figure, String interval) {
        assertThat(node.has(interval)).as(interval).isTrue();
        if (node.get(figure).isNull()) {
            return;
        }
        if (!node.get(interval).isNull()) {
            assertThat(node.get(interval).get("low").asDouble()).isLessThanOrEqualTo(node.get(figure).asDouble());
            assertThat(node.get(interval).get("high").asDouble()).isGreaterThanOrEqualTo(node.get(figure).asDouble());
        }
    }
}
