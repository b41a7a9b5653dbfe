package io.spinlab.impl.buffer;

import io.spinlab.impl.testing.ControlledClockPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static io.spinlab.impl.buffer.EventBufferManagerTest.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

class SequencePointTest {

    final EventBufferManager manager = new EventBufferManager(new ControlledClockPlatform().context(Tuning.current()),
            SMALL);
    final EventWriter first = manager.newWriter();
    final EventWriter second = manager.newWriter();

    SequencePoint point(long timestamp, int firstNumber, int secondNumber) {
        return new SequencePoint(timestamp, new EventWriter[] {first, second}, new int[] {firstNumber, secondNumber});
    }

    @Test
    void shouldListEveryWriterWithItsNumberWhenPrinted() {
        assertThat(point(5, 3, -1)).hasToString("SequencePoint[t=5, w0=3, w1=-1]");
        assertThat(new SequencePoint(7, new EventWriter[0], new int[0])).hasToString("SequencePoint[t=7]");
    }

    @Test
    void shouldBeEqualOnlyWithTheSameTimeWritersAndNumbers() {
        SequencePoint point = point(5, 3, -1);

        assertThat(point).isEqualTo(point(5, 3, -1)).hasSameHashCodeAs(point(5, 3, -1));
        assertThat(point).isNotEqualTo(point(6, 3, -1));
        assertThat(point).isNotEqualTo(point(5, 4, -1));
        assertThat(point).isNotEqualTo(new SequencePoint(5, new EventWriter[] {second, first}, new int[] {3, -1}));
        assertThat(point).isNotEqualTo("SequencePoint[t=5, w0=3, w1=-1]");
        assertThat(point.hashCode()).isEqualTo(Long.hashCode(5) * 31 + java.util.Arrays.hashCode(new int[] {3, -1}));
    }

    @Test
    void shouldAnswerItsWritersInOrderWhenAsked() {
        SequencePoint point = point(5, 3, -1);

        assertThat(point.timestamp()).isEqualTo(5);
        assertThat(point.writerCount()).isEqualTo(2);
        assertThat(point.writerId(1)).isEqualTo(second.id());
        assertThat(point.writer(0)).isSameAs(first);
        assertThat(point.sequenceNumber(0)).isEqualTo(3);
    }
}
