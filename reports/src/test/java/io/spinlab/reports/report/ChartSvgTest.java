package io.spinlab.reports.report;

import org.jfree.chart.JFreeChart;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChartSvgTest {

    private static JFreeChart scores() {
        return Charts.scoresByThreads("scores", ReportFixture.procScaling().rows());
    }

    @Test
    void shouldRenderTheSameTextWhenTheSameChartIsDrawnAgain() throws InterruptedException {
        String first = ChartSvg.render(scores(), "chart-a", 640, 360);
        Thread.sleep(2);
        String second = ChartSvg.render(scores(), "chart-a", 640, 360);

        assertThat(second).isEqualTo(first);
    }

    @Test
    void shouldNameEveryDefinitionAfterTheChartWhenRendered() {
        String svg = ChartSvg.render(scores(), "chart-b", 640, 360);
        Matcher ids = Pattern.compile("id='([^']*)'").matcher(svg);
        int count = 0;
        while (ids.find()) {
            assertThat(ids.group(1)).startsWith("chart-b");
            count++;
        }

        assertThat(count).isGreaterThan(1);
        assertThat(svg).startsWith("<svg id='chart-b'").contains("viewBox=").endsWith("</svg>");
    }

    @Test
    void shouldWriteLabelsAsTextNotGlyphOutlinesWhenAxesAreDrawn() {
        String svg = ChartSvg.render(scores(), "chart-c", 640, 360);

        assertThat(svg).containsPattern("transform='matrix\\(0,-1,1,0,[^']*'><text[^>]*>score \\(ops per ms\\)</text>")
                .containsPattern("<text[^>]*>0.5</text>").doesNotContainPattern("<path [^>]*d='[^']*Q");
    }

    @Test
    void shouldDrawHeadlessWhenChartsAreBuilt() {
        scores();

        assertThat(System.getProperty("java.awt.headless")).isEqualTo("true");
    }

    @Test
    void shouldRoundCoordinatesToTwoDecimalsWhenWritingNumbers() {
        assertThat(ChartSvg.twoDecimals(12.3456)).isEqualTo("12.35");
        assertThat(ChartSvg.twoDecimals(40.0)).isEqualTo("40");
        assertThat(ChartSvg.twoDecimals(-0.001)).isEqualTo("0");
        assertThat(ChartSvg.twoDecimals(Double.NaN)).isEqualTo("0");
    }

    @Test
    void shouldRejectAnIdThatIsNotAnXmlNameWhenRendering() {
        assertThatThrownBy(() -> ChartSvg.render(scores(), "1 chart", 10, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'1 chart'");
        assertThatThrownBy(() -> ChartSvg.render(scores(), "chart", 0, 10))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldDrawAHeatMapCellPerValueWhenAGridIsGiven() {
        String svg = ChartSvg.render(Charts.heatmap("grid", List.of(1, 10), List.of(4, 16, 64),
                new double[][] {{-50, 0, 50}, {Double.NaN, 200, -200}}), "grid", 500, 300);

        // Colours on the symmetric log scale: -50 % as red as +100 % would be green, +200 % (3×)
        // greener than that, -200 % (a negative ratio) full red; the legend labels Δ % from -90 to +900.
        assertThat(svg).contains(">-50.0<").contains(">+200.0<").contains(">n/a<")
                .contains("fill:rgb(255,178,178)").contains("fill:rgb(133,255,133)").contains("fill:rgb(255,0,0)")
                .contains(">-90<").contains(">+900<");
    }
}
