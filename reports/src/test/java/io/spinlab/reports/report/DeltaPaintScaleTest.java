package io.spinlab.reports.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeltaPaintScaleTest {

    @Test
    void shouldSaySignAndSizeWhenColouringADelta() {
        assertThat(DeltaPaintScale.hex(0)).isEqualTo("#ffffff");
        // Symmetric in the log of right/left: a doubling as green as a halving is red, 255 × (1 − log10 2) faded.
        assertThat(DeltaPaintScale.hex(100)).isEqualTo("#b2ffb2");
        assertThat(DeltaPaintScale.hex(-50)).isEqualTo("#ffb2b2");
        // Not saturated at +100 %: +150 % and +2,500 % differ; a factor of 10 either way is full colour.
        assertThat(DeltaPaintScale.hex(150)).isNotEqualTo(DeltaPaintScale.hex(2500));
        assertThat(DeltaPaintScale.hex(900)).isEqualTo("#00ff00");
        assertThat(DeltaPaintScale.hex(-90)).isEqualTo("#ff0000");
        assertThat(DeltaPaintScale.hex(-100)).isEqualTo("#ff0000");
        assertThat(DeltaPaintScale.hex(-250)).isEqualTo("#ff0000");
        assertThat(DeltaPaintScale.hex(Double.POSITIVE_INFINITY)).isEqualTo("#00ff00");
        assertThat(DeltaPaintScale.hex(Double.NaN)).isEqualTo("#cccccc");
    }
}
