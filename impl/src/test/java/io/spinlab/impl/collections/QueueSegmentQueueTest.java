package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueSegmentQueueTest extends ConcurrentFifoContractTest {

    @Override
    QueueSegmentQueue<Integer> newQueue() {
        return new QueueSegmentQueue<>(SpinContext.hardware(), 8);
    }

    @Test
    void shouldPackUpperAndLowerIndicesSixteenBitsEach() {
        int packed = QueueSegmentQueue.pack(256, 17);

        assertThat(QueueSegmentQueue.upper(packed)).isEqualTo(256);
        assertThat(QueueSegmentQueue.lower(packed)).isEqualTo(17);
    }

    @Test
    void shouldUseLegacySegmentLengthWhenNotGivenOne() {
        QueueSegmentQueue<Integer> queue = new QueueSegmentQueue<>();
        for (int i = 0; i < 3 * QueueSegmentQueue.SEGMENT_LENGTH; i++) {
            queue.offer(i);
        }

        assertThat(queue.size()).isEqualTo(3 * QueueSegmentQueue.SEGMENT_LENGTH);
        assertThat(queue.poll()).isZero();
    }

    @Test
    void shouldRejectSegmentLengthWhenIndicesCannotHoldIt() {
        assertThatThrownBy(() -> new QueueSegmentQueue<Integer>(SpinContext.hardware(), 0x10000))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
