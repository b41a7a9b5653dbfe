package io.spinlab.reports.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeltaPaintScaleTest {

    @Test
    void shouldSaySignAndSizeWhenColouringADelta() {
        assertThat(DeltaPaintScale.hex(0)).isEqualTo("#ffffff");
        assertThat(DeltaPaintScale.hex(100)).isEqualTo("#00ff00");
        assertThat(DeltaPaintScale.hex(-50)).isEqualTo("#ff8080");
        assertThat(DeltaPaintScale.hex(-250)).isEqualTo("#ff0000");
        assertThat(DeltaPaintScale.hex(Double.POSITIVE_INFINITY)).isEqualTo("#00ff00");
        assertThat(DeltaPaintScale.hex(Double.NaN)).isEqualTo("#cccccc");
    }
}
