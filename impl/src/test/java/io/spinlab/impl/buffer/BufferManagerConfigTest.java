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
}
