package io.spinlab.impl.buffer;

import io.spinlab.impl.testing.ControlledClockPlatform;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.impl.testing.WaitWatchingPlatform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.spinlab.impl.buffer.EventBufferManagerTest.SMALL;
import static io.spinlab.impl.buffer.EventBufferManagerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * stop() against a write in progress, a second stop(), and a waiting reader. The write in
 * progress is the test thread's own: {@link ControlledClockPlatform} runs the other side (a
 * stopping thread) inside the write's clock read, and waits until that thread is seen waiting
 * through the platform (or has ended, which is the failure).
 */
class EventBufferManagerStopTest {

    final ControlledClockPlatform platform = new ControlledClockPlatform();
    final EventBufferManager manager = new EventBufferManager(platform.context(Tuning.current()), SMALL);

    /**
     * Writes {@code payload} with stop() started by another thread at the write's clock read;
     * returns the outcome and whether stop() was still waiting for the write when it was let go.
     */
    WriteOutcome writeWhileStopping(EventWriter writer, byte[] payload, AtomicBoolean stopWaitedForWrite)
            throws InterruptedException {
        WriteOutcome outcome;
        try (TestThreads threads = new TestThreads()) {
            platform.onNextClockRead(() -> {
                Thread stopper = threads.start("stopper", manager::stop);
                platform.awaitWaitingOrEnded(stopper);
                stopWaitedForWrite.set(stopper.isAlive());
            });
            outcome = writer.write(payload);
            threads.joinAll();
        }
        return outcome;
    }

    @Test
    void shouldWaitForTheWriteInProgressAndFailItWhenStopBeginsAtItsClockRead() throws InterruptedException {
        EventWriter writer = manager.newWriter();
        assertThat(writer.write(bytes(10, 0))).isEqualTo(WriteOutcome.WRITTEN);
        AtomicBoolean stopWaited = new AtomicBoolean();

        // The current buffer has room: the append path reads the clock.
        WriteOutcome outcome = writeWhileStopping(writer, bytes(10, 1), stopWaited);

        assertThat(stopWaited).as("stop() returned while a write was in progress").isTrue();
        assertThat(outcome).isEqualTo(WriteOutcome.STOPPED);
        assertThat(writer.nextSequenceNumber()).as("a stopped write consumes no sequence number").isEqualTo(1);
        platform.advance(1);
        RecordingConsumer consumer = RecordingConsumer.drain(manager.reader());
        assertThat(consumer.stream).containsExactly("e0#0", "sp");
        assertThat(consumer.points.getLast().sequenceNumber(0)).isZero();
        assertThat(manager.diagnostics().bytesInUse()).isZero();
    }

