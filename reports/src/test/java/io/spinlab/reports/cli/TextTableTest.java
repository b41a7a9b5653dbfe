package io.spinlab.reports.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextTableTest {

    @Test
    void shouldAlignNumbersRightAndTextLeft() {
        String table = new TextTable("name", "score").row("a", "1.5").row("longer", "100.25").render();
        assertThat(table).isEqualTo("""
                name     score
                ------  ------
                a          1.5
                longer  100.25
                """);
    }

    @Test
    void shouldRejectARowOfTheWrongWidth() {
        assertThatThrownBy(() -> new TextTable("a", "b").row("only one")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 cells").hasMessageContaining("2 columns");
    }
}
