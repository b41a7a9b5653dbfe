package io.spinlab.reports.report;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.experiment.ExperimentRow;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTML page read back with an HTML parser: tables, charts, provenance, nothing loaded from elsewhere. */
class HtmlReportTest {

    private static Document page;

    @BeforeAll
    static void render() {
        page = Jsoup.parse(HtmlReport.render(ReportFixture.data()));
    }

    @Test
    void shouldShapeTablesLikeThePublishedOnesWhenRowsAreGiven() {
        Element table = page.selectFirst("section#mres-proc-scaling table.results[data-machine=skylake-i7-6700]");

        assertThat(table).isNotNull();
        assertThat(table.select("thead th").eachText()).containsExactly("row", "Left score", "Right score",
                "Δ Score %", "published Δ %", "verdict", "CPU ns/op");
        assertThat(table.select("tbody tr.row")).hasSize(6);
        Element published = rowLabelled(table, "mres-wait-drain-rate 1pc");
        // Without a CPU-per-operation metric the last cell stays empty (eachText skips it).
        assertThat(published.select("td")).hasSize(7);
        assertThat(published.select("td").eachText()).containsExactly("mres-wait-drain-rate 1pc", "60.0", "420.0",
                "+600.0", "+489.3", "agrees");
        Element total = table.selectFirst("tbody tr.total");
        assertThat(total.text()).startsWith("Total (geometric mean of 6 rows)");
        assertThat(total.select("td").get(4).text()).isEqualTo("+322.0");
    }

    @Test
    void shouldLinkTheCitedThreadAndExplainTheDisagreementWhenACitedRowDisagrees() {
        MachineProfile xeon = io.spinlab.model.machine.MachinePresets.byName("xeon-2s-32t");
        io.spinlab.sim.experiment.Citation citation = new io.spinlab.sim.experiment.Citation("dotnet/coreclr", 9234,
                "dotnet/coreclr#9234", "https://github.com/dotnet/coreclr/pull/9234", "stephentoub", "2017-02-01",
                "a 32-core box", "the after cells could not be read");
        io.spinlab.sim.experiment.Published published = io.spinlab.sim.experiment.Published.figure(100, 200,
                "coreclr #9234: serial").citing(citation);
        ExperimentRow row = new ExperimentRow("threadpool-global-queue", "quwi-suite", xeon.name(),
                "drivers=serial,depth=1,from=threads,calls=262144,requests=per-item,spin=70,warmup=2ms,window=4ms",
                "netcore2.0,global-queue=queue-segment", 500, "netcore2.0", 501, published, Map.of(), Map.of(),
                Optional.empty(), 10, true, 2_000, 2_004, 1L);
        ReportSection section = new ReportSection("threadpool-global-queue", "fixture", "a", "b", List.of(),
                Map.of(), List.of(new ReportRow(row, xeon, 1)));
        Document cited = Jsoup.parse(HtmlReport.render(new ReportData(List.of(section), ReportFixture.PROVENANCE)));

        Element cells = cited.selectFirst("table.results tbody tr.row");
        assertThat(cells.selectFirst("a[href=https://github.com/dotnet/coreclr/pull/9234]").text())
                .isEqualTo("+100.0");
        Element verdict = cells.select("td").get(5);
        assertThat(verdict.text()).isEqualTo("disagrees 1");
        assertThat(verdict.attr("title")).startsWith("One driver queues about one head every 1.1 µs");
        assertThat(cited.select("ol.mechanisms li").eachText()).singleElement().asString()
                .startsWith("One driver queues");
        assertThat(cited.selectFirst("p.sources").text()).contains("dotnet/coreclr #9234 (by stephentoub, "
                + "2017-02-01) https://github.com/dotnet/coreclr/pull/9234 — the after cells could not be read");
        String json = JsonReport.render(new ReportData(List.of(section), ReportFixture.PROVENANCE));
        assertThat(json).contains("\"mechanism\" : \"One driver queues").contains("\"leftScore\" : 100.0")
                .contains("\"author\" : \"stephentoub\"").contains("\"date\" : \"2017-02-01\"");
        assertThat(MarkdownReport.render(new ReportData(List.of(section), ReportFixture.PROVENANCE)))
                .contains("| disagrees [1] |").contains("- [1] One driver queues");
    }

    @Test
    void shouldShowTheSeedsIntervalAndColourTheDeltaByVerdictWhenRowsRanOverSeeds() {
        Element table = page.selectFirst("section#normalized-spin table.results");
        Elements rows = table.select("tbody tr.row");

        assertThat(rows).hasSize(2);
        List<String> neutral = rows.get(0).select("td").eachText();
        // Scores are medians with their range; Δ is the medians' with the 95 % interval of the per-seed Δ.
        assertThat(neutral.get(1)).isEqualTo("200.0 (180.0–230.0)");
        assertThat(neutral.get(2)).isEqualTo("210.0 (190.0–250.0)");
        assertThat(neutral.get(3)).startsWith("+5.0 [").contains(", +");
        assertThat(neutral.get(5)).isEqualTo("neutral");
        assertThat(neutral.get(6)).isEqualTo("412 → 380");
        assertThat(rows.get(0).select("td").get(3).hasClass("verdict-neutral")).isTrue();
        assertThat(rows.get(1).select("td").get(3).hasClass("verdict-agrees")).isTrue();
        assertThat(rows.get(1).select("td").eachText().get(5)).isEqualTo("agrees");
        assertThat(page.selectFirst("#provenance").text()).contains("run-to-run noise on");
    }

