package io.spinlab.impl.buffer;

import io.spinlab.impl.testing.ControlledClockPlatform;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.spinlab.impl.buffer.EventBufferManagerTest.SMALL;
import static io.spinlab.impl.buffer.EventBufferManagerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pass delivers what is stamped strictly before its bound (its own clock read). With a clock
 * that moves only when the test says, events, buffers and sequence points stamped at the very
 * bound are left to the next pass; ties between writers go to the writer registered first.
 * Also the reader's counters and the retirement of closed writers.
 */
class EventReaderBoundTest {

    final ControlledClockPlatform platform = new ControlledClockPlatform();
    final EventBufferManager manager = new EventBufferManager(platform.context(Tuning.current()), SMALL);

    @Test
    void shouldLeaveAnEventStampedAtTheBoundAndItsBufferToTheNextPass() {
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        RecordingConsumer consumer = new RecordingConsumer();

        assertThat(manager.reader().read(consumer)).isZero();
        // Not detached: the buffer's first event is not older than the bound, so the writer keeps it.
        assertThat(writer.write(bytes(10, 1))).isEqualTo(WriteOutcome.WRITTEN);
        assertThat(manager.diagnostics().buffersAllocated()).isEqualTo(1);
        assertThat(consumer.stream).isEmpty();
        platform.advance(1);

        assertThat(manager.reader().read(consumer)).isEqualTo(2);
        assertThat(consumer.stream).containsExactly("e0#0", "e0#1");
    }

    @Test
    void shouldLeaveASequencePointStampedAtTheBoundToTheNextPassAndNotBeDrainedBefore() {
        manager.newWriter().write(bytes(10, 0));
        platform.advance(1);
        manager.stop(); // the last point is stamped now, at the bound of the next pass
        RecordingConsumer consumer = new RecordingConsumer();

        manager.reader().read(consumer);

        assertThat(consumer.stream).containsExactly("e0#0");
        assertThat(manager.reader().isDrained()).as("drained with the last point still queued").isFalse();
        platform.advance(1);
        manager.reader().read(consumer);
        assertThat(consumer.stream).containsExactly("e0#0", "sp");
        assertThat(manager.reader().isDrained()).isTrue();
    }

    @Test
    void shouldDeliverEqualTimestampsInWriterOrderAndSequencePointsAfterThem() {
        EventWriter first = manager.newWriter();
        EventWriter second = manager.newWriter();
        EventWriter third = manager.newWriter();
        third.write(bytes(1, 0));
        second.write(bytes(1, 1));
        first.write(bytes(1, 2));
        manager.stop();
        platform.advance(1);

        RecordingConsumer consumer = RecordingConsumer.drain(manager.reader());

        assertThat(consumer.stream).containsExactly("e0#0", "e1#0", "e2#0", "sp");
    }

    @Test
    void shouldKeepAClosedWriterUntilItsEventsAreRead() {
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        writer.close();
        RecordingConsumer consumer = new RecordingConsumer();

        manager.reader().read(consumer); // the event is stamped at the bound: not read yet

        assertThat(manager.diagnostics().writers()).isEqualTo(1);
        platform.advance(1);
        manager.reader().read(consumer);
        assertThat(consumer.stream).containsExactly("e0#0");
        assertThat(manager.diagnostics().writers()).isZero();
    }

    @Test
    void shouldRetireOnlyTheClosedWriterAndKeepTheOthersRegistered() {
        EventWriter closing = manager.newWriter();
        EventWriter staying = manager.newWriter();
        EventWriter last = manager.newWriter();
        closing.write(bytes(10, 0));
        staying.write(bytes(10, 1));
        closing.close();
        platform.advance(1);
        RecordingConsumer first = new RecordingConsumer();

        manager.reader().read(first);
        staying.write(bytes(10, 2));
        last.write(bytes(10, 3));
        manager.stop();
        platform.advance(1);
        RecordingConsumer rest = RecordingConsumer.drain(manager.reader());

        assertThat(manager.diagnostics().writers()).isEqualTo(2);
        assertThat(first.stream).containsExactly("e0#0", "e1#0");
        assertThat(rest.stream).containsExactly("e1#1", "e2#0", "sp");
        SequencePoint point = rest.points.getLast();
        assertThat(point.writerCount()).isEqualTo(2);
        assertThat(point.writerId(0)).isEqualTo(staying.id());
        assertThat(point.writerId(1)).isEqualTo(last.id());
    }

    @Test
    void shouldKeepTheDropCountsOfRetiredWritersInTheDiagnostics() {
        EventBufferManager full = new EventBufferManager(platform.context(Tuning.current()),
                new BufferManagerConfig(256, 256, 256, 100, Long.MAX_VALUE));
        EventWriter first = full.newWriter();
        EventWriter second = full.newWriter();
        first.write(bytes(100, 0)); // takes the only 256 bytes
        first.write(bytes(101, 1)); // oversized
        second.write(bytes(10, 2)); // no room: a reservation failure
        second.write(bytes(101, 3));
        second.write(bytes(101, 4));
        first.close();
        second.close();
        platform.advance(1);

        RecordingConsumer consumer = new RecordingConsumer();
        full.reader().read(consumer);

        BufferManagerDiagnostics diagnostics = full.diagnostics();
        assertThat(diagnostics.writers()).isZero();
        assertThat(diagnostics.oversizedDrops()).isEqualTo(3);
        assertThat(diagnostics.reservationFailures()).isEqualTo(1);
        assertThat(consumer.stream).containsExactly("e0#0", "d0#1+1", "d1#0+3");
    }

