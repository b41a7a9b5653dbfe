package io.spinlab.impl.buffer;

import io.spinlab.impl.testing.ControlledClockPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.spinlab.impl.buffer.EventBufferManagerTest.SMALL;
import static io.spinlab.impl.buffer.EventBufferManagerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/** Buffer sizing and filling as one writer sees it, on a clock the test moves. */
class EventWriterTest {

    final ControlledClockPlatform platform = new ControlledClockPlatform();

    EventBufferManager manager(BufferManagerConfig config) {
        return new EventBufferManager(platform.context(Tuning.current()), config);
    }

    @Test
    void shouldFillABufferToItsLastByteBeforeTakingANewOne() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        writer.write(bytes(100, 0));
        writer.write(bytes(100, 1)); // 2 × 116 of 256 bytes: 24 left, a header and 8 bytes

        writer.write(bytes(8, 2));
        assertThat(manager.diagnostics().buffersAllocated()).isEqualTo(1);
        writer.write(bytes(0, 3));
        assertThat(manager.diagnostics().buffersAllocated()).isEqualTo(2);
    }

    @Test
    void shouldGiveAnEventLargerThanTheBaseSizeABufferOfItsOwnSize() {
        EventBufferManager manager = manager(new BufferManagerConfig(1 << 20, 64, 1024, 500, Long.MAX_VALUE));
        EventWriter writer = manager.newWriter();

        assertThat(writer.write(bytes(500, 7))).isEqualTo(WriteOutcome.WRITTEN);

        assertThat(manager.diagnostics().bytesInUse()).isEqualTo(516);
        platform.advance(1);
        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);
        assertThat(consumer.events.getFirst().payload()).isEqualTo(bytes(500, 7));
    }

    /**
     * A buffer's size grows with the buffers its writer holds (base × (held + 1)), and the buffers the
     * reader frees no longer count: after a read that frees both of the writer's buffers, its next
     * buffer has the base size again (256 bytes), not the size for two held buffers (768). PIT's
     * surviving mutant of {@code unlinkHeadLocked} (the count's store removed) gives 768.
     */
    @Test
    void shouldSizeTheNextBufferByTheBuffersStillHeldAfterTheReaderFreesSome() {
        EventBufferManager manager = manager(new BufferManagerConfig(1 << 20, 256, 1024, 100, Long.MAX_VALUE));
        EventWriter writer = manager.newWriter();
        for (int i = 0; i < 3; i++) {
            writer.write(bytes(100, i)); // 116 bytes each: two fill the 256-byte buffer, the third takes a 512
        }
        assertThat(manager.diagnostics().bytesInUse()).isEqualTo(256 + 512);
        platform.advance(1);
        manager.reader().read(new RecordingConsumer());
        assertThat(manager.diagnostics().bytesInUse()).as("held after the read").isZero();

        writer.write(bytes(100, 3));

        assertThat(manager.diagnostics().bytesInUse()).as("the new buffer's size").isEqualTo(256);
    }

    @Test
    void shouldAddASequencePointWhenABufferSpendsTheBudgetExactly() {
        // Budget 256: the first 256-byte buffer spends it exactly, the 512-byte one spends it again.
        EventBufferManager manager = manager(new BufferManagerConfig(1 << 20, 256, 1024, 100, 256));
        EventWriter writer = manager.newWriter();

        for (int i = 0; i < 3; i++) {
            writer.write(bytes(100, i));
        }

        assertThat(manager.diagnostics().buffersAllocated()).isEqualTo(2);
        assertThat(manager.diagnostics().sequencePoints()).isEqualTo(2);
    }

    @Test
    void shouldShowWhatItHasWrittenWhenPrinted() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        assertThat(writer).hasToString("EventWriter[0, next=1]");

        writer.close();

        assertThat(writer).hasToString("EventWriter[0, next=1, closed]");
    }

    @Test
    void shouldDescribeTheEventOnlyWhileItIsShown() {
        EventBufferManager manager = manager(SMALL);
        manager.newWriter().write(bytes(10, 0));
        platform.advance(1);
        List<String> seen = new ArrayList<>();
        List<EventView> views = new ArrayList<>();

        manager.reader().read(event -> {
            seen.add(event.toString());
            views.add(event);
        });

        assertThat(seen).containsExactly("EventView[w0#0, t=1000, 10 bytes]");
        assertThat(views.getFirst()).hasToString("EventView[none]");
    }
}
