package io.spinlab.impl.buffer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BufferManagerConfigTest {

    @Test
    void shouldUseEventPipeSizesWhenDefaulted() {
        BufferManagerConfig config = BufferManagerConfig.defaults();

        assertThat(config.limitBytes()).isEqualTo(256L << 20);
        assertThat(config.baseBufferBytes()).isEqualTo(100 * 1024);
        assertThat(config.maxBufferBytes()).isEqualTo(1 << 20);
        assertThat(config.maxEventPayloadBytes()).isEqualTo(64 * 1024);
        assertThat(config.sequencePointBudgetBytes()).isEqualTo(10L << 20);
    }

    @Test
    void shouldRejectZeroOrNegativeLimitWhenConstructed() {
        assertThatIllegalArgumentException().isThrownBy(() -> BufferManagerConfig.ofLimit(0))
                .withMessageContaining("limitBytes = 0");
        assertThatIllegalArgumentException().isThrownBy(() -> BufferManagerConfig.ofLimit(-5))
                .withMessageContaining("limitBytes = -5");
    }

    @Test
    void shouldRejectABufferLargerThanTheLimitWhenConstructed() {
        assertThatIllegalArgumentException().isThrownBy(() -> BufferManagerConfig.ofLimit(512 * 1024))
                .withMessageContaining("maxBufferBytes = 1048576 is above limitBytes = 524288");
    }

    @Test
    void shouldRejectInconsistentSizesWhenConstructed() {
        BufferManagerConfig config = BufferManagerConfig.defaults();

        assertThatIllegalArgumentException().isThrownBy(() -> config.withBufferBytes(0, 100))
                .withMessageContaining("baseBufferBytes = 0");
        assertThatIllegalArgumentException().isThrownBy(() -> config.withBufferBytes(4096, 1024))
                .withMessageContaining("maxBufferBytes = 1024 is below baseBufferBytes = 4096");
        assertThatIllegalArgumentException().isThrownBy(() -> config.withMaxEventPayloadBytes(-1))
                .withMessageContaining("maxEventPayloadBytes = -1");
        assertThatIllegalArgumentException().isThrownBy(() -> config.withMaxEventPayloadBytes(1 << 20))
                .withMessageContaining("does not fit in maxBufferBytes");
        assertThatIllegalArgumentException().isThrownBy(() -> config.withSequencePointBudgetBytes(0))
                .withMessageContaining("sequencePointBudgetBytes = 0");
    }

    @Test
    void shouldGrowBufferSizeWithBuffersHeldUpToTheCapWhenSized() {
        BufferManagerConfig config = BufferManagerConfig.defaults();

        assertThat(config.nextBufferBytes(0, 216)).isEqualTo(100 * 1024);
        assertThat(config.nextBufferBytes(1, 216)).isEqualTo(200 * 1024);
        assertThat(config.nextBufferBytes(9, 216)).isEqualTo(1000 * 1024);
        assertThat(config.nextBufferBytes(10, 216)).isEqualTo(1 << 20);
        assertThat(config.nextBufferBytes(50, 216)).isEqualTo(1 << 20);
        assertThat(config.nextBufferBytes(Integer.MAX_VALUE, 216)).isEqualTo(1 << 20);
    }

    @Test
    void shouldMakeTheBufferAtLeastTheEventWhenTheEventIsLarger() {
        BufferManagerConfig config = new BufferManagerConfig(1 << 20, 64, 1024, 500, 1 << 20);

        assertThat(config.nextBufferBytes(0, 516)).isEqualTo(516);
    }

    @Test
    void shouldNameTheLimitItselfWhenTheLimitIsNotPositive() {
        // Exact messages: a zero limit also fails the buffer-size check, whose message names the limit too.
        assertThatIllegalArgumentException().isThrownBy(() -> BufferManagerConfig.ofLimit(0))
                .withMessage("limitBytes = 0 is out of range; allowed 1 or more");
        assertThatIllegalArgumentException().isThrownBy(() -> new BufferManagerConfig(-1, 1, 1, 0, 1))
                .withMessage("limitBytes = -1 is out of range; allowed 1 or more");
    }

    @Test
    void shouldAcceptTheSmallestSizesOfEveryRangeWhenConstructed() {
        // A one-byte base and sequence-point budget; a zero payload; a buffer that is just a header.
        BufferManagerConfig smallest = new BufferManagerConfig(EventBuffer.HEADER_BYTES, 1, EventBuffer.HEADER_BYTES,
                0, 1);
        // A payload that fills the largest buffer exactly with its header.
        BufferManagerConfig exact = new BufferManagerConfig(1024, 256, 1024, 1024 - EventBuffer.HEADER_BYTES, 1);

        assertThat(smallest.maxEventPayloadBytes()).isZero();
        assertThat(smallest.maxBufferBytes()).isEqualTo(smallest.limitBytes());
        assertThat(exact.maxEventPayloadBytes()).isEqualTo(1008);
        assertThatIllegalArgumentException().isThrownBy(() -> exact.withMaxEventPayloadBytes(1009))
                .withMessage("maxEventPayloadBytes = 1009 plus the 16-byte event header does not fit in "
                        + "maxBufferBytes = 1024");
    }

    @Test
    void shouldChangeOnlyTheNamedSizeWhenCopiedWithANewOne() {
        BufferManagerConfig config = new BufferManagerConfig(1 << 20, 256, 1024, 100, 4096);

        assertThat(config.withLimitBytes(2048)).isEqualTo(new BufferManagerConfig(2048, 256, 1024, 100, 4096));
        assertThat(config.withBufferBytes(128, 512)).isEqualTo(new BufferManagerConfig(1 << 20, 128, 512, 100, 4096));
        assertThat(config.withMaxEventPayloadBytes(7)).isEqualTo(new BufferManagerConfig(1 << 20, 256, 1024, 7, 4096));
        assertThat(config.withSequencePointBudgetBytes(9))
                .isEqualTo(new BufferManagerConfig(1 << 20, 256, 1024, 100, 9));
    }
}