    @Test
    void shouldReleaseTheNewBufferWhenStopBeginsAtTheClockReadOfTheWriteThatReservedIt()
            throws InterruptedException {
        EventWriter writer = manager.newWriter();
        AtomicBoolean stopWaited = new AtomicBoolean();

        // No buffer yet: the new-buffer path reserves, allocates, then reads the clock.
        WriteOutcome outcome = writeWhileStopping(writer, bytes(10, 0), stopWaited);

        assertThat(stopWaited).as("stop() returned while a write was in progress").isTrue();
        assertThat(outcome).isEqualTo(WriteOutcome.STOPPED);
        assertThat(writer.nextSequenceNumber()).isZero();
        BufferManagerDiagnostics diagnostics = manager.diagnostics();
        assertThat(diagnostics.bytesInUse()).as("the reservation is given back").isZero();
        assertThat(diagnostics.highWaterBytes()).isEqualTo(256);
        assertThat(diagnostics.buffersAllocated()).isZero();
        platform.advance(1);
        RecordingConsumer consumer = RecordingConsumer.drain(manager.reader());
        assertThat(consumer.stream).containsExactly("sp");
        assertThat(consumer.points.getLast().sequenceNumber(0)).isEqualTo(-1);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldStopAWriteWhoseReservationFailsUnderTheLockWhenStopBeganWhileItSpunOnTheLock()
            throws InterruptedException {
        EventBufferManager full = new EventBufferManager(
                platform.context(Tuning.current().with(Knob.RESERVATION, ReservationPolicy.UNDER_LOCK)),
                new BufferManagerConfig(256, 256, 256, 100, Long.MAX_VALUE));
        full.newWriter().write(bytes(10, 0)); // its buffer takes the whole limit
        EventWriter writer = full.newWriter();
        AtomicReference<WriteOutcome> outcome = new AtomicReference<>();
        AtomicBoolean writerSpun = new AtomicBoolean();
        AtomicBoolean stopWaited = new AtomicBoolean();
        try (TestThreads threads = new TestThreads()) {
            // The pass reads its bound holding the manager lock: the writer's reservation spins on
            // the lock, and stop() begins and waits for that write in progress.
            platform.onNextClockRead(() -> {
                Thread writing = threads.start("writer", () -> outcome.set(writer.write(bytes(10, 1))));
                platform.awaitWaitingOrEnded(writing);
                writerSpun.set(writing.isAlive());
                Thread stopper = threads.start("stopper", full::stop);
                platform.awaitWaitingOrEnded(stopper);
                stopWaited.set(stopper.isAlive());
            });
            full.reader().read(new RecordingConsumer());
            threads.joinAll();
        }

        assertThat(writerSpun).as("the write ended without spinning on the lock").isTrue();
        assertThat(stopWaited).as("stop() returned while a write was in progress").isTrue();
        assertThat(full.diagnostics().dropPathLockAcquisitions()).as("the reservation failed under the lock")
                .isEqualTo(1);
        assertThat(outcome.get()).as("a write stopped, not dropped").isEqualTo(WriteOutcome.STOPPED);
        assertThat(writer.droppedEvents()).isZero();
        assertThat(writer.nextSequenceNumber()).as("a stopped write consumes no sequence number").isZero();
        platform.advance(1);
        RecordingConsumer consumer = RecordingConsumer.drain(full.reader());
        assertThat(consumer.stream).containsExactly("e0#0", "sp");
        assertThat(consumer.points.getLast().sequenceNumber(1)).isEqualTo(-1);
    }

    @Test
    void shouldMakeASecondStopWaitUntilTheFirstHasFinishedWhenCalledConcurrently() throws InterruptedException {
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        AtomicBoolean secondWaited = new AtomicBoolean();
        AtomicBoolean firstWaited = new AtomicBoolean();
        try (TestThreads threads = new TestThreads()) {
            platform.onNextClockRead(() -> {
                Thread first = threads.start("first-stop", manager::stop);
                platform.awaitWaitingOrEnded(first);
                firstWaited.set(first.isAlive());
                Thread second = threads.start("second-stop", manager::stop);
                platform.awaitWaitingOrEnded(second);
                secondWaited.set(second.isAlive());
            });
            assertThat(writer.write(bytes(10, 1))).isEqualTo(WriteOutcome.STOPPED);
            threads.joinAll();
        }

        assertThat(firstWaited).isTrue();
        assertThat(secondWaited).as("the second stop() returned before the first had finished").isTrue();
        assertThat(manager.diagnostics().sequencePoints()).as("one last sequence point").isEqualTo(1);
        assertThat(manager).hasToString("EventBufferManager[lockless[256/4096 bytes], writers=1, stopped]");
    }

    @Test
    void shouldAddOneLastSequencePointWhenStoppedTwice() {
        EventWriter writer = manager.newWriter();
        writer.write(bytes(10, 0));
        assertThat(manager).hasToString("EventBufferManager[lockless[256/4096 bytes], writers=1, running]");

        manager.stop();
        manager.stop();

        assertThat(manager.isStopped()).isTrue();
        assertThat(manager.diagnostics().sequencePoints()).isEqualTo(1);
        platform.advance(1);
        assertThat(RecordingConsumer.drain(manager.reader()).stream).containsExactly("e0#0", "sp");
    }

    @Test
    void shouldGiveTheReservationBackAndEndTheWriteWhenTheClockFailsInANewBuffer() {
        EventWriter writer = manager.newWriter();
        platform.onNextClockRead(() -> {
            throw new IllegalStateException("clock failed");
        });

        assertThatIllegalStateException().isThrownBy(() -> writer.write(bytes(10, 0))).withMessage("clock failed");

        assertThat(manager.diagnostics().bytesInUse()).isZero();
        assertThat(writer.nextSequenceNumber()).isZero();
        assertThat(writer.write(bytes(10, 1))).isEqualTo(WriteOutcome.WRITTEN);
        manager.stop(); // returns only because the failed write ended (its epoch is even again)
        platform.advance(1);
        assertThat(RecordingConsumer.drain(manager.reader()).stream).containsExactly("e0#0", "sp");
    }

    @Test
    void shouldWakeAWaitingReaderWhenStopped() throws InterruptedException {
        WaitWatchingPlatform watched = new WaitWatchingPlatform();
        EventBufferManager watchedManager = new EventBufferManager(watched.context(Tuning.current()), SMALL);
        ConcurrentLinkedQueue<Boolean> woken = new ConcurrentLinkedQueue<>();
        try (TestThreads threads = new TestThreads()) {
            Thread reader = threads.start("reader", () -> {
                woken.add(watchedManager.reader().awaitData(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS));
            });
            watched.awaitParked(reader, 0);

            watchedManager.stop();
            threads.joinAll();
        }
        assertThat(woken).as("awaitData's result: woken by stop(), not timed out").containsExactly(true);
    }

    @Test
    void shouldAnswerAwaitDataAtOnceOnEveryCallAfterStop() throws InterruptedException {
        manager.stop();

        assertThat(manager.reader().awaitData(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(manager.reader().awaitData(0, TimeUnit.NANOSECONDS)).as("the second call, after a reset").isTrue();
    }

    @Test
    void shouldReportAFilledBufferOnceWhenAwaitDataIsCalledAgain() throws InterruptedException {
        EventWriter writer = manager.newWriter();
        for (int i = 0; i < 3; i++) {
            writer.write(bytes(100, i)); // the third event needs a second buffer: the first is full
        }

        assertThat(manager.reader().awaitData(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(manager.reader().awaitData(0, TimeUnit.NANOSECONDS)).as("the wake-up was consumed").isFalse();
    }

    @Test
    void shouldNameTheReservationPolicyInUse() {
        assertThat(manager.reservationPolicy()).isEqualTo(Tuning.current().reservation());
        assertThat(manager.config()).isSameAs(SMALL);
        assertThat(manager).hasToString("EventBufferManager[lockless[0/4096 bytes], writers=0, running]");
    }
}
