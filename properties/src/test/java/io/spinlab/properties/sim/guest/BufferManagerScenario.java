package io.spinlab.properties.sim.guest;

import io.spinlab.impl.buffer.BufferManagerConfig;
import io.spinlab.impl.buffer.BufferManagerDiagnostics;
import io.spinlab.impl.buffer.EventBufferManager;
import io.spinlab.impl.buffer.EventConsumer;
import io.spinlab.impl.buffer.EventReader;
import io.spinlab.impl.buffer.EventView;
import io.spinlab.impl.buffer.EventWriter;
import io.spinlab.impl.buffer.WriteOutcome;
import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.BufferObservation;
import io.spinlab.properties.sim.BufferWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BufferWorld} run: its writers write their events into one manager as the world says,
 * one reader drains it after each pass sleeping the world's interval; once every writer is done
 * the reader stops the manager and drains the rest. Everything the threads see is recorded for
 * the checks; nothing is judged here.
 */
public final class BufferManagerScenario implements SimScenario<BufferObservation> {

    private final BufferWorld world;
    private final int[][] outcomes;
    private final IntList[] readOrder;
    private final BitSet[] gaps;
    private final List<String> streamProblems = new ArrayList<>();
    private EventReader reader;
    private BufferManagerDiagnostics diagnostics;

    public BufferManagerScenario(BufferWorld world) {
        this.world = world;
        this.outcomes = new int[world.writers()][world.eventsPerWriter()];
        this.readOrder = new IntList[world.writers()];
        this.gaps = new BitSet[world.writers()];
        for (int w = 0; w < world.writers(); w++) {
            readOrder[w] = new IntList();
            gaps[w] = new BitSet();
        }
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> startThreads(platform, tuning));
    }

    private void startThreads(Platform platform, Tuning tuning) {
        SpinContext context = SpinContext.of(platform, tuning.with(Knob.RESERVATION, world.reservation()));
        BufferManagerConfig config = new BufferManagerConfig(world.limitBytes(), world.baseBufferBytes(),
                world.maxBufferBytes(), world.maxPayloadBytes(), world.sequencePointBudgetBytes());
        EventBufferManager manager = new EventBufferManager(context, config);
        CountdownEvent writersDone = new CountdownEvent(context, world.writers());
        EventWriter[] writers = new EventWriter[world.writers()];
        for (int w = 0; w < writers.length; w++) {
            writers[w] = manager.newWriter();
        }
        for (int w = 0; w < writers.length; w++) {
            int index = w;
            platform.startThread("writer-" + w, () -> write(platform, writers[index], index, writersDone));
        }
        platform.startThread("reader", () -> read(platform, manager, writersDone));
    }

    private void write(Platform platform, EventWriter writer, int index, CountdownEvent writersDone) {
        byte[] payload = new byte[world.maxPayloadBytes() + 32];
        try {
            for (int sequence = 0; sequence < world.eventsPerWriter(); sequence++) {
                int length = world.payloadLength(index, sequence);
                for (int i = 0; i < length; i++) {
                    payload[i] = BufferWorld.payloadByte(index, sequence, i);
                }
                outcomes[index][sequence] = code(writer.write(payload, 0, length));
                platform.pause(world.writerPauses());
            }
            writer.close();
        } finally {
            writersDone.signal();
        }
    }

    /** {@code outcome} as the observation's plain code (observations cross class loaders; enums of impl do not). */
    static int code(WriteOutcome outcome) {
        return switch (outcome) {
            case WRITTEN -> BufferObservation.WRITTEN;
            case DROPPED -> BufferObservation.DROPPED;
            case DROPPED_OVERSIZED -> BufferObservation.DROPPED_OVERSIZED;
            case STOPPED -> BufferObservation.STOPPED;
        };
    }

    private void read(Platform platform, EventBufferManager manager, CountdownEvent writersDone) {
        EventReader eventReader = manager.reader();
        Recorder recorder = new Recorder();
        try {
            while (!writersDone.isSet()) {
                int delivered = eventReader.read(recorder);
                if (delivered == 0) {
                    eventReader.awaitData(1, TimeUnit.MILLISECONDS);
                }
                if (world.readerIntervalNanos() > 0) {
                    platform.sleep(world.readerIntervalNanos());
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException("the reader was interrupted", e);
        }
        manager.stop();
        while (!eventReader.isDrained()) {
            eventReader.read(recorder);
        }
        this.reader = eventReader;
        this.diagnostics = manager.diagnostics();
    }

    @Override
    public BufferObservation observed() {
        if (reader == null) {
            return null; // the reader never finished (a run cut short by its budget): nothing to observe
        }
        int[][] order = new int[readOrder.length][];
        for (int w = 0; w < order.length; w++) {
            order[w] = readOrder[w].toArray();
        }
        return new BufferObservation(outcomes, order, gaps, List.copyOf(streamProblems), reader.eventsRead(),
                reader.dropsSeen(), diagnostics.reservationFailures(), diagnostics.oversizedDrops(),
                diagnostics.bytesInUse(), diagnostics.highWaterBytes(), diagnostics.lockAcquisitions(),
                diagnostics.dropPathLockAcquisitions());
    }

    /** The reader's consumer: records what it is given, checks payloads and timestamp order. */
    private final class Recorder implements EventConsumer {
        private long lastTimestamp = Long.MIN_VALUE;
        private int delivered;

        @Override
        public void onEvent(EventView event) {
            int writer = event.writerId();
            int sequence = event.sequenceNumber();
            if (writer < 0 || writer >= readOrder.length) {
                problem("an event of unknown writer " + writer);
                return;
            }
            delivered++;
            if (delivered == 3 && world.plant() == BufferWorld.Plant.SKIP_THIRD_EVENT) {
                return;
            }
            if (delivered == 3 && world.plant() == BufferWorld.Plant.DUPLICATE_THIRD_EVENT) {
                readOrder[writer].add(sequence);
            }
            readOrder[writer].add(sequence);
            if (event.timestamp() < lastTimestamp) {
                problem("timestamp order: w" + writer + "#" + sequence + " at " + event.timestamp() + " after "
                        + lastTimestamp);
            }
            lastTimestamp = event.timestamp();
            checkPayload(event, writer, sequence);
        }

        private void checkPayload(EventView event, int writer, int sequence) {
            int expectedLength = sequence >= 0 && sequence < world.eventsPerWriter()
                    ? world.payloadLength(writer, sequence) : -1;
            if (event.payloadLength() != expectedLength) {
                problem("payload length of w" + writer + "#" + sequence + ": " + event.payloadLength() + ", written "
                        + expectedLength);
                return;
            }
            for (int i = 0; i < expectedLength; i++) {
                if (event.payloadByte(i) != BufferWorld.payloadByte(writer, sequence, i)) {
                    problem("payload byte " + i + " of w" + writer + "#" + sequence);
                    return;
                }
            }
        }

        @Override
        public void onDropped(int writerId, int firstSequenceNumber, int count) {
            if (writerId < 0 || writerId >= gaps.length) {
                problem("a drop of unknown writer " + writerId);
                return;
            }
            BitSet reported = gaps[writerId];
            int end = firstSequenceNumber + count;
            if (reported.get(firstSequenceNumber, end).cardinality() > 0) {
                problem("drop of w" + writerId + "#" + firstSequenceNumber + "+" + count + " reported twice");
            }
            reported.set(firstSequenceNumber, end);
        }

        private void problem(String text) {
            if (streamProblems.size() < 20) {
                streamProblems.add(text);
            }
        }
    }

    /** A growable int array (no boxing in the reader's hot path). */
    private static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
