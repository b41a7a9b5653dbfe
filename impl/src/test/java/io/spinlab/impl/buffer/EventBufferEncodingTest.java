package io.spinlab.impl.buffer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The little-endian field encoding of a buffer: a timestamp above 2^32 keeps its high half. */
class EventBufferEncodingTest {

    @Test
    void shouldRoundTripLongsWithBothHalvesLittleEndian() {
        byte[] array = new byte[16];
        long value = 0x0123_4567_89AB_CDEFL;

        EventBuffer.putLong(array, 4, value);

        assertThat(EventBuffer.getLong(array, 4)).isEqualTo(value);
        assertThat(EventBuffer.getInt(array, 4)).isEqualTo(0x89AB_CDEF);
        assertThat(EventBuffer.getInt(array, 8)).isEqualTo(0x0123_4567);
        assertThat(array[4]).isEqualTo((byte) 0xEF);
        assertThat(array[11]).isEqualTo((byte) 0x01);
        assertThat(array[0]).isZero();
        assertThat(array[12]).isZero();
        EventBuffer.putLong(array, 4, -2L);
        assertThat(EventBuffer.getLong(array, 4)).isEqualTo(-2L);
    }
}
