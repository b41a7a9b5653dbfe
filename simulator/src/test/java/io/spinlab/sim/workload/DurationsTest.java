package io.spinlab.sim.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationsTest {

    @Test
    void shouldParseEveryUnitWhenTextHasOne() {
        assertThat(Durations.parseNanos("d", "0")).isZero();
        assertThat(Durations.parseNanos("d", "750ns")).isEqualTo(750);
        assertThat(Durations.parseNanos("d", "1us")).isEqualTo(1_000);
        assertThat(Durations.parseNanos("d", "2.5ms")).isEqualTo(2_500_000);
        assertThat(Durations.parseNanos("d", "1s")).isEqualTo(1_000_000_000);
    }

    @Test
    void shouldFormatTextThatParsesBackWhenRoundTripped() {
        for (long nanos : new long[] {0, 1, 999, 1_000, 1_500, 2_560_000, 7_680_000, 1_000_000_000L, 20_480_000}) {
            assertThat(Durations.parseNanos("d", Durations.format(nanos))).isEqualTo(nanos);
        }
        assertThat(Durations.format(2_560_000)).isEqualTo("2.56ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1ms", "5", "1h", "ms", "1.2.3us", "2hours"})
    void shouldRejectTextNamingParameterWhenDurationIsBad(String text) {
        assertThatThrownBy(() -> Durations.parseNanos("window", text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window").hasMessageContaining(text).hasMessageContaining("ns, us, ms or s");
    }
}
