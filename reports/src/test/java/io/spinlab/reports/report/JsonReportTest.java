package io.spinlab.reports.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JsonReportTest {

    private static JsonNode render() throws Exception {
        return new ObjectMapper().readTree(JsonReport.render(ReportFixture.data()));
    }

    @Test
    void shouldCarryEveryRawResultWhenRendered() throws Exception {
        JsonNode root = render();
        JsonNode row = root.at("/experiments/0/rows/1");

        assertThat(root.at("/experiments").size()).isEqualTo(4);
        assertThat(root.at("/experiments/0/rows").size()).isEqualTo(6);
        assertThat(row.get("label").asText()).isEqualTo("mres-wait-drain-rate 1pc");
        assertThat(row.get("leftScore").asDouble()).isEqualTo(60.0);
        assertThat(row.get("rightScore").asDouble()).isEqualTo(420.0);
        assertThat(row.get("deltaPercent").asDouble()).isEqualTo(600.0);
        assertThat(row.at("/published/source").asText()).contains("56 → 330");
        assertThat(row.get("verdict").asText()).isEqualTo("AGREES");
        assertThat(row.get("seed").asLong()).isEqualTo(1);
        assertThat(row.at("/machineProfile/pauseCycles").asInt()).isEqualTo(140);
        assertThat(row.at("/workloadParameters/window").asText()).isEqualTo("4ms");
        assertThat(row.get("windowExtended").isNull()).isTrue();
        assertThat(row.get("wallMillis").asLong()).isEqualTo(10);
        assertThat(row.at("/leftMetrics/threads").asDouble()).isEqualTo(8.0);
        assertThat(root.at("/experiments/0/tables/0/publishedTotal/deltaPercent").asDouble()).isEqualTo(322.0);
        assertThat(root.at("/provenance/seeds").toString()).isEqualTo("[1,2,3,7]");
    }

    @Test
    void shouldWriteNullWhenANumberHasNoValue() throws Exception {
        JsonNode failed = render().at("/experiments/2/rows/1");

        assertThat(failed.get("leftScore").isNull()).isTrue();
        assertThat(failed.get("deltaPercent").isNull()).isTrue();
        assertThat(failed.get("verdict").asText()).isEqualTo("FAILED");
        assertThat(failed.get("failure").asText()).startsWith("budget exhausted");
        assertThat(JsonReport.render(ReportFixture.data())).doesNotContain("NaN").doesNotContain("Infinity");
    }
}
