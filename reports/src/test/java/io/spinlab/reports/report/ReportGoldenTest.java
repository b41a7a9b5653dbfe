package io.spinlab.reports.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of a small fixed configuration ({@link ReportFixture}) against checked-in golden
 * files in {@code src/test/resources/golden/}: README.md, data.csv and data.json byte for byte,
 * and index.html with every chart's drawing cut down to its {@code <svg>} tag (the drawing's
 * coordinates follow the host's font metrics; {@code HtmlReportTest} checks the charts).
 *
 * <p>After an intended change of the report, regenerate the goldens and review their diff:
 * <pre>
 * ./mvnw -B -pl reports -am verify -Dtest=ReportGoldenTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dspinlab.golden.update=true
 * </pre>
 */
class ReportGoldenTest {

    /** Set to {@code true} to rewrite the golden files instead of comparing with them. */
    static final String UPDATE_PROPERTY = "spinlab.golden.update";

    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final Pattern SVG = Pattern.compile("(<svg id='[^']*')[^>]*>.*?</svg>", Pattern.DOTALL);

    @Test
    void shouldMatchGoldenFilesWhenAFixedReportIsWritten(@TempDir Path dir) throws IOException {
        ReportWriter.write(dir, ReportFixture.data());

        for (String file : List.of(ReportWriter.MARKDOWN, ReportWriter.CSV, ReportWriter.JSON)) {
            check(file, Files.readString(dir.resolve(file)));
        }
        check("index.structure.html", htmlStructure(Files.readString(dir.resolve(ReportWriter.HTML))));
    }

    @Test
    void shouldWriteTheSameBytesWhenTheSameReportIsWrittenTwice(@TempDir Path first, @TempDir Path second)
            throws IOException {
        ReportWriter.write(first, ReportFixture.data());
        ReportWriter.write(second, ReportFixture.data());

        for (String file : List.of(ReportWriter.MARKDOWN, ReportWriter.HTML, ReportWriter.JSON, ReportWriter.CSV)) {
            assertThat(Files.readAllBytes(second.resolve(file))).as(file)
                    .isEqualTo(Files.readAllBytes(first.resolve(file)));
        }
    }

    /** The page with each chart's drawing replaced by its bare {@code <svg id=...>} tag. */
    static String htmlStructure(String html) {
        return SVG.matcher(html).replaceAll("$1/>");
    }

    private static void check(String name, String actual) throws IOException {
        Path golden = GOLDEN.resolve(name);
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, actual);
            return;
        }
        assertThat(golden).as("golden file %s is missing; create it with -D%s=true", golden, UPDATE_PROPERTY)
                .exists();
        assertThat(actual).as("%s differs from its golden file %s; if the change is intended, regenerate with "
                + "-D%s=true and review the diff", name, golden.toAbsolutePath(), UPDATE_PROPERTY)
                .isEqualTo(Files.readString(golden));
    }
}
