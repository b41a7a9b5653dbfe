package io.spinlab.reports.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CsvReportTest {

    @Test
    void shouldQuoteAFieldWhenItHoldsACommaAQuoteOrALineBreak() {
        assertThat(CsvReport.field("plain")).isEqualTo("plain");
        assertThat(CsvReport.field("a,b")).isEqualTo("\"a,b\"");
        assertThat(CsvReport.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(CsvReport.field("two\nlines")).isEqualTo("\"two\nlines\"");
        assertThat(CsvReport.field("")).isEqualTo("");
    }

    @Test
    void shouldWriteAHeaderAndOneCrlfLinePerRowWhenRowsAreGiven() {
        String csv = CsvReport.render(ReportFixture.data());
        List<String> lines = List.of(csv.split("\r\n", -1));

        assertThat(csv).endsWith("\r\n");
        assertThat(csv.replace("\r\n", "")).doesNotContain("\n").doesNotContain("\r");
        assertThat(lines).hasSize(1 + 6 + 8 + 2 + 2 + 1);
        assertThat(lines.get(0)).startsWith("experiment,workload,label,parameters,threads,machine,pauseCycles,")
                .contains(",failure,seeds,deltaLow95,deltaHigh95,neutral,")
                .contains(",left.threads,").contains(",right.read,right.dropped,");
        assertThat(lines.get(2)).startsWith("mres-proc-scaling,mres-wait-drain-rate,mres-wait-drain-rate 1pc,"
                + "\"threads=1pc,warmup=2ms,window=4ms\",1pc,skylake-i7-6700,140,8,1,false,");
    }

    @Test
    void shouldLeaveANumberEmptyWhenARunFailed() {
        String failed = List.of(CsvReport.render(ReportFixture.data()).split("\r\n")).stream()
                .filter(line -> line.contains("ivybridge")).findFirst().orElseThrow();

        assertThat(failed).startsWith("eventpipe-lockless,")
                .contains(",\"current,reservation=under-lock\",,current,2000.0,,")
                .contains("\"budget exhausted, \"\"virtual\"\" time (reproduce: x)\"");
    }
}
