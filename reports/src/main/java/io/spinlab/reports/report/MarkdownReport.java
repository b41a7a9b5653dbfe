package io.spinlab.reports.report;

import io.spinlab.sim.experiment.Verdict;

import java.util.List;
import java.util.Map;

/**
 * A report as Markdown ({@code README.md} of a report directory): a summary of the verdicts,
 * then per experiment what it compares and its tables shaped like the published ones — a row
 * per workload, {@code Left score | Right score | Δ Score %}, the total line, the published
 * figure beside each row and the total where one exists, and the verdict — and last how the
 * report was produced.
 */
public final class MarkdownReport {

    private MarkdownReport() {
    }

    /** The Markdown text of {@code data}. */
    public static String render(ReportData data) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(data.title()).append("\n\n");
        md.append(data.lead()).append(" Left is the older ")
                .append("heuristic, right the newer; scores are operations per virtual ms, higher is better; ")
                .append("Δ Score % = (right − left) / left × 100. A verdict compares the simulated direction with ")
                .append("the published one (a change counts beyond ±5 %). Over several seeds a score is the ")
                .append("median, with the seeds' range in parentheses, and Δ carries the 95 % interval of the ")
                .append("per-seed Δ in brackets (Student's t over the per-seed score ratios, on a log scale); a ")
                .append("row whose interval holds 0 is neutral: against a published ")
                .append("improvement it neither agrees nor disagrees. Charts: `index.html`; every number: ")
                .append("`data.json`, `data.csv`.\n\n");
        summary(md, data);
        for (ReportSection section : data.sections()) {
            section(md, section);
        }
        provenance(md, data);
        return md.toString();
    }

    private static void summary(StringBuilder md, ReportData data) {
        md.append("| experiment | rows |");
        for (Verdict verdict : Verdict.values()) {
            md.append(' ').append(Format.verdict(verdict)).append(" |");
        }
        md.append("\n|---|--:|").append("--:|".repeat(Verdict.values().length)).append('\n');
        for (ReportSection section : data.sections()) {
            Map<Verdict, Integer> counts = section.verdictCounts();
            md.append("| [").append(section.name()).append("](#").append(section.name()).append(") | ")
                    .append(section.rows().size());
            for (Verdict verdict : Verdict.values()) {
                md.append(" | ").append(counts.getOrDefault(verdict, 0));
            }
            md.append(" |\n");
        }
        md.append('\n');
        md.append("Directions, among the rows that agree or disagree (Wilson's interval, the rows taken as ")
                .append("independent): ").append(data.directionsBySection()).append(".\n\n");
        md.append("Error against the published figures, exp(|ln(simulated right/left) − ln(published right/left)|) ")
                .append("per row with a figure: ").append(data.fidelityBySection()).append(".\n\n");
        if (data.hasPublishedLevels()) {
            md.append(Format.LEVELS_LEAD).append(data.levelsBySection()).append(".\n\n");
        }
        md.append("Windows: ").append(data.windowShortfall().describe()).append(" (each such row says why in ")
                .append("`data.json`, `windowShortOfProtocol`).\n\n");
    }

    private static void section(StringBuilder md, ReportSection section) {
        md.append("## ").append(section.name()).append("\n\n").append(section.description()).append("\n\n");
        md.append("Left: `").append(section.leftTuning()).append("`; right: `").append(section.rightTuning())
                .append("`.\n\n");
        for (ResultTable table : section.tables()) {
            table(md, table);
        }
        md.append("Verdicts: ").append(Format.verdictCounts(section.verdictCounts())).append(".\n\n");
        for (String line : section.publishedSummary()) {
            md.append("- published: ").append(line).append('\n');
        }
        if (!section.publishedSummary().isEmpty()) {
            md.append('\n');
        }
        List<ReportRow> failed = section.rows().stream().filter(r -> !r.result().completed()).toList();
        for (ReportRow row : failed) {
            md.append("- failed: ").append(row.label()).append(" on ").append(row.result().machine()).append(": ")
                    .append(cell(row.result().failure().orElseThrow())).append('\n');
        }
        List<ReportRow> empty = section.rows().stream().filter(r -> r.result().completed()
                && r.result().notMeasurable().isPresent()).toList();
        for (ReportRow row : empty) {
            md.append("- not measurable: ").append(row.label()).append(" on ").append(row.result().machine())
                    .append(": ").append(cell(row.result().notMeasurable().orElseThrow())).append('\n');
        }
        List<ReportRow> extended = section.rows().stream().filter(r -> r.result().windowExtended().isPresent())
                .toList();
        for (ReportRow row : extended) {
            md.append("- longer window: ").append(row.label()).append(" on ").append(row.result().machine())
                    .append(" (").append(cell(row.result().parameters())).append("): ")
                    .append(cell(row.result().windowExtended().orElseThrow())).append('\n');
        }
        List<ReportRow> changing = section.rows().stream().filter(r -> r.result().rateChanging().isPresent())
                .toList();
        for (ReportRow row : changing) {
            md.append("- rate still changing: ").append(row.label()).append(" on ").append(row.result().machine())
                    .append(": ").append(cell(row.result().rateChanging().orElseThrow())).append('\n');
        }
        if (!failed.isEmpty() || !empty.isEmpty() || !extended.isEmpty() || !changing.isEmpty()) {
            md.append('\n');
        }
    }

    private static void table(StringBuilder md, ResultTable table) {
        boolean perRowMachine = table.machine().isEmpty();
        table.machine().ifPresent(m -> md.append("### ").append(m).append("\n\n"));
        md.append(perRowMachine ? "| machine | row " : "| row ");
        md.append("| Left score | Right score | Δ Score % | published Δ % | verdict | CPU ns/op |\n");
        md.append(perRowMachine ? "|---|---" : "|---").append("|--:|--:|--:|--:|---|--:|\n");
        for (ReportRow row : table.rows()) {
            md.append('|');
            if (perRowMachine) {
                md.append(' ').append(row.result().machine()).append(" |");
            }
            md.append(' ').append(cell(row.label())).append(" | ").append(Format.score(row.result(), true))
                    .append(" | ").append(Format.score(row.result(), false)).append(" | ")
                    .append(Format.delta(row.result())).append(" | ")
                    .append(Format.published(row.result().published())).append(" | ")
                    .append(Format.verdict(row.result().verdict()))
                    .append(table.mechanismNumber(row) > 0 ? " [" + table.mechanismNumber(row) + "]" : "")
                    .append(" | ").append(Format.cpuPerOp(row.result())).append(" |\n");
        }
        Total total = table.total();
        String mean = Format.mean(total);
        md.append(perRowMachine ? "| **Total** | " + mean : "| **Total** (" + mean + ")").append(" | ")
                .append(Format.totalScore(total, total.leftScore())).append(" | ")
                .append(Format.totalScore(total, total.rightScore())).append(" | ")
                .append(Format.percent(total.deltaPercent())).append(" | ")
                .append(table.publishedTotal().map(Format::published).orElse("")).append(" | ")
                .append(table.publishedTotal().isPresent() ? Format.verdict(table.totalVerdict()) : "")
                .append(" |  |\n\n");
        List<String> mechanisms = table.mechanisms();
        if (!mechanisms.isEmpty()) {
            md.append("Why rows disagree, as far as found (`simulator/EXPERIMENTS.md`):\n\n");
            for (int i = 0; i < mechanisms.size(); i++) {
                md.append("- [").append(i + 1).append("] ").append(mechanisms.get(i)).append('\n');
            }
            md.append('\n');
        }
        List<String> sources = table.sources();
        if (!sources.isEmpty()) {
            md.append("Published: ").append(String.join("; ", sources)).append(".\n\n");
        }
    }

    private static void provenance(StringBuilder md, ReportData data) {
        Provenance p = data.provenance();
        md.append("## How this was produced\n\n");
        md.append("- Command: `").append(p.command()).append("`\n");
        md.append("- Seeds: ").append(seeds(data)).append('\n');
        md.append("- Mode: ").append(data.mode()).append('\n');
        md.append("- spinlab: ").append(p.version()).append(", commit ").append(p.commit()).append('\n');
        md.append("- JDK: ").append(p.jdk()).append('\n');
        md.append("- Date: ").append(p.date()).append('\n');
        md.append("- Wall time: ").append(p.wallTimeText()).append('\n');
    }

    static String seeds(ReportData data) {
        List<Long> seeds = data.seeds();
        return seeds.isEmpty() ? "none" : String.join(", ", seeds.stream().map(String::valueOf).toList());
    }

    /** Text made safe for a Markdown table cell. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
