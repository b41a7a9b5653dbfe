package io.spinlab.impl.buffer;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buffer manager's system-level promises on real threads, for random writer counts, payload
 * sizes, limits, buffer sizes, sequence-point budgets and reader speeds:
 * <ol type="a">
 *   <li>no loss, no duplication: every event reported WRITTEN is read exactly once, every drop is
 *       seen as a gap, and read + dropped = attempted, per writer;</li>
 *   <li>the limit holds at every instant (the high-water mark tracks every increase);</li>
 *   <li>per-writer order, and timestamp order across writers;</li>
 *   <li>no caravan: with {@code lockless} no failed reservation takes the lock, with
 *       {@code under-lock} every one does.</li>
 * </ol>
 *
 * <p>Plain randomized trials until the property engine exists: each prints its seed, and
 * {@code -Dspinlab.seed=N} replays exactly that trial. The number of trials follows
 * {@code spinlab.property.tries} (a quarter of it; 25 by default).
 */
class EventBufferManagerProperties {
    static final String SEED_PROPERTY = "spinlab.seed";

    /** One random configuration. */
    record Trial(long seed, ReservationPolicy policy, int writers, int eventsPerWriter, int maxPayload,
            int oversizedOneIn, BufferManagerConfig config, long readerPauseNanos) {

        static Trial from(long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            ReservationPolicy policy = random.nextBoolean() ? ReservationPolicy.LOCKLESS : ReservationPolicy.UNDER_LOCK;
            int base = 128 << random.nextInt(5);
            int max = base * (1 + random.nextInt(4));
            long limit = (long) max * (1 + random.nextInt(8));
            int maxPayload = Math.min(max - EventBuffer.HEADER_BYTES, 16 + random.nextInt(200));
            long budget = 256L << random.nextInt(10);
            long[] pauses = {0, 20_000, 200_000, 1_000_000};
            return new Trial(seed, policy, 1 + random.nextInt(4), 20_000 + random.nextInt(200_000), maxPayload,
                    random.nextInt(4) == 0 ? 0 : 5 + random.nextInt(50),
                    new BufferManagerConfig(limit, base, max, maxPayload, budget),
                    pauses[random.nextInt(pauses.length)]);
        }

        /** The payload length of writer {@code writer}'s {@code sequence}-th event: sometimes oversized. */
        int payloadLength(int writer, int sequence) {
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + writer * 7_919L + sequence);
            if (oversizedOneIn > 0 && random.nextInt(oversizedOneIn) == 0) {
                return maxPayload + 1 + random.nextInt(20);
            }
            return Math.max(8, random.nextInt(maxPayload + 1));
        }

