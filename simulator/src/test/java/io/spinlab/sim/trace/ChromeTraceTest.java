package io.spinlab.sim.trace;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.workload.MresPingPong;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trace of a small run is valid Chrome trace-event JSON with the structure Perfetto needs:
 * named lanes for processors and threads, complete slices that tile each thread's life, unpark
 * instants and flow arrows that pair up. The file is also left in {@code target/traces} to open
 * by hand.
 */
class ChromeTraceTest {

    /** One processor and no spinning: the two threads take turns, park and wake each other. */
    private static final MachineProfile ONE_CPU = MachinePresets.byName("skylake-i7-6700").withLogicalProcessors(1);
    private static final BigDecimal PICOS_PER_MICRO = BigDecimal.valueOf(1_000_000);
    private static SimulationResult result;
    private static JsonNode root;

    @BeforeAll
    static void runPingPong() throws IOException {
        SimulatedRun run = WorkloadRunner.simulate(new MresPingPong(50), Tuning.parse("current,spin=none"),
                Simulation.builder(ONE_CPU).seed(9).trace(true));
        result = run.simulation().requireCompleted();
        byte[] json = result.trace().orElseThrow().toChromeJson();
        Path dir = Path.of("target", "traces");
        Files.createDirectories(dir);
        Files.write(dir.resolve("mres-ping-pong.json"), json);
        ObjectMapper mapper = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
        root = mapper.readTree(json);
    }

    private static List<JsonNode> events(String phase) {
        List<JsonNode> list = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals(phase)) {
                list.add(e);
            }
        }
        return list;
    }

    @Test
    void shouldNameProcessorAndThreadLanesWhenTraceIsWritten() {
        Map<String, String> processNames = new HashMap<>();
        Set<String> threadNames = new HashSet<>();
        for (JsonNode m : events("M")) {
            if (m.get("name").asText().equals("process_name")) {
                processNames.put(m.get("pid").asText(), m.get("args").get("name").asText());
            }
            if (m.get("name").asText().equals("thread_name")) {
                threadNames.add(m.get("pid").asText() + ":" + m.get("args").get("name").asText());
            }
        }

        assertThat(root.get("displayTimeUnit").asText()).isEqualTo("ns");
        assertThat(root.get("otherData").get("digest").asText()).isEqualTo(result.digest());
        assertThat(root.get("otherData").get("machine").asText()).isEqualTo("skylake-i7-6700");
        assertThat(root.get("otherData").get("truncated").asBoolean()).isFalse();
        assertThat(processNames).containsEntry("1", "processors").containsEntry("2", "threads");
        assertThat(threadNames).contains("1:cpu 0", "2:main", "2:pong");
    }

    @Test
    void shouldTileEachThreadsLifeWithSlicesWhenTraceIsWritten() {
        Map<Integer, BigDecimal> covered = new HashMap<>();
        Map<Integer, BigDecimal> lastEnd = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (JsonNode x : events("X")) {
            assertThat(x.get("dur").decimalValue()).isPositive();
            assertThat(x.get("ts").decimalValue()).isNotNegative();
            if (x.get("pid").asInt() != 2) {
                assertThat(x.get("name").asText()).isIn("main", "pong");
                continue;
            }
            int tid = x.get("tid").asInt();
            names.add(x.get("name").asText());
            BigDecimal start = x.get("ts").decimalValue();
            BigDecimal end = start.add(x.get("dur").decimalValue());
            assertThat(start).as("slices of a thread do not overlap")
                    .isGreaterThanOrEqualTo(lastEnd.getOrDefault(tid, BigDecimal.ZERO));
            lastEnd.put(tid, end);
            covered.merge(tid, x.get("dur").decimalValue(), BigDecimal::add);
        }

        assertThat(names).contains("working", "parked on ManualResetEvent#0", "parked on ManualResetEvent#1",
                "runnable");
        for (int tid = 0; tid < 2; tid++) {
            ThreadMetrics t = result.metrics().threads().get(tid);
            BigDecimal lifetime = BigDecimal.valueOf(t.endPicos() - t.startPicos()).divide(PICOS_PER_MICRO);
            assertThat(covered.get(tid)).as(t.name()).isEqualByComparingTo(lifetime);
        }
    }

    @Test
    void shouldPairUnparkFlowsWhenThreadsWakeEachOther() {
        List<JsonNode> starts = events("s");
        List<JsonNode> finishes = events("f");
        Set<Long> startIds = new HashSet<>();
        starts.forEach(s -> startIds.add(s.get("id").asLong()));
        Set<Long> finishIds = new HashSet<>();
        finishes.forEach(f -> finishIds.add(f.get("id").asLong()));

        assertThat(startIds).isNotEmpty().isEqualTo(finishIds);
        assertThat(finishes).allSatisfy(f -> assertThat(f.get("bp").asText()).isEqualTo("e"));
        assertThat(events("i")).extracting(i -> i.get("name").asText()).contains("unpark pong", "woken (unpark)");
        long wakeUps = result.metrics().threads().stream().mapToLong(ThreadMetrics::wakeUps).sum();
        assertThat((long) finishIds.size()).isEqualTo(wakeUps);
    }
}