    @Test
    void shouldNameTheMachinePerRowWhenATableSpansMachines() {
        Element table = page.selectFirst("section#future-cpus table.results");

        assertThat(table.hasAttr("data-machine")).isFalse();
        assertThat(table.select("thead th").first().text()).isEqualTo("machine");
        assertThat(table.select("tbody tr.row").eachText()).hasSize(8).anySatisfy(
                row -> assertThat(row).startsWith("future-p140-n16 mres-wait-drain-rate 1pc"));
    }

    @Test
    void shouldSayWhichRowFailedAndLeaveItOutOfTheTotal() {
        Element table = page.selectFirst("section#eventpipe-lockless table.results[data-machine=ivybridge-e7-4x12]");

        assertThat(table.selectFirst("tr.row").select("td").eachText()).contains("failed");
        assertThat(table.selectFirst("tr.total").text()).contains("0 rows, leaving out 1 not measurable or failed");
        assertThat(page.select("section#eventpipe-lockless p.verdict-failed").text()).contains("budget exhausted");
    }

    @Test
    void shouldDrawEveryChartAsInlineSvgWithItsData() {
        Elements scores = page.select("section#mres-proc-scaling figure.chart[data-kind=scores]");
        Elements heatmaps = page.select("section#future-cpus figure.chart[data-kind=heatmap]");
        Elements events = page.select("section#eventpipe-lockless figure.chart[data-kind=events]");

        assertThat(scores).hasSize(2);
        Element scoreSvg = scores.get(1).selectFirst("svg");
        assertThat(scoreSvg.select("text").eachText()).contains("mres-wait-drain-rate delay=1us on skylake-i7-6700",
                "left: current,spin=proc-scaled,pause=raw", "right: current,spin=unscaled,pause=raw",
                "score (ops per ms)", "threads (× processors)", "0.5", "1", "2");
        assertThat(scoreSvg.select("line, path, polyline").size()).isGreaterThan(10);

        assertThat(heatmaps).hasSize(1);
        Element heatSvg = heatmaps.first().selectFirst("svg");
        assertThat(heatSvg.select("text").eachText()).contains("+0.0", "+25.0", "+50.0", "-25.0", "PAUSE cycles",
                "logical processors", "140", "16");
        assertThat(heatSvg.select("rect").size()).isGreaterThanOrEqualTo(4);

        assertThat(events).hasSize(1);
        Element eventSvg = events.first().selectFirst("svg");
        assertThat(eventSvg.select("text").eachText()).contains("events read", "events dropped",
                "kabylake-i7-7700hq · left", "kabylake-i7-7700hq · right");
        assertThat(page.select("section#eventpipe-lockless table.events tbody tr")).hasSize(2);
        assertThat(page.select("section#eventpipe-lockless table.events tbody tr").first().text())
                .contains("40,000").contains("960,000").contains("0.040");
    }

    @Test
    void shouldTellHowItWasProducedWhenProvenanceIsGiven() {
        Element block = page.selectFirst("section#provenance");

        assertThat(block.selectFirst("h2").text()).isEqualTo("How this was produced");
        assertThat(field(block, "command")).isEqualTo("spinlab reproduce --quick --out 'my report'");
        assertThat(field(block, "seeds")).isEqualTo("1, 2, 3, 7");
        assertThat(field(block, "mode")).isEqualTo("FAST MODE: only Platform calls cost time (shared memory and the "
                + "code between calls are free); run-to-run noise on (wake latency, PAUSE and clock-read costs, timer "
                + "phase)");
        assertThat(field(block, "version")).isEqualTo("0.1.0-test, commit abc1234");
        assertThat(field(block, "jdk")).isEqualTo("Test JDK 25");
        assertThat(field(block, "date")).isEqualTo("2026-01-02T03:04:05Z");
        assertThat(field(block, "wall-time")).isEqualTo("12.3 s");
    }

    @Test
    void shouldLoadNothingFromElsewhereWhenOpenedOffline() {
        assertThat(page.select("script, link, img, iframe, object, embed, [src]")).isEmpty();
        assertThat(page.select("style").html()).doesNotContain("@import").doesNotContain("url(");
        for (Element element : page.getAllElements()) {
            element.attributes().forEach(a -> {
                if (!a.getKey().startsWith("xmlns")) {
                    assertThat(a.getValue()).as(element.tagName() + " " + a.getKey()).doesNotContain("http:")
                            .doesNotContain("https:");
                }
            });
        }
    }

    @Test
    void shouldGiveEveryElementAUniqueIdWhenChartsShareThePage() {
        List<String> ids = page.select("[id]").eachAttr("id");
        Set<String> seen = new HashSet<>();

        assertThat(ids).allSatisfy(id -> assertThat(seen.add(id)).as(id).isTrue());
        assertThat(page.select("svg")).hasSize(5);
    }

    private static Element rowLabelled(Element table, String label) {
        return table.select("tbody tr.row").stream().filter(r -> r.selectFirst("td").text().equals(label))
                .findFirst().orElseThrow(() -> new AssertionError("no row " + label));
    }

    private static String field(Element block, String name) {
        return block.selectFirst("dd[data-field=" + name + "]").text();
    }
}
