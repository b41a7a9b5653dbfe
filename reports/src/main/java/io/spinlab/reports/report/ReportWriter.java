package io.spinlab.reports.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a report directory: {@value #MARKDOWN} (the tables), {@value #HTML} (tables and charts
 * on one self-contained page), {@value #JSON} and {@value #CSV} (every raw result). Files of
 * those names are replaced; nothing else in the directory is touched.
 */
public final class ReportWriter {

    /** The Markdown report. */
    public static final String MARKDOWN = "README.md";
    /** The HTML page. */
    public static final String HTML = "index.html";
    /** Every raw result as JSON. */
    public static final String JSON = "data.json";
    /** Every row as CSV. */
    public static final String CSV = "data.csv";

    private ReportWriter() {
    }

    /**
     * Makes sure {@code dir} can take a report before any work is done: creates it if needed.
     *
     * @throws IllegalArgumentException naming the directory and the reason when it cannot be
     *                                  created (a file of that name, no permission)
     */
    public static void prepare(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write the report to " + dir + ": " + e, e);
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("cannot write the report to " + dir + ": not writable");
        }
    }

    /**
     * Writes the report of {@code data} into {@code dir}, creating it if needed, and returns the
     * files written, in the order above.
     */
    public static List<Path> write(Path dir, ReportData data) throws IOException {
        Files.createDirectories(dir);
        Path markdown = Files.writeString(dir.resolve(MARKDOWN), MarkdownReport.render(data));
        Path html = Files.writeString(dir.resolve(HTML), HtmlReport.render(data));
        Path json = Files.writeString(dir.resolve(JSON), JsonReport.render(data));
        Path csv = Files.writeString(dir.resolve(CSV), CsvReport.render(data));
        return List.of(markdown, html, json, csv);
    }
}
