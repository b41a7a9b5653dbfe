package io.spinlab.impl.buffer;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventBufferManagerTest {
    /** Small sizes: 256-byte first buffers, 1 KB at most, 100-byte payloads at most, a 4 KB limit. */
    static final BufferManagerConfig SMALL = new BufferManagerConfig(4096, 256, 1024, 100, Long.MAX_VALUE);

    final TickingClockPlatform platform = new TickingClockPlatform();

    EventBufferManager manager(ReservationPolicy policy, BufferManagerConfig config) {
        Tuning tuning = Tuning.current().with(Knob.RESERVATION, policy);
        return new EventBufferManager(context(tuning), config);
    }

    /** The ticking clock with the hardware's PAUSE measurement (a ticking clock cannot measure PAUSE). */
    SpinContext context(Tuning tuning) {
        return SpinContext.of(platform, tuning, SpinContext.hardware().normalizer());
    }

    EventBufferManager manager(BufferManagerConfig config) {
        return manager(ReservationPolicy.LOCKLESS, config);
    }

    static byte[] bytes(int length, int seed) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (seed * 31 + i);
        }
        return payload;
    }

    @Test
    void shouldDeliverEachEventOnceWithItsPayloadTimestampAndSequenceWhenRead() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        long before = platform.peekNextTime();

        assertThat(writer.write(bytes(1, 1))).isEqualTo(WriteOutcome.WRITTEN);
        assertThat(writer.write(bytes(0, 2))).isEqualTo(WriteOutcome.WRITTEN);
        assertThat(writer.write(bytes(100, 3))).isEqualTo(WriteOutcome.WRITTEN);
        RecordingConsumer first = new RecordingConsumer();
        int delivered = manager.reader().read(first);
        RecordingConsumer second = new RecordingConsumer();
        manager.reader().read(second);

        assertThat(delivered).isEqualTo(3);
        assertThat(first.events).extracting(RecordingConsumer.Event::sequence).containsExactly(0, 1, 2);
        assertThat(first.events).extracting(RecordingConsumer.Event::writerId).containsOnly(0);
        assertThat(first.events.get(0).payload()).isEqualTo(bytes(1, 1));
        assertThat(first.events.get(1).payload()).isEmpty();
        assertThat(first.events.get(2).payload()).isEqualTo(bytes(100, 3));
        assertThat(first.events).extracting(RecordingConsumer.Event::timestamp).isSorted()
                .allSatisfy(t -> assertThat(t).isGreaterThanOrEqualTo(before));
        assertThat(first.drops).isEmpty();
        assertThat(second.events).isEmpty();
    }

    @Test
    void shouldWriteTheGivenRangeOfThePayloadWhenOffsetAndLengthAreGiven() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();

        writer.write(new byte[] {9, 8, 7, 6, 5}, 1, 3);
        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);

        assertThat(consumer.events.get(0).payload()).containsExactly(8, 7, 6);
    }

    @Test
    void shouldMergeWritersInTimestampOrderWhenSeveralWrote() {
        EventBufferManager manager = manager(SMALL);
        EventWriter first = manager.newWriter();
        EventWriter second = manager.newWriter();

        first.write(bytes(10, 0));
        second.write(bytes(20, 0));
        second.write(bytes(30, 0));
        first.write(bytes(40, 0));
        second.write(bytes(50, 0));
        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);

        assertThat(consumer.stream).containsExactly("e0#0", "e1#0", "e1#1", "e0#1", "e1#2");
        assertThat(consumer.events).extracting(RecordingConsumer.Event::timestamp).isSorted();
    }

    @Test
    void shouldRejectANullPayloadAtTheCallWithoutConsumingASequenceNumber() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();

        assertThatNullPointerException().isThrownBy(() -> writer.write(null)).withMessage("payload");
        assertThatNullPointerException().isThrownBy(() -> writer.write(null, 0, 0)).withMessage("payload");
        assertThatThrownBy(() -> writer.write(new byte[3], 2, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> writer.write(new byte[3], -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);

        assertThat(writer.nextSequenceNumber()).isZero();
        assertThat(writer.write(bytes(5, 5))).isEqualTo(WriteOutcome.WRITTEN);
        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);
        assertThat(consumer.stream).containsExactly("e0#0");
    }

    @Test
    void shouldRejectNullArgumentsWhenConstructed() {
        SpinContext context = context(Tuning.current());

        assertThatNullPointerException().isThrownBy(() -> new EventBufferManager(null, SMALL));
        assertThatNullPointerException().isThrownBy(() -> new EventBufferManager(context, null));
        assertThatNullPointerException().isThrownBy(() -> manager(SMALL).reader().read(null));
    }

    @Test
    void shouldDropOversizedEventsAndShowTheGapWhenThePayloadIsAboveTheMaximum() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();

        assertThat(writer.write(bytes(101, 0))).isEqualTo(WriteOutcome.DROPPED_OVERSIZED);
        assertThat(writer.write(bytes(100, 0))).isEqualTo(WriteOutcome.WRITTEN);
        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);

        assertThat(consumer.stream).containsExactly("d0#0+1", "e0#1");
        assertThat(writer.oversizedDrops()).isEqualTo(1);
        assertThat(manager.diagnostics().oversizedDrops()).isEqualTo(1);
        assertThat(manager.diagnostics().reservationFailures()).isZero();
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    @Test
    void shouldDropCountAndShowTheGapWhenTheLimitIsReached() {
        // A 1 KB limit: the first 256-byte buffer holds two 116-byte events; the next buffer
        // (512 bytes) fits; the one after (768) does not.
        EventBufferManager manager = manager(new BufferManagerConfig(1024, 256, 1024, 100, Long.MAX_VALUE));
        EventWriter writer = manager.newWriter();
        List<WriteOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            outcomes.add(writer.write(bytes(100, i)));
        }

        assertThat(outcomes).containsExactly(WriteOutcome.WRITTEN, WriteOutcome.WRITTEN, WriteOutcome.WRITTEN,
                WriteOutcome.WRITTEN, WriteOutcome.WRITTEN, WriteOutcome.WRITTEN, WriteOutcome.DROPPED,
                WriteOutcome.DROPPED, WriteOutcome.DROPPED);
        assertThat(manager.diagnostics().bytesInUse()).isEqualTo(768);
        assertThat(writer.droppedEvents()).isEqualTo(3);

        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);
        assertThat(manager.diagnostics().bytesInUse()).isZero();
        assertThat(writer.write(bytes(100, 9))).isEqualTo(WriteOutcome.WRITTEN);
        manager.reader().read(consumer);

        assertThat(consumer.stream).containsExactly("e0#0", "e0#1", "e0#2", "e0#3", "e0#4", "e0#5", "d0#6+3",
                "e0#9");
        assertThat(manager.diagnostics().reservationFailures()).isEqualTo(3);
        assertThat(manager.diagnostics().highWaterBytes()).isEqualTo(768);
    }

    @Test
    void shouldSizeEachNewBufferByTheBuffersTheWriterHoldsWhenNothingIsRead() {
        EventBufferManager manager = manager(new BufferManagerConfig(1 << 20, 256, 1024, 100, Long.MAX_VALUE));
        EventWriter writer = manager.newWriter();
        List<Long> inUse = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            writer.write(bytes(100, i));
            long bytes = manager.diagnostics().bytesInUse();
            if (inUse.isEmpty() || inUse.getLast() != bytes) {
                inUse.add(bytes);
            }
        }

        // 256, then 2 × 256, 3 × 256, 4 × 256 = the 1 KB cap, and the cap again.
        assertThat(inUse).startsWith(256L, 768L, 1536L, 2560L, 3584L);
        assertThat(manager.diagnostics().buffersAllocated()).isEqualTo(inUse.size());
    }

    @Test
    void shouldTakeTheWriteBufferAwayWhenReadSoTheNextEventGoesToANewBuffer() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        RecordingConsumer consumer = new RecordingConsumer();

        manager.reader().read(consumer);
        long afterFirstRead = manager.diagnostics().buffersAllocated();
        writer.write(bytes(10, 1));
        manager.reader().read(consumer);

        assertThat(afterFirstRead).isEqualTo(1);
        assertThat(manager.diagnostics().buffersAllocated()).isEqualTo(2);
        assertThat(consumer.stream).containsExactly("e0#0", "e0#1");
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    @Test
    void shouldFailFastAfterStopAndDeliverEverythingWrittenBefore() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        for (int i = 0; i < 3; i++) {
            writer.write(bytes(50, i));
        }

        manager.stop();

        assertThat(manager.isStopped()).isTrue();
        assertThat(writer.write(bytes(50, 3))).isEqualTo(WriteOutcome.STOPPED);
        assertThat(writer.write(bytes(500, 3))).isEqualTo(WriteOutcome.STOPPED);
        assertThat(manager.newWriter().write(bytes(1, 1))).isEqualTo(WriteOutcome.STOPPED);
        assertThat(writer.nextSequenceNumber()).isEqualTo(3);
        RecordingConsumer consumer = RecordingConsumer.drain(manager.reader());
        assertThat(consumer.stream).containsExactly("e0#0", "e0#1", "e0#2", "sp");
        assertThat(consumer.points.getLast().sequenceNumber(0)).isEqualTo(2);
        assertThat(manager.reader().isDrained()).isTrue();
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    @Test
    void shouldRevealTrailingDropsAtTheLastSequencePointWhenStopped() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        EventWriter idle = manager.newWriter();
        writer.write(bytes(10, 0));
        writer.write(bytes(200, 1));
        writer.write(bytes(200, 2));

        manager.stop();
        RecordingConsumer consumer = RecordingConsumer.drain(manager.reader());

        assertThat(consumer.stream).containsExactly("e0#0", "d0#1+2", "sp");
        SequencePoint last = consumer.points.getLast();
        assertThat(last.writerCount()).isEqualTo(2);
        assertThat(last.writerId(0)).isEqualTo(writer.id());
        assertThat(last.sequenceNumber(0)).isEqualTo(2);
        assertThat(last.writerId(1)).isEqualTo(idle.id());
        assertThat(last.sequenceNumber(1)).isEqualTo(-1);
        assertThat(manager.reader().dropsSeen()).isEqualTo(2);
    }

    @Test
    void shouldEmitSequencePointsAfterTheEventsTheyCoverWhenTheBudgetIsSpent() {
        // Budget 1 byte: every new buffer creates a sequence point.
        EventBufferManager manager = manager(new BufferManagerConfig(1 << 20, 256, 1024, 100, 1));
        EventWriter first = manager.newWriter();
        EventWriter second = manager.newWriter();
        for (int i = 0; i < 12; i++) {
            (i % 3 == 0 ? second : first).write(bytes(100, i));
        }

        manager.stop();
        RecordingConsumer consumer = new RecordingConsumer();
        List<Long> order = new ArrayList<>();
        EventConsumer tracking = new EventConsumer() {
            @Override
            public void onEvent(EventView event) {
                order.add(event.timestamp());
                consumer.onEvent(event);
            }

            @Override
            public void onSequencePoint(SequencePoint point) {
                order.add(point.timestamp());
                consumer.onSequencePoint(point);
            }
        };
        while (!manager.reader().isDrained()) {
            manager.reader().read(tracking);
        }

        BufferManagerDiagnostics diagnostics = manager.diagnostics();
        assertThat(diagnostics.sequencePoints()).isEqualTo(diagnostics.buffersAllocated() + 1);
        assertThat(consumer.points).hasSize((int) diagnostics.sequencePoints());
        assertThat(order).isSorted();
        for (SequencePoint point : consumer.points) {
            for (int i = 0; i < point.writerCount(); i++) {
                int covered = point.sequenceNumber(i);
                int writerId = point.writerId(i);
                assertThat(consumer.events).filteredOn(e -> e.writerId() == writerId && e.sequence() <= covered)
                        .allSatisfy(e -> assertThat(e.timestamp()).isLessThanOrEqualTo(point.timestamp()));
            }
        }
    }

    @Test
    void shouldRetireAClosedWriterOnceReadAndReportItsTrailingDrops() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        writer.write(bytes(101, 1));

        writer.close();
        RecordingConsumer consumer = new RecordingConsumer();
        manager.reader().read(consumer);

        assertThat(consumer.stream).containsExactly("e0#0", "d0#1+1");
        assertThat(manager.diagnostics().writers()).isZero();
        assertThat(manager.diagnostics().oversizedDrops()).isEqualTo(1);
        assertThat(writer.isClosed()).isTrue();
        assertThatIllegalStateException().isThrownBy(() -> writer.write(bytes(1, 1)))
                .withMessageContaining("closed");
    }

    @Test
    void shouldRefuseAReadFromItsOwnConsumerAndStayUsable() {
        EventBufferManager manager = manager(SMALL);
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        EventReader reader = manager.reader();

        assertThatIllegalStateException().isThrownBy(() -> reader.read(event -> reader.read(e -> { })))
                .withMessageContaining("own consumer");
        writer.write(bytes(10, 1));
        RecordingConsumer consumer = new RecordingConsumer();
        reader.read(consumer);

        assertThat(consumer.stream).containsExactly("e0#1");
    }

    @Test
    void shouldInvalidateTheViewWhenTheCallbackReturns() {
        EventBufferManager manager = manager(SMALL);
        manager.newWriter().write(bytes(10, 0));
        List<EventView> kept = new ArrayList<>();

        manager.reader().read(kept::add);

        assertThatIllegalStateException().isThrownBy(() -> kept.getFirst().payloadLength());
    }

    @ParameterizedTest
    @EnumSource(ReservationPolicy.class)
    void shouldTakeTheLockOnAFailedReservationOnlyWhenReservingUnderTheLock(ReservationPolicy policy) {
        EventBufferManager manager = manager(policy, new BufferManagerConfig(1024, 256, 1024, 100, Long.MAX_VALUE));
        EventWriter writer = manager.newWriter();
        int dropped = 0;
        for (int i = 0; i < 50; i++) {
            if (writer.write(bytes(100, i)) == WriteOutcome.DROPPED) {
                dropped++;
            }
        }

        BufferManagerDiagnostics diagnostics = manager.diagnostics();
        assertThat(dropped).isEqualTo(44);
        assertThat(diagnostics.reservationFailures()).isEqualTo(dropped);
        if (policy == ReservationPolicy.LOCKLESS) {
            assertThat(diagnostics.dropPathLockAcquisitions()).isZero();
            assertThat(diagnostics.lockAcquisitions()).isEqualTo(1 + 2); // newWriter, two links
        } else {
            assertThat(diagnostics.dropPathLockAcquisitions()).isEqualTo(dropped);
            assertThat(diagnostics.lockAcquisitions()).isEqualTo(1 + 2 * 2 + dropped);
        }
    }

    @ParameterizedTest
    @EnumSource(ReservationPolicy.class)
    void shouldReleaseNoBytesAndSoTakeNoThirdLockWhenAPassFreesNoBuffer(ReservationPolicy policy) {
        EventBufferManager manager = manager(policy, SMALL);
        EventWriter writer = manager.newWriter();
        long beforeEmptyPass = manager.diagnostics().lockAcquisitions();

        manager.reader().read(new RecordingConsumer());

        // One hold for the bound, one to unlink; nothing to release (under-lock would take the lock for it).
        assertThat(manager.diagnostics().lockAcquisitions()).as("a pass that frees nothing")
                .isEqualTo(beforeEmptyPass + 2);
        writer.write(bytes(10, 0));
        long beforeFreeingPass = manager.diagnostics().lockAcquisitions();
        manager.reader().read(new RecordingConsumer());
        assertThat(manager.diagnostics().lockAcquisitions()).as("a pass that frees a buffer")
                .isEqualTo(beforeFreeingPass + (policy == ReservationPolicy.UNDER_LOCK ? 3 : 2));
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    /** Timed waits need a clock that moves with real time. */
    static EventBufferManager realTimeManager() {
        return new EventBufferManager(SpinContext.hardware(), SMALL);
    }

    @Test
    void shouldReturnFromAwaitDataAtOnceWhenStopped() throws InterruptedException {
        EventBufferManager manager = realTimeManager();
        manager.stop();

        assertThat(manager.reader().awaitData(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shouldTimeOutInAwaitDataWhenNoBufferFills() throws InterruptedException {
        EventBufferManager manager = realTimeManager();
        manager.newWriter().write(bytes(10, 0));

        assertThat(manager.reader().awaitData(1, TimeUnit.MILLISECONDS)).isFalse();
    }

    @Test
    void shouldWakeTheReaderWhenAWriterFillsABuffer() throws InterruptedException {
        WaitWatchingPlatform watched = new WaitWatchingPlatform();
        EventBufferManager manager = new EventBufferManager(watched.context(Tuning.current()), SMALL);
        EventWriter writer = manager.newWriter();
        assertThat(writer.write(bytes(100, 0))).isEqualTo(WriteOutcome.WRITTEN);
        ConcurrentLinkedQueue<Boolean> woken = new ConcurrentLinkedQueue<>();
        try (TestThreads threads = new TestThreads()) {
            Thread reader = threads.start("reader", () -> {
                woken.add(manager.reader().awaitData(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS));
            });
            watched.awaitParked(reader, 0); // one event does not fill the 256-byte first buffer
            assertThat(woken).as("the reader returned before any buffer filled").isEmpty();

            for (int i = 1; i < 3; i++) {
                assertThat(writer.write(bytes(100, i))).isEqualTo(WriteOutcome.WRITTEN);
            }
            threads.joinAll();
        }
        assertThat(woken).as("awaitData's result: woken by the filled buffer, not timed out").containsExactly(true);
    }
}
