package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
    void reproduceShouldPrintRowsWithPublishedFiguresAndWriteTheReport(@TempDir Path dir) throws Exception {
        assertThat(run("reproduce", "mres-proc-scaling", "--quick", "--out", dir.toString())).isZero();
        assertThat(out.toString()).contains("== mres-proc-scaling").contains("published Δ %").contains("verdict")
                .contains("report: " + dir.resolve("index.html") + " (also README.md, data.json, data.csv)");
        // The closing summary: one line per experiment and the totals, counts by verdict.
        assertThat(out.toString()).contains("== summary").containsPattern("mres-proc-scaling +2 ")
                .containsPattern("all +2 ")
                // and the share of agreeing directions with its interval, or none to count
                .containsPattern("directions, among the rows that agree or disagree \\(Wilson's 95 % interval, the "
                        + "rows taken as independent\\):\n(  mres-proc-scaling: .*\n)?  all: ([0-2] of [1-2] agree "
                        + "\\([0-9]+ %, 95 % interval [0-9]+–[0-9]+ %\\)|none agrees or disagrees)\n");
        assertThat(Files.readString(dir.resolve("README.md"))).contains("## mres-proc-scaling")
                .contains("| row | Left score | Right score | Δ Score % |").contains("**Total**");
        // --quick's two rows are not what a published total covers: no published total or verdict beside them.
        String total = Files.readString(dir.resolve("README.md")).lines().filter(l -> l.startsWith("| **Total**"))
                .findFirst().orElseThrow();
        assertThat(total).endsWith("|  |  |").doesNotContain("agrees").doesNotContain("+50.0");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("<svg")
                .contains("spinlab reproduce mres-proc-scaling --quick --out " + dir);
        assertThat(Files.readString(dir.resolve("data.csv"))).startsWith("experiment,workload,");
        JsonNode rows = new ObjectMapper().readTree(dir.resolve("data.json").toFile()).at("/experiments/0/rows");
        assertThat(rows.size()).isEqualTo(2);
        JsonNode row = rows.get(0);
        for (String field : new String[] {"experiment", "workload", "machine", "parameters", "leftTuning", "leftScore",
            "rightTuning", "rightScore", "deltaPercent", "published", "verdict", "seed", "leftMetrics"}) {
            assertThat(row.has(field)).as(field).isTrue();
        }
    }

    @Test
    void reproduceShouldShowProgressOnStandardErrorUnlessQuiet(@TempDir Path dir) throws Exception {
        // future-cpus: two quick rows of a few seconds (monitor-convoy's rows span the 2017 Monitor's 76 ms spin).
        String[] args = {"reproduce", "future-cpus", "--quick", "--json", "--out", dir.toString()};
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
    void reproduceShouldPrintOnlyJsonOnStandardOutputWhenJsonIsAsked(@TempDir Path dir) throws Exception {
        assertThat(run("reproduce", "future-cpus", "--quick", "--json", "--out", dir.toString())).isZero();

        JsonNode printed = new ObjectMapper().readTree(out.toString());
        assertThat(printed.isArray()).isTrue();
        assertThat(printed.size()).isEqualTo(2);
        assertThat(err.toString()).contains("report: " + dir.resolve("index.html"));
        assertThat(dir.resolve("index.html")).exists();
    }

    @Test
    void reproduceShouldWriteToSpinlabReportWhenNoOutIsGiven() {
        CommandLine reproduce = SpinlabCommand.commandLine(new PrintWriter(out), new PrintWriter(err))
                .getSubcommands().get("reproduce");

        assertThat(reproduce.getCommandSpec().findOption("--out").defaultValue()).isEqualTo("spinlab-report");
    }

    @Test
    void reproduceShouldWriteTheSameReportWhenRunTwiceWithTheSameInputs(@TempDir Path first, @TempDir Path second)
            throws Exception {
        assertThat(run("reproduce", "future-cpus", "--quick", "--out", first.toString())).isZero();
        assertThat(run("reproduce", "future-cpus", "--quick", "--out", second.toString())).isZero();

        for (String file : new String[] {"README.md", "index.html", "data.json", "data.csv"}) {
            assertThat(withoutRunFacts(Files.readString(second.resolve(file)), second)).as(file)
                    .isEqualTo(withoutRunFacts(Files.readString(first.resolve(file)), first));
        }
    }

    /** The report without what changes between two runs: the out directory, the date, the wall time. */
    private static String withoutRunFacts(String report, Path dir) {
        return report.replace(dir.toString(), "DIR").lines()
                .filter(line -> !line.matches(".*(Date|Wall time|\"date\"|\"wallTimeMillis\"|\"wallMillis\").*")).toList()
                .toString();
    }

    @Test
    void reproduceShouldSayWhyBeforeRunningWhenTheReportCannotBeWritten(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "a file, not a directory");

        assertThat(run("reproduce", "future-cpus", "--out", file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("cannot write the report to " + file);
        assertThat(out.toString()).doesNotContain("== future-cpus");
    }

    @Test
    void reproduceShouldSayInTheReportThatTheFullCostModelRan(@TempDir Path dir) throws Exception {
        assertThat(run("reproduce", "future-cpus", "--quick", "--quiet", "--out", dir.toString())).isZero();
        assertThat(Files.readString(dir.resolve("README.md"))).contains("full cost model");
        assertThat(Files.readString(dir.resolve("data.json"))).contains("\"memoryModel\" : true");
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
        assertThat(drawing).startsWith("<svg").contains("<rect").contains(">PAUSE cycles<").contains("</svg>");
        assertThat(Files.readString(dir.resolve("README.md"))).startsWith("# spinlab whatif")
                .contains("skylake-i7-6700@pause=300,procs=4");
        // The same sweep as a report page: two thread counts would give two maps; one here, 2 × 2 cells.
        org.jsoup.nodes.Document page = org.jsoup.Jsoup.parse(dir.resolve("index.html").toFile());
        assertThat(page.selectFirst("h1").text()).isEqualTo("spinlab whatif");
        assertThat(page.select("figure.chart[data-kind=heatmap] svg")).hasSize(1);
        assertThat(page.select("figure.chart[data-kind=scores]")).isEmpty();
        assertThat(out.toString()).contains("report: " + dir.resolve("index.html"));
    }

    @Test
    void whatifShouldSayWhichCellRanAgainOverALongerWindowAndWhy(@TempDir Path dir) throws Exception {
        // netcore2.0 drains 20 events in the planned 4 ms on a 1,000-cycle PAUSE: the cell runs over 40 ms.
        assertThat(run("whatif", "--workload", "mres-wait-drain-rate", "--threads", "1pc", "--pause-cycles", "1000",
                "--processors", "4", "--left", "netcore2.0", "--right", "net6", "--seeds", "1", "--quiet",
                "--out", dir.toString())).isZero();

        String why = "extended from warmup=2ms,window=4ms, where left counted 20 operations in the window (fewer than "
                + "100)";
        assertThat(out.toString()).contains("longer window: mres-wait-drain-rate(threads=1pc,delay=0,warmup=10ms,"
                + "window=40ms) on skylake-i7-6700@pause=1000,procs=4: " + why);
        JsonNode row = new ObjectMapper().readTree(dir.resolve("data.json").toFile()).at("/experiments/0/rows/0");
        assertThat(row.get("windowExtended").asText()).isEqualTo(why);
        assertThat(row.get("leftOperations").asLong()).isGreaterThanOrEqualTo(100);
        assertThat(row.get("verdict").asText()).isEqualTo("NO_CLAIM");
    }

    @Test
    void whatifShouldChartScoreAgainstCpuPerOperationOverASweptParameterWhenGivenAFrontier(@TempDir Path dir)
            throws Exception {
        assertThat(run("whatif", "--workload", "quwi", "--frontier", "spin=0,70", "--pause-cycles", "140",
                "--processors", "4", "--seeds", "1", "--no-noise", "--out", dir.toString())).isZero();
        String text = out.toString();
        assertThat(text).contains("quwi: score and CPU time per operation over spin")
                .contains("quwi with spin=0: ").contains("quwi with spin=70: ")
                .contains("left CPU ns/op").contains("right CPU ns/op").contains("and 1 frontier chart(s)");
        String table = text.substring(text.indexOf("over spin"));
        assertThat(table.lines().filter(l -> l.contains("pause=140,procs=4"))).hasSize(2);
        String drawing = Files.readString(dir.resolve("frontier-quwi-1pc.svg"));
        assertThat(drawing).startsWith("<svg").contains("CPU time per operation").contains("spin=0")
                .contains("spin=70").contains("</svg>");
        org.jsoup.nodes.Document page = org.jsoup.Jsoup.parse(dir.resolve("index.html").toFile());
        assertThat(page.select("figure.chart[data-kind=heatmap] svg")).hasSize(2);
    }

    @Test
    void whatifShouldRefuseAFrontierWithOneValueOrAThreadCountForAWorkloadWithoutThreads() {
        assertThat(run("whatif", "--workload", "quwi", "--frontier", "spin=70")).isEqualTo(2);
        assertThat(err.toString()).contains("--frontier spin=70: give at least two non-empty values");
        assertThat(run("whatif", "--workload", "quwi", "--threads", "2pc")).isEqualTo(2);
        assertThat(err.toString()).contains("--threads: quwi has no threads parameter");
        assertThat(run("whatif", "--frontier", "threads=1,2")).isEqualTo(2);
        assertThat(err.toString()).contains("the sweep sets threads at every point");
    }

    @Test
    void whatifShouldRejectAnUnknownMachineField() {
        assertThat(run("whatif", "--set", "warpSpeed=9", "--pause-cycles", "10", "--processors", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("warpSpeed");
    }
}
