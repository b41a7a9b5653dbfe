package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ExperimentCommandsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        return SpinlabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    @Test
    void reproduceShouldPrintRowsWithPublishedFiguresAndWriteReports(@TempDir Path dir) throws Exception {
        assertThat(run("reproduce", "mres-proc-scaling", "--quick", "--out", dir.toString())).isZero();
        assertThat(out.toString()).contains("== mres-proc-scaling").contains("published Δ %").contains("verdict");
        assertThat(Files.readString(dir.resolve("report.md"))).contains("## mres-proc-scaling");
        JsonNode rows = new ObjectMapper().readTree(dir.resolve("rows.json").toFile());
        assertThat(rows.size()).isEqualTo(2);
        JsonNode row = rows.get(0);
        for (String field : new String[] {"experiment", "workload", "machine", "parameters", "leftTuning", "leftScore",
            "rightTuning", "rightScore", "deltaPercent", "publishedDeltaPercent", "verdict"}) {
            assertThat(row.has(field)).as(field).isTrue();
        }
    }

    @Test
    void reproduceShouldShowProgressOnStandardErrorUnlessQuiet(@TempDir Path dir) throws Exception {
        String[] args = {"reproduce", "monitor-convoy", "--quick", "--json", "--out", dir.toString()};
        err.getBuffer().setLength(0);
        assertThat(run(args)).isZero();
        // The bar's line: task, runs done of the total, elapsed and estimate; stdout stays JSON.
        assertThat(err.toString()).contains("reproduce").contains("2/2");
        assertThat(new ObjectMapper().readTree(out.toString()).isArray()).isTrue();
        err.getBuffer().setLength(0);
        String[] quiet = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of(
                "--quiet")).toArray(String[]::new);
        assertThat(run(quiet)).isZero();
        assertThat(err.toString()).doesNotContain("2/2");
    }

    @Test
    void reproduceShouldRejectAnUnknownExperiment() {
        assertThat(run("reproduce", "nope")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown experiment 'nope'").contains("mres-proc-scaling");
    }

    @Test
    void whatifShouldPrintAGridAndDrawAHeatMap(@TempDir Path dir) throws Exception {
        assertThat(run("whatif", "--workload", "mres-wait-latency", "--threads", "1pc", "--pause-cycles", "10,300",
                "--processors", "2,4", "--out", dir.toString())).isZero();
        assertThat(out.toString()).contains("PAUSE cycles").contains("2 procs").contains("4 procs");
        Path svg;
        try (var files = Files.list(dir)) {
            svg = files.filter(f -> f.toString().endsWith(".svg")).findFirst().orElseThrow();
        }
        String drawing = Files.readString(svg);
        assertThat(drawing).startsWith("<svg").contains("<rect").contains("</svg>");
        assertThat(Files.readString(dir.resolve("whatif.md"))).contains(svg.getFileName().toString());
    }

    @Test
    void whatifShouldRejectAnUnknownMachineField() {
        assertThat(run("whatif", "--set", "warpSpeed=9", "--pause-cycles", "10", "--processors", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("warpSpeed");
    }

    @Test
    void heatMapColoursShouldSaySignAndSize() {
        assertThat(Heatmap.color(0)).isEqualTo("#ffffff");
        assertThat(Heatmap.color(100)).isEqualTo("#00ff00");
        assertThat(Heatmap.color(-250)).isEqualTo("#ff0000");
        assertThat(Heatmap.color(Double.NaN)).isEqualTo("#cccccc");
    }
}