        @Override
        public String toString() {
            return "seed=" + seed + " (replay: -D" + SEED_PROPERTY + "=" + seed + ") " + Knob.nameOf(policy)
                    + " writers=" + writers + " events=" + eventsPerWriter + " " + config + " readerPause="
                    + readerPauseNanos + "ns";
        }
    }

    /** What a trial observed. */
    static final class Outcome {
        final Trial trial;
        final WriteOutcome[][] outcomes;
        final BitSet[] read;
        final BitSet[] dropped;
        final List<String> violations = new ArrayList<>();
        long maxBytesInUseSeen;
        BufferManagerDiagnostics diagnostics;

        Outcome(Trial trial) {
            this.trial = trial;
            this.outcomes = new WriteOutcome[trial.writers()][trial.eventsPerWriter()];
            this.read = new BitSet[trial.writers()];
            this.dropped = new BitSet[trial.writers()];
            for (int w = 0; w < trial.writers(); w++) {
                read[w] = new BitSet();
                dropped[w] = new BitSet();
            }
        }

        void violation(String text) {
            if (violations.size() < 20) {
                violations.add(text);
            }
        }
    }

    static void encode(byte[] payload, int length, int writer, int sequence) {
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (writer * 131 + sequence * 7 + i);
        }
        if (length >= 8) {
            payload[0] = (byte) writer;
            payload[1] = (byte) (sequence >>> 16);
            payload[2] = (byte) (sequence >>> 8);
            payload[3] = (byte) sequence;
        }
    }

    /** Runs one trial on real threads and records everything the properties need. */
    static Outcome run(Trial trial) throws InterruptedException {
        System.out.println("trial " + trial);
        HardwarePlatform platform = HardwarePlatform.INSTANCE;
        Tuning tuning = Tuning.current().with(Knob.RESERVATION, trial.policy());
        EventBufferManager manager = new EventBufferManager(SpinContext.hardware().withTuning(tuning), trial.config());
        Outcome outcome = new Outcome(trial);
        CountDownLatch writersDone = new CountDownLatch(trial.writers());
        CountDownLatch readerDone = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        EventWriter[] writers = new EventWriter[trial.writers()];
        for (int w = 0; w < writers.length; w++) {
            writers[w] = manager.newWriter();
        }
        for (int w = 0; w < writers.length; w++) {
            int writerIndex = w;
            platform.startThread("property-writer-" + w, () -> {
                try {
                    byte[] payload = new byte[trial.maxPayload() + 64];
                    for (int seq = 0; seq < trial.eventsPerWriter(); seq++) {
                        int length = trial.payloadLength(writerIndex, seq);
                        encode(payload, length, writerIndex, seq);
                        outcome.outcomes[writerIndex][seq] = writers[writerIndex].write(payload, 0, length);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    writersDone.countDown();
                }
            });
        }
        platform.startThread("property-reader", () -> {
            try {
                Checker checker = new Checker(outcome);
                EventReader reader = manager.reader();
                while (!reader.isDrained()) {
                    reader.read(checker);
                    long inUse = manager.diagnostics().bytesInUse();
                    outcome.maxBytesInUseSeen = Math.max(outcome.maxBytesInUseSeen, inUse);
                    if (trial.readerPauseNanos() > 0) {
                        platform.sleep(trial.readerPauseNanos());
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                readerDone.countDown();
            }
        });
        if (!writersDone.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("writers still writing after 60 s: " + trial);
        }
        manager.stop();
        if (!readerDone.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("reader not drained 60 s after stop: " + manager.reader() + " in " + trial);
        }
        if (failure.get() != null) {
            throw new AssertionError("trial failed: " + trial, failure.get());
        }
        outcome.diagnostics = manager.diagnostics();
        return outcome;
    }

    /** Checks the stream as it is delivered: order, duplicates, payload integrity. */
    static final class Checker implements EventConsumer {
        private final Outcome outcome;
        private final int[] lastSequence;
        private long lastTimestamp = Long.MIN_VALUE;

        Checker(Outcome outcome) {
            this.outcome = outcome;
            this.lastSequence = new int[outcome.trial.writers()];
            Arrays.fill(lastSequence, -1);
        }

        @Override
        public void onEvent(EventView event) {
            int writer = event.writerId();
            int sequence = event.sequenceNumber();
            if (event.timestamp() < lastTimestamp) {
                outcome.violation("timestamp order: w" + writer + "#" + sequence + " at " + event.timestamp()
                        + " after " + lastTimestamp);
            }
            lastTimestamp = event.timestamp();
            if (sequence <= lastSequence[writer]) {
                outcome.violation("per-writer order: w" + writer + "#" + sequence + " after #" + lastSequence[writer]);
            }
            lastSequence[writer] = sequence;
            if (outcome.read[writer].get(sequence)) {
                outcome.violation("duplicate: w" + writer + "#" + sequence);
            }
            outcome.read[writer].set(sequence);
            int length = event.payloadLength();
            if (length != outcome.trial.payloadLength(writer, sequence)) {
                outcome.violation("payload length of w" + writer + "#" + sequence + ": " + length);
            }
            byte[] expected = new byte[length];
            encode(expected, length, writer, sequence);
            for (int i = 0; i < length; i++) {
                if (event.payloadByte(i) != expected[i]) {
                    outcome.violation("payload byte " + i + " of w" + writer + "#" + sequence);
                    break;
                }
            }
        }

        @Override
        public void onDropped(int writerId, int firstSequenceNumber, int count) {
            BitSet dropped = outcome.dropped[writerId];
            if (dropped.get(firstSequenceNumber, firstSequenceNumber + count).cardinality() > 0
                    || outcome.read[writerId].get(firstSequenceNumber, firstSequenceNumber + count).cardinality() > 0) {
                outcome.violation("drop reported twice or for a read event: w" + writerId + "#" + firstSequenceNumber
                        + "+" + count);
            }
            dropped.set(firstSequenceNumber, firstSequenceNumber + count);
        }
    }

    /** Up to ten members of {@code a} that {@code b} lacks, for a short failure message. */
    static List<Integer> difference(BitSet a, BitSet b) {
        BitSet missing = (BitSet) a.clone();
        missing.andNot(b);
        return missing.stream().limit(10).boxed().toList();
    }

    static List<Trial> trials() {
        String replay = System.getProperty(SEED_PROPERTY);
        if (replay != null) {
            return List.of(Trial.from(Long.parseLong(replay)));
        }
        int count = Math.max(1, Integer.getInteger("spinlab.property.tries", 100) / 4);
        long base = new SplittableRandom().nextLong();
        System.out.println("base seed " + base + "; " + count + " trials");
        List<Trial> trials = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            trials.add(Trial.from(base + i));
        }
        return trials;
    }

    @Test
    void shouldReadEveryWrittenEventOnceAndSeeEveryDropWhenWritersReaderAndLimitsAreRandom()
            throws InterruptedException {
        for (Trial trial : trials()) {
            Outcome outcome = run(trial);
            assertThat(outcome.violations).as("violations in %s", trial).isEmpty();
            long totalDropped = 0;
            for (int w = 0; w < trial.writers(); w++) {
                BitSet written = new BitSet();
                BitSet dropped = new BitSet();
                for (int seq = 0; seq < trial.eventsPerWriter(); seq++) {
                    WriteOutcome result = outcome.outcomes[w][seq];
                    if (result == WriteOutcome.WRITTEN) {
                        written.set(seq);
                    } else if (result == WriteOutcome.DROPPED || result == WriteOutcome.DROPPED_OVERSIZED) {
                        dropped.set(seq);
                    } else {
                        throw new AssertionError("w" + w + "#" + seq + ": " + result + " in " + trial);
                    }
                }
                totalDropped += dropped.cardinality();
                assertThat(difference(written, outcome.read[w])).as("written but not read, writer %d in %s", w, trial)
                        .isEmpty();
                assertThat(difference(outcome.read[w], written)).as("read but not written, writer %d in %s", w, trial)
                        .isEmpty();
                assertThat(difference(dropped, outcome.dropped[w])).as("dropped but no gap, writer %d in %s", w, trial)
                        .isEmpty();
                assertThat(difference(outcome.dropped[w], dropped)).as("gap but not dropped, writer %d in %s", w, trial)
                        .isEmpty();
                assertThat(outcome.read[w].cardinality() + outcome.dropped[w].cardinality())
                        .as("read + dropped of writer %d in %s", w, trial).isEqualTo(trial.eventsPerWriter());
            }
            BufferManagerDiagnostics diagnostics = outcome.diagnostics;
            assertThat(diagnostics.reservationFailures() + diagnostics.oversizedDrops()).as("drops in %s", trial)
                    .isEqualTo(totalDropped);
            assertThat(diagnostics.highWaterBytes()).as("high water in %s", trial)
                    .isLessThanOrEqualTo(trial.config().limitBytes());
            assertThat(outcome.maxBytesInUseSeen).as("bytes in use seen in %s", trial)
                    .isLessThanOrEqualTo(trial.config().limitBytes());
            assertThat(diagnostics.bytesInUse()).as("bytes left in %s", trial).isZero();
            if (trial.policy() == ReservationPolicy.LOCKLESS) {
                assertThat(diagnostics.dropPathLockAcquisitions()).as("caravan in %s", trial).isZero();
            } else {
                assertThat(diagnostics.dropPathLockAcquisitions()).as("drop-path locks in %s", trial)
                        .isEqualTo(diagnostics.reservationFailures());
            }
        }
    }

    @Test
    void shouldNeverTakeTheLockOnAFailedReservationWhenLocklessButAlwaysWhenUnderLock()
            throws InterruptedException {
        // Saturated on purpose: a 2 KB limit, four writers, a reader that sleeps a millisecond a pass.
        for (ReservationPolicy policy : ReservationPolicy.values()) {
            Trial trial = new Trial(42, policy, 4, 100_000, 100, 0,
                    new BufferManagerConfig(2048, 256, 512, 100, 1 << 20), 1_000_000);
            Outcome outcome = run(trial);
            BufferManagerDiagnostics diagnostics = outcome.diagnostics;

            assertThat(outcome.violations).as("violations in %s", trial).isEmpty();
            assertThat(diagnostics.reservationFailures()).as("failed reservations in %s", trial).isPositive();
            if (policy == ReservationPolicy.LOCKLESS) {
                assertThat(diagnostics.dropPathLockAcquisitions()).as("caravan in %s", trial).isZero();
                assertThat(diagnostics.lockAcquisitions()).as("all lock acquisitions in %s", trial)
                        .isLessThan(diagnostics.reservationFailures());
            } else {
                assertThat(diagnostics.dropPathLockAcquisitions()).as("caravan in %s", trial)
                        .isEqualTo(diagnostics.reservationFailures());
            }
        }
    }
}
