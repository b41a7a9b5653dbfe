package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.buffer.BufferManagerConfig;
import io.spinlab.impl.buffer.EventBufferManager;
import io.spinlab.impl.buffer.EventConsumer;
import io.spinlab.impl.buffer.EventView;
import io.spinlab.impl.buffer.EventWriter;
import io.spinlab.impl.buffer.SequencePoint;
import io.spinlab.impl.buffer.WriteOutcome;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.spec.EventStreamSpec;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Objects;

/**
 * {@link EventBufferManager}'s surface is linearizable with respect to {@link EventStreamSpec}:
 * two writers (each confined to one thread, as writers are), a reader, and stop, under both
 * reservation policies ({@code lockless}: a CAS loop on the total; {@code under-lock}: the
 * manager lock around the check and the store).
 *
 * <p>The manager has 64- to 128-byte buffers, so writes keep allocating and linking new ones,
 * and the reader keeps taking write buffers away from writers in progress; payloads of 0..40
 * bytes against a 24-byte maximum make some writes oversized drops, which the reader must show
 * as gaps. In these scenarios the limit (1 MB) is never reached and sequence points never come
 * due except the last one, whose trailing drops this test leaves out: the spec does not model
 * them (the unit tests and the randomized properties do). A clock that ticks on every read gives
 * every event a distinct timestamp in real-time order, so the stream order is the linearization
 * order.
 *
 * <p>The limit is checked apart ({@link LimitedLockless}, {@link LimitedUnderLock},
 * {@link LimitSpec}): a 192-byte limit, a first (64-byte) and a second (128-byte) buffer, so
 * that once both writers hold a buffer a second one is refused and its write {@code DROPPED}.
 * Without a reader nothing is ever freed, so which writes are dropped follows
 * from the order of the reservations alone, and the spec can say it: it keeps each writer's room
 * and the bytes reserved, the way the writers size their buffers. (With a reader it would depend
 * on which buffers the reader has freed, which is outside the stream spec.)
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class EventBufferManagerLinearizabilityTest {
    static final int MAX_PAYLOAD = 24;
    static final int BASE_BUFFER = 64;
    static final int MAX_BUFFER = 128;
    static final BufferManagerConfig CONFIG = new BufferManagerConfig(1 << 20, BASE_BUFFER, MAX_BUFFER, MAX_PAYLOAD,
            Long.MAX_VALUE);
    /**
     * A first buffer and a second one: once both writers hold a first buffer, neither gets a
     * second; a writer that gets its second first leaves the other none.
     */
    static final long SMALL_LIMIT = BASE_BUFFER + MAX_BUFFER;
    static final BufferManagerConfig LIMITED = CONFIG.withLimitBytes(SMALL_LIMIT);
    /** An event's header (timestamp, sequence number, length), as EventBuffer lays it out. */
    static final int EVENT_HEADER = 16;

    static SpinContext context(ReservationPolicy policy) {
        Tuning tuning = Tuning.current().with(Knob.RESERVATION, policy);
        // A fixed PAUSE calibration: a ticking clock cannot measure one, and the hardware's own
        // normalizer re-measures every 4 s of real time, which made long runs non-deterministic
        // for the model checker (a re-measurement mid-execution showed up as a hang).
        return SpinContext.of(new TickingClock(), tuning, CheckedContexts.FixedPauseNormalizer.INSTANCE);
    }

    /** The spec in the state this test starts from: two writers, the same maximum payload. */
    public static final class Spec {
        private final EventStreamSpec spec = new EventStreamSpec(2, MAX_PAYLOAD);

        public String write0(int length) {
            return spec.write(0, length);
        }

        public String write1(int length) {
            return spec.write(1, length);
        }

        public String read() {
            return spec.read();
        }

        public void stop() {
            spec.stop();
        }
    }

    /** Two writers and stop on one manager; subclasses choose the reservation and the limit. */
    public abstract static class Writers {
        final EventBufferManager manager;
        private final EventWriter writer0;
        private final EventWriter writer1;

        Writers(ReservationPolicy policy, BufferManagerConfig config) {
            manager = new EventBufferManager(context(policy), config);
            writer0 = manager.newWriter();
            writer1 = manager.newWriter();
        }

        @Operation(nonParallelGroup = "writer0")
        public String write0(@Param(gen = IntGen.class, conf = "0:40") int length) {
            return writer0.write(new byte[length]).name();
        }

        @Operation(nonParallelGroup = "writer1")
        public String write1(@Param(gen = IntGen.class, conf = "0:40") int length) {
            return writer1.write(new byte[length]).name();
        }

        @Operation(runOnce = true)
        public void stop() {
            manager.stop();
        }
    }

    /** The writers and a reader, with a limit never reached. */
    public abstract static class Operations extends Writers {
        Operations(ReservationPolicy policy) {
            super(policy, CONFIG);
        }

        @Operation(nonParallelGroup = "reader")
        public String read() {
            StreamText text = new StreamText();
            manager.reader().read(text);
            return text.stream.toString().strip();
        }
    }

    /** {@code reservation=lockless}. */
    public static final class Lockless extends Operations {
        public Lockless() {
            super(ReservationPolicy.LOCKLESS);
        }
    }

    /** {@code reservation=under-lock}. */
    public static final class UnderLock extends Operations {
        public UnderLock() {
            super(ReservationPolicy.UNDER_LOCK);
        }
    }

    /** The writers against {@link #SMALL_LIMIT}, lockless reservation. */
    public static final class LimitedLockless extends Writers {
        public LimitedLockless() {
            super(ReservationPolicy.LOCKLESS, LIMITED);
        }
    }

    /** The writers against {@link #SMALL_LIMIT}, under-lock reservation. */
    public static final class LimitedUnderLock extends Writers {
        public LimitedUnderLock() {
            super(ReservationPolicy.UNDER_LOCK, LIMITED);
        }
    }

    /**
     * Two writers against a limit, no reader: each writer appends to its buffer while the event
     * fits, else reserves a new buffer sized as the writers size them (the base size times the
     * buffers it holds plus one, at most the maximum, at least the event); a reservation that
     * would pass the limit drops the write. Nothing is freed.
     */
    public static final class LimitSpec {
        private final int[] room = new int[2];
        private final int[] buffers = new int[2];
        private long reserved;
        private boolean stopped;

        public String write0(int length) {
            return write(0, length);
        }

        public String write1(int length) {
            return write(1, length);
        }

        public void stop() {
            stopped = true;
        }

        private String write(int writer, int length) {
            if (stopped) {
                return EventStreamSpec.STOPPED;
            }
            if (length > MAX_PAYLOAD) {
                return EventStreamSpec.DROPPED_OVERSIZED;
            }
            int eventBytes = EVENT_HEADER + length;
            if (buffers[writer] > 0 && room[writer] >= eventBytes) {
                room[writer] -= eventBytes;
                return EventStreamSpec.WRITTEN;
            }
            int bytes = Math.max(Math.min(BASE_BUFFER * (buffers[writer] + 1), MAX_BUFFER), eventBytes);
            if (reserved + bytes > SMALL_LIMIT) {
                return WriteOutcome.DROPPED.name();
            }
            reserved += bytes;
            buffers[writer]++;
            room[writer] = bytes - eventBytes;
            return EventStreamSpec.WRITTEN;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof LimitSpec that && Arrays.equals(room, that.room)
                    && Arrays.equals(buffers, that.buffers) && reserved == that.reserved && stopped == that.stopped;
        }

        @Override
        public int hashCode() {
            return Objects.hash(Arrays.hashCode(room), Arrays.hashCode(buffers), reserved, stopped);
        }
    }

    /** The stream as the spec writes it; drops revealed only by a sequence point are left out. */
    static final class StreamText implements EventConsumer {
        final StringBuilder stream = new StringBuilder();
        private final StringBuilder pendingDrops = new StringBuilder();

        @Override
        public void onEvent(EventView event) {
            stream.append(pendingDrops);
            pendingDrops.setLength(0);
            stream.append('e').append(event.writerId()).append('#').append(event.sequenceNumber()).append(' ');
        }

        @Override
        public void onDropped(int writerId, int firstSequenceNumber, int count) {
            pendingDrops.append('d').append(writerId).append('#').append(firstSequenceNumber).append('+')
                    .append(count).append(' ');
        }

        @Override
        public void onSequencePoint(SequencePoint point) {
            pendingDrops.setLength(0);
        }
    }

    private static <O extends Options<O, ?>> O budget(O options, Class<?> spec) {
        return options.iterations(LincheckBudget.iterations()).invocationsPerIteration(LincheckBudget.invocations())
                .sequentialSpecification(spec);
    }

    /**
     * Two threads, so that most scenarios run a write against a read. Half the budget's invocations
     * per scenario: one model-checked invocation of writers, reader and stop costs about 8 ms here,
     * so the full budget made the two limit-free checks 77 s each on 2 cores, a third of the whole
     * Lincheck time; the planted limit bug is still caught at this budget, and {@code -Pexhaustive}
     * raises it tenfold as for every suite.
     */
    static ModelCheckingOptions modelCheckingOptions(Class<?> spec) {
        return budget(new ModelCheckingOptions(), spec).threads(2).actorsPerThread(2)
                .invocationsPerIteration(Math.max(1, LincheckBudget.invocations() / 2));
    }

    /** Three threads: both writers and the reader at once. */
    static StressOptions stressOptions(Class<?> spec) {
        return budget(new StressOptions(), spec).threads(3).actorsPerThread(3);
    }

    /*
     * Not planted here: the lockless reservation's CAS made a plain write (two writers' first
     * buffers counted as one). It survived both checkers at this budget (checked): it shows only
     * in scenarios where both writers reserve a first buffer at once and one writer then needs a
     * second, which 10 random scenarios of 2 x 2 operations seldom contain.
     */

    /** The under-lock reservation's limit check skipped: a reservation that passes the limit is granted. */
    static final Mutation LIMIT_NOT_CHECKED = Mutation.branchAlwaysTaken(Mutation.inPackage(EventBufferManager.class,
            "UnderLockReservation"), "tryReserve", "IFLE", 0);

    @Test
    public void modelChecking() {
        modelCheckingOptions(Spec.class).check(Lockless.class);
    }

    @Test
    public void stress() {
        stressOptions(Spec.class).check(Lockless.class);
    }

    @Test
    public void underLockModelChecking() {
        modelCheckingOptions(Spec.class).check(UnderLock.class);
    }

    @Test
    public void underLockStress() {
        stressOptions(Spec.class).check(UnderLock.class);
    }

    @Test
    public void limitLocklessModelChecking() {
        modelCheckingOptions(LimitSpec.class).check(LimitedLockless.class);
    }

    @Test
    public void limitLocklessStress() {
        stressOptions(LimitSpec.class).check(LimitedLockless.class);
    }

    @Test
    public void limitUnderLockModelChecking() {
        modelCheckingOptions(LimitSpec.class).check(LimitedUnderLock.class);
    }

    @Test
    public void limitUnderLockStress() {
        stressOptions(LimitSpec.class).check(LimitedUnderLock.class);
    }

    @Test
    public void plantedLimitNotCheckedModelChecking() {
        Planted.assertCaught(modelCheckingOptions(LimitSpec.class), LimitedUnderLock.class, LIMIT_NOT_CHECKED);
    }

    @Test
    public void plantedLimitNotCheckedStress() {
        Planted.assertCaught(stressOptions(LimitSpec.class), LimitedUnderLock.class, LIMIT_NOT_CHECKED);
    }
}
