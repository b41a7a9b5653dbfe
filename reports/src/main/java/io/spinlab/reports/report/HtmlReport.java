package io.spinlab.reports.report;

import io.spinlab.sim.experiment.ExperimentRow;
import io.spinlab.sim.experiment.Published;
import io.spinlab.sim.experiment.Verdict;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A report as one self-contained HTML page ({@code index.html} of a report directory): the
 * same tables as {@link MarkdownReport}, the charts of {@link ReportCharts} inlined as SVG, and
 * a "how this was produced" block. The page loads nothing: its style is inline, its charts are
 * inline SVG, it has no scripts and no web fonts, so it opens the same offline, from a file.
 *
 * <p>Structure, for tools that read the page: {@code section.experiment} per experiment (id =
 * the experiment's name), {@code table.results} per table ({@code data-machine} when the table
 * is one machine's), {@code tr.total} for its total line, {@code figure.chart} per chart
 * ({@code data-kind} = {@code scores}, {@code heatmap} or {@code events}), and
 * {@code section#provenance} with a {@code dd[data-field]} per fact.
 */
public final class HtmlReport {

    private static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; \
            max-width: 1100px; padding: 0 1rem; color: #222; line-height: 1.45; }
            h1 { margin-bottom: 0.2rem; }
            h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; margin-top: 2.5rem; }
            table { border-collapse: collapse; margin: 0.8rem 0 1.2rem; font-size: 0.9rem; }
            th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; }
            th { background: #f3f3f3; text-align: left; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            tr.total td { font-weight: bold; background: #fafafa; }
            .verdict-agrees { background: #dff0d8; }
            .verdict-disagrees { background: #f8d7da; color: #a00; }
            .verdict-neutral { background: #fff3cd; }
            .verdict-failed { color: #a00; font-weight: bold; }
            .verdict-not-measurable { background: #eee; color: #777; }
            .sources, .note { color: #555; font-size: 0.85rem; }
            .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(480px, 1fr)); gap: 1rem; }
            figure.chart { margin: 0; }
            figure.chart svg { width: 100%; height: auto; }
            figcaption { color: #555; font-size: 0.85rem; }
            code { background: #f5f5f5; padding: 0 0.2rem; }
            dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
            dt { font-weight: bold; }
            dd { margin: 0; }
            """;

    private HtmlReport() {
    }

    /** The page of {@code data}. */
    public static String render(ReportData data) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(escape(data.title())).append("</title>\n<style>\n").append(STYLE)
                .append("</style>\n</head>\n")
                .append("<body>\n<h1>").append(escape(data.title())).append("</h1>\n")
                .append("<p>").append(escape(data.lead())).append(" Left is the older ")
                .append("heuristic, right the newer; scores are operations per virtual ms, higher is better; ")
                .append("Δ Score % = (right − left) / left × 100. A verdict compares the simulated direction with ")
                .append("the published one (a change counts beyond ±5 %). Over several seeds a score is the ")
                .append("median, with the seeds' range in parentheses, and Δ carries the 95 % interval of the ")
                .append("per-seed Δ in brackets (Student's t over the per-seed score ratios, on a log scale); a ")
                .append("row whose interval holds 0 is neutral: against a published ")
                .append("improvement it neither agrees nor disagrees. Every number: <a href=\"data.json\">")
                .append("data.json</a>, <a href=\"data.csv\">data.csv</a>.</p>\n");
        summary(html, data);
        for (ReportSection section : data.sections()) {
            section(html, section);
        }
        provenance(html, data);
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void summary(StringBuilder html, ReportData data) {
        html.append("<table id=\"summary\" class=\"summary\">\n<thead><tr><th>experiment</th><th>rows</th>");
        for (Verdict verdict : Verdict.values()) {
            html.append("<th>").append(Format.verdict(verdict)).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (ReportSection section : data.sections()) {
            Map<Verdict, Integer> counts = section.verdictCounts();
            html.append("<tr><td><a href=\"#").append(escape(section.name())).append("\">")
                    .append(escape(section.name())).append("</a></td><td class=\"num\">")
                    .append(section.rows().size()).append("</td>");
            for (Verdict verdict : Verdict.values()) {
                html.append("<td class=\"num\">").append(counts.getOrDefault(verdict, 0)).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
        html.append("<p class=\"directions\">Directions, among the rows that agree or disagree (Wilson's interval, "
                + "the rows taken as independent): ").append(escape(data.directionsBySection())).append(".</p>\n");
        html.append("<p class=\"fidelity\">Error against the published figures, exp(|ln(simulated right/left) − "
                + "ln(published right/left)|) per row with a figure: ").append(escape(data.fidelityBySection()))
                .append(".</p>\n");
        if (data.hasPublishedLevels()) {
            html.append("<p class=\"levels\">").append(escape(Format.LEVELS_LEAD + data.levelsBySection()))
                    .append(".</p>\n");
        }
        html.append("<p class=\"windows\">Windows: ").append(escape(data.windowShortfall().describe()))
                .append(" (each such row says why in <code>data.json</code>, <code>windowShortOfProtocol</code>)")
                .append(".</p>\n");
    }

    private static void section(StringBuilder html, ReportSection section) {
        html.append("<section class=\"experiment\" id=\"").append(escape(section.name())).append("\">\n<h2>")
                .append(escape(section.name())).append("</h2>\n<p>").append(escape(section.description()))
                .append("</p>\n<p>Left: <code>").append(escape(section.leftTuning())).append("</code>; right: <code>")
                .append(escape(section.rightTuning())).append("</code>.</p>\n");
        List<ReportCharts.Figure> figures = ReportCharts.of(section);
        if (!figures.isEmpty()) {
            html.append("<div class=\"charts\">\n");
            for (ReportCharts.Figure figure : figures) {
                html.append("<figure class=\"chart\" data-kind=\"").append(figure.kind().text()).append("\">\n")
                        .append(figure.svg()).append("\n<figcaption>").append(escape(figure.caption()))
                        .append("</figcaption>\n</figure>\n");
            }
            html.append("</div>\n");
        }
        events(html, section);
        for (ResultTable table : section.tables()) {
            table(html, section, table);
        }
        html.append("<p class=\"verdicts\">Verdicts: ").append(escape(Format.verdictCounts(section.verdictCounts())))
                .append(".</p>\n");
        if (!section.publishedSummary().isEmpty()) {
            html.append("<ul class=\"published\">\n");
            for (String line : section.publishedSummary()) {
                html.append("<li>published: ").append(escape(line)).append("</li>\n");
            }
            html.append("</ul>\n");
        }
        for (ReportRow row : section.rows()) {
            row.result().failure().ifPresent(f -> html.append("<p class=\"verdict-failed\">failed: ")
                    .append(escape(row.label())).append(" on ").append(escape(row.result().machine())).append(": ")
                    .append(escape(f)).append("</p>\n"));
            if (row.result().completed()) {
                row.result().notMeasurable().ifPresent(why -> html.append("<p class=\"verdict-not-measurable\">not "
                        + "measurable: ").append(escape(row.label())).append(" on ").append(escape(row.result().machine()))
                        .append(": ").append(escape(why)).append("</p>\n"));
            }
            row.result().windowExtended().ifPresent(why -> html.append("<p class=\"window-extended\">longer window: ")
                    .append(escape(row.label())).append(" on ").append(escape(row.result().machine())).append(" (")
                    .append(escape(row.result().parameters())).append("): ").append(escape(why)).append("</p>\n"));
            row.result().rateChanging().ifPresent(why -> html.append("<p class=\"rate-changing\">rate still changing: ")
                    .append(escape(row.label())).append(" on ").append(escape(row.result().machine())).append(": ")
                    .append(escape(why)).append("</p>\n"));
        }
        html.append("</section>\n");
    }

    private static void events(StringBuilder html, ReportSection section) {
        List<ReportRow> rows = Charts.eventRows(section.rows());
        if (rows.isEmpty()) {
            return;
        }
        html.append("<table class=\"events\">\n<thead><tr><th>machine</th><th>tuning</th><th>events read</th>")
                .append("<th>events dropped</th><th>efficiency = read / (read + dropped)</th></tr></thead>\n")
                .append("<tbody>\n");
        for (ReportRow row : rows) {
            eventRow(html, row.result().machine(), section.leftTuning(), row.result().leftMetrics());
            eventRow(html, row.result().machine(), section.rightTuning(), row.result().rightMetrics());
        }
        html.append("</tbody>\n</table>\n");
    }

    private static void eventRow(StringBuilder html, String machine, String tuning, Map<String, Double> metrics) {
        double read = metrics.get(Charts.EVENTS_READ);
        double dropped = metrics.get(Charts.EVENTS_DROPPED);
        double efficiency = read + dropped == 0 ? 1 : read / (read + dropped);
        html.append("<tr><td>").append(escape(machine)).append("</td><td><code>").append(escape(tuning))
                .append("</code></td><td class=\"num\">").append(Format.count(read)).append("</td><td class=\"num\">")
                .append(Format.count(dropped)).append("</td><td class=\"num\">")
                .append(String.format(Locale.ROOT, "%.3f", efficiency)).append("</td></tr>\n");
    }

    private static void table(StringBuilder html, ReportSection section, ResultTable table) {
        boolean perRowMachine = table.machine().isEmpty();
        table.machine().ifPresent(m -> html.append("<h3>").append(escape(m)).append("</h3>\n"));
        html.append("<table class=\"results\" data-experiment=\"").append(escape(section.name())).append('"');
        table.machine().ifPresent(m -> html.append(" data-machine=\"").append(escape(m)).append('"'));
        html.append(">\n<thead><tr>").append(perRowMachine ? "<th>machine</th>" : "")
                .append("<th>row</th><th>Left score</th><th>Right score</th><th>Δ Score %</th>")
                .append("<th>published Δ %</th><th>verdict</th><th>CPU ns/op</th></tr></thead>\n<tbody>\n");
        for (ReportRow row : table.rows()) {
            html.append("<tr class=\"row\">");
            if (perRowMachine) {
                html.append("<td>").append(escape(row.result().machine())).append("</td>");
            }
            String published = Format.published(row.result().published());
            String source = row.result().published().source();
            html.append("<td title=\"").append(escape(row.result().parameters())).append("\">")
                    .append(escape(row.label())).append("</td>")
                    .append(numberCell(Format.score(row.result(), true)))
                    .append(numberCell(Format.score(row.result(), false)))
                    .append(deltaCell(row.result()))
                    .append(source.isEmpty() ? "<td class=\"num\">" : "<td class=\"num\" title=\"" + escape(source)
                            + "\">").append(publishedLink(row.result().published(), published)).append("</td>")
                    .append(verdictCell(row.result().verdict(), table.mechanismNumber(row), row.mechanism()))
                    .append(numberCell(Format.cpuPerOp(row.result()))).append("</tr>\n");
        }
        Total total = table.total();
        html.append("<tr class=\"total\"><td").append(perRowMachine ? " colspan=\"2\"" : "").append(">Total (")
                .append(escape(Format.mean(total))).append(")</td>")
                .append(numberCell(Format.totalScore(total, total.leftScore())))
                .append(numberCell(Format.totalScore(total, total.rightScore())))
                .append(deltaCell(total.deltaPercent()))
                .append(numberCell(table.publishedTotal().map(Format::published).orElse("")));
        if (table.publishedTotal().isPresent()) {
            html.append(verdictCell(table.totalVerdict()));
        } else {
            html.append("<td></td>");
        }
        html.append("<td></td></tr>\n</tbody>\n</table>\n");
        List<String> mechanisms = table.mechanisms();
        if (!mechanisms.isEmpty()) {
            html.append("<p class=\"note\">Why rows disagree, as far as found:</p>\n<ol class=\"mechanisms\">\n");
            mechanisms.forEach(m -> html.append("<li>").append(escape(m)).append("</li>\n"));
            html.append("</ol>\n");
        }
        List<String> sources = table.sources();
        if (!sources.isEmpty()) {
            html.append("<p class=\"sources\">Published: ").append(escape(String.join("; ", sources)))
                    .append(".</p>\n");
        }
    }

    /** The published claim's text, linked to the thread it was taken from when it is cited. */
    private static String publishedLink(Published published, String text) {
        return published.citation().map(c -> "<a href=\"" + escape(c.url()) + "\">" + escape(text) + "</a>")
                .orElse(escape(text));
    }

    /** A verdict cell; a disagreeing row's names its mechanism's number and carries its text as the title. */
    private static String verdictCell(Verdict verdict, int mechanism, Optional<String> text) {
        if (mechanism == 0) {
            return verdictCell(verdict);
        }
        String name = Format.verdict(verdict);
        return "<td class=\"verdict-" + name.replace(' ', '-') + "\" title=\"" + escape(text.orElse("")) + "\">"
                + name + " <sup>" + mechanism + "</sup></td>";
    }

    private static String numberCell(String text) {
        return "<td class=\"num\">" + escape(text) + "</td>";
    }

    /** A row's Δ with its interval, coloured by the row's verdict (not by the sign of Δ). */
    private static String deltaCell(ExperimentRow row) {
        return "<td class=\"num verdict-" + Format.verdict(row.verdict()).replace(' ', '-') + "\">"
                + escape(Format.delta(row)) + "</td>";
    }

    private static String deltaCell(double deltaPercent) {
        return "<td class=\"num\" style=\"background:" + DeltaPaintScale.hex(deltaPercent) + "\">"
                + escape(Format.percent(deltaPercent)) + "</td>";
    }

    private static String verdictCell(Verdict verdict) {
        String text = Format.verdict(verdict);
        return "<td class=\"verdict-" + text.replace(' ', '-') + "\">" + text + "</td>";
    }

    private static void provenance(StringBuilder html, ReportData data) {
        Provenance p = data.provenance();
        html.append("<section id=\"provenance\">\n<h2>How this was produced</h2>\n<dl>\n");
        fact(html, "command", "Command", "<code>" + escape(p.command()) + "</code>");
        fact(html, "seeds", "Seeds", escape(MarkdownReport.seeds(data)));
        fact(html, "mode", "Mode", escape(data.mode()));
        fact(html, "version", "spinlab", escape(p.version() + ", commit " + p.commit()));
        fact(html, "jdk", "JDK", escape(p.jdk()));
        fact(html, "date", "Date", escape(p.date().toString()));
        fact(html, "wall-time", "Wall time", escape(p.wallTimeText()));
        html.append("</dl>\n</section>\n");
    }

    private static void fact(StringBuilder html, String field, String name, String valueHtml) {
        html.append("<dt>").append(name).append("</dt><dd data-field=\"").append(field).append("\">").append(valueHtml)
                .append("</dd>\n");
    }

    /** Text made safe for HTML element content and quoted attribute values. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