    @Test
    void shouldCountEventsDropsAndPassesWhenRead() {
        EventBufferManager limited = new EventBufferManager(platform.context(Tuning.current()),
                new BufferManagerConfig(1024, 256, 1024, 100, Long.MAX_VALUE));
        EventWriter writer = limited.newWriter();
        for (int i = 0; i < 9; i++) {
            writer.write(bytes(100, i)); // six fit in 256 + 512 bytes, three are dropped
        }
        platform.advance(1);
        EventReader reader = limited.reader();
        RecordingConsumer consumer = new RecordingConsumer();
        reader.read(consumer);
        writer.write(bytes(100, 9));
        platform.advance(1);

        reader.read(consumer);

        assertThat(consumer.stream).containsExactly("e0#0", "e0#1", "e0#2", "e0#3", "e0#4", "e0#5", "d0#6+3",
                "e0#9");
        assertThat(reader.eventsRead()).isEqualTo(7);
        assertThat(reader.dropsSeen()).isEqualTo(3);
        assertThat(reader.passes()).isEqualTo(2);
        assertThat(reader).hasToString("EventReader[passes=2, read=7, drops=3]");
        limited.stop();
        platform.advance(1);
        reader.read(consumer);
        assertThat(reader).hasToString("EventReader[passes=3, read=7, drops=3, drained]");
    }

    @Test
    void shouldLeaveALaterEventStampedAtTheBoundInADetachedBufferToTheNextPass() {
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        platform.advance(1);
        writer.write(bytes(10, 1)); // same buffer, stamped at the coming bound
        RecordingConsumer consumer = new RecordingConsumer();

        assertThat(manager.reader().read(consumer)).isEqualTo(1);
        assertThat(consumer.stream).containsExactly("e0#0");
        platform.advance(1);
        assertThat(manager.reader().read(consumer)).isEqualTo(1);

        assertThat(consumer.stream).containsExactly("e0#0", "e0#1");
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    @Test
    void shouldWaitForTheWriteInProgressWhenAPassBegins() throws InterruptedException {
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        platform.advance(1);
        RecordingConsumer consumer = new RecordingConsumer();
        AtomicBoolean readerWaited = new AtomicBoolean();
        try (TestThreads threads = new TestThreads()) {
            // The reader's pass begins inside the next write, at that write's clock read.
            platform.onNextClockRead(() -> {
                Thread reader = threads.start("reader", () -> manager.reader().read(consumer));
                platform.awaitWaitingOrEnded(reader);
                readerWaited.set(reader.isAlive());
            });
            assertThat(writer.write(bytes(10, 1))).isEqualTo(WriteOutcome.WRITTEN);
            threads.joinAll();
        }

        assertThat(readerWaited).as("the pass went on while a write was in progress").isTrue();
        assertThat(consumer.stream).containsExactly("e0#0");
        platform.advance(1);
        manager.reader().read(consumer);
        assertThat(consumer.stream).containsExactly("e0#0", "e0#1");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldKeepADetachedBufferUntilTheWriteInProgressAtItsDetachEndsWhenAPassWaitsForAnotherWriter()
            throws InterruptedException {
        EventWriter first = manager.newWriter();
        EventWriter second = manager.newWriter();
        first.write(bytes(10, 0));
        second.write(bytes(10, 1));
        platform.advance(1);
        RecordingConsumer consumer = new RecordingConsumer();
        CountDownLatch passEnded = new CountDownLatch(1);
        CountDownLatch secondAtClockRead = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        AtomicBoolean readerWaited = new AtomicBoolean();
        AtomicReference<WriteOutcome> secondOutcome = new AtomicReference<>();
        try (TestThreads threads = new TestThreads()) {
            // Inside first's write: the pass reads first's epoch as odd, second's as even, and
            // waits for first. Meanwhile second's write begins and is held at its clock read.
            platform.onNextClockRead(() -> {
                Thread reader = threads.start("reader", () -> {
                    manager.reader().read(consumer);
                    passEnded.countDown();
                });
                platform.awaitWaitingOrEnded(reader);
                readerWaited.set(reader.isAlive());
                platform.onNextClockRead(() -> {
                    secondAtClockRead.countDown();
                    await(releaseSecond, "the release of second's write");
                });
                threads.start("second", () -> secondOutcome.set(second.write(bytes(10, 2))));
                await(secondAtClockRead, "second's clock read");
            });
            assertThat(first.write(bytes(10, 3))).isEqualTo(WriteOutcome.WRITTEN);
            await(passEnded, "the end of the pass");
            assertThat(second.writeBufferVolatile()).as("second's buffer detached by the pass").isNull();
            assertThat(second.epochVolatile() & 1).as("second's write still in progress").isEqualTo(1);
            releaseSecond.countDown();
            threads.joinAll();
        }

        assertThat(readerWaited).as("the pass went on while first's write was in progress").isTrue();
        assertThat(secondOutcome.get()).isEqualTo(WriteOutcome.WRITTEN);
        assertThat(consumer.stream).containsExactly("e0#0", "e1#0");
        platform.advance(1);
        manager.reader().read(consumer);
        assertThat(consumer.stream).as("second's event, appended to its buffer after the detach")
                .containsExactly("e0#0", "e1#0", "e0#1", "e1#1");
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    /** Awaits {@code latch} with the hang bound; usable inside a clock-read action (no checked exception). */
    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("no " + what + " after " + TestThreads.JOIN_SECONDS + " s (hang?)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted awaiting " + what, e);
        }
    }
}
