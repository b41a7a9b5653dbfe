package io.spinlab.sim.trace;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventLogDigestTest {

    private static String digestOf(int events, long tweakAt) {
        EventLogDigest digest = new EventLogDigest();
        for (int i = 0; i < events; i++) {
            digest.record(i * 1_000L, 1, i % 7, i == tweakAt ? 1 : 0, 0);
        }
        return digest.hex();
    }

    @Test
    void shouldGiveSameDigestWhenEventsAreTheSame() {
        assertThat(digestOf(1_000, -1)).isEqualTo(digestOf(1_000, -1)).hasSize(64);
    }

    @Test
    void shouldGiveDifferentDigestWhenOneEventDiffers() {
        assertThat(digestOf(1_000, 700)).isNotEqualTo(digestOf(1_000, -1));
        assertThat(digestOf(1_001, -1)).isNotEqualTo(digestOf(1_000, -1));
    }

    @Test
    void shouldDigestNothingAsSha256OfEmptyInput() {
        assertThat(new EventLogDigest().hex())
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void shouldFormatPicosecondsInLargestUnit() {
        assertThat(Picos.format(41_176)).isEqualTo("41.176 ns");
        assertThat(Picos.format(1_060_000_000L)).isEqualTo("1.06 ms");
        assertThat(Picos.format(999)).isEqualTo("999 ps");
        assertThat(Picos.format(3_000_000)).isEqualTo("3 us");
    }
}
