package io.spinlab.reports.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A what-if grid prints each cell's Δ, and {@code n/m} where the cell's row measured nothing. */
class HeatmapTest {

    @Test
    void shouldPrintNotMeasuredWhereACellsRowMeasuredNothing() {
        Heatmap map = new Heatmap("w: right vs left, Δ %", List.of(10, 1000), List.of(4, 16));
        map.put(10, 4, 16.2);
        map.put(10, 16, -3.5);
        map.put(1000, 4, 4602.6);
        map.putNotMeasured(1000, 16);

        List<String> lines = map.table().lines().toList();

        assertThat(lines.get(0)).isEqualTo("w: right vs left, Δ %");
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s*10\\s+\\+16\\.2\\s+-3\\.5\\s*"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s*1000\\s+\\+4602\\.6\\s+n/m\\s*"));
        assertThat(map.svg()).startsWith("<svg").contains("</svg>");
    }
}
