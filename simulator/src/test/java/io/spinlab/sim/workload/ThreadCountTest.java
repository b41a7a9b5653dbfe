package io.spinlab.sim.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThreadCountTest {

    @Test
    void shouldResolveMultiplesByRoundingWhenProcessorCountIsGiven() {
        assertThat(ThreadCount.parse("0.5pc").resolve(8)).isEqualTo(4);
        assertThat(ThreadCount.parse("0.5pc").resolve(12)).isEqualTo(6);
        assertThat(ThreadCount.parse("0.5pc").resolve(1)).isEqualTo(1);
        assertThat(ThreadCount.parse("64pc").resolve(12)).isEqualTo(768);
        assertThat(ThreadCount.parse("1pc").resolve(2)).isEqualTo(2);
    }

    @Test
    void shouldKeepAbsoluteCountWhenProcessorCountChanges() {
        ThreadCount twelve = ThreadCount.parse("12");

        assertThat(twelve.resolve(2)).isEqualTo(12);
        assertThat(twelve.resolve(256)).isEqualTo(12);
        assertThat(twelve.isMultiple()).isFalse();
    }

    @Test
    void shouldGiveBackParsedTextWhenPrinted() {
        for (String text : new String[] {"0.5pc", "1pc", "2pc", "4pc", "16pc", "64pc", "3", "100"}) {
            assertThat(ThreadCount.parse(text)).hasToString(text);
        }
        assertThat(ThreadCount.PUBLISHED_MULTIPLES).extracting(ThreadCount::toString)
                .containsExactly("0.5pc", "1pc", "2pc", "4pc", "16pc", "64pc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "0pc", "-2pc", "abc", "", "1.5", "pc", "200000"})
    void shouldRejectTextListingWhatIsValidWhenCountIsBad(String text) {
        assertThatThrownBy(() -> ThreadCount.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'").hasMessageContaining("0.5pc, 1pc, 2pc, 4pc, 16pc, 64pc")
                .hasMessageContaining("absolute count");
    }
}
