package io.spinlab.impl.buffer;

import java.util.ArrayList;
import java.util.List;

/** Keeps everything a reader delivers, in order, as small records. */
final class RecordingConsumer implements EventConsumer {
    record Event(int writerId, int sequence, long timestamp, byte[] payload) {
    }

    record Drop(int writerId, int firstSequence, int count) {
    }

    final List<Event> events = new ArrayList<>();
    final List<Drop> drops = new ArrayList<>();
    final List<SequencePoint> points = new ArrayList<>();
    /** Everything in delivery order, as text: "e0#3", "d0#4+2", "sp". */
    final List<String> stream = new ArrayList<>();

    @Override
    public void onEvent(EventView event) {
        events.add(new Event(event.writerId(), event.sequenceNumber(), event.timestamp(), event.payload()));
        stream.add("e" + event.writerId() + "#" + event.sequenceNumber());
    }

    @Override
    public void onDropped(int writerId, int firstSequenceNumber, int count) {
        drops.add(new Drop(writerId, firstSequenceNumber, count));
        stream.add("d" + writerId + "#" + firstSequenceNumber + "+" + count);
    }

    @Override
    public void onSequencePoint(SequencePoint point) {
        points.add(point);
        stream.add("sp");
    }

    int droppedCount(int writerId) {
        int total = 0;
        for (Drop drop : drops) {
            if (drop.writerId() == writerId) {
                total += drop.count();
            }
        }
        return total;
    }

    /** Reads until the reader is drained (the manager must be stopped). */
    static RecordingConsumer drain(EventReader reader) {
        RecordingConsumer consumer = new RecordingConsumer();
        for (int pass = 0; !reader.isDrained(); pass++) {
            if (pass > 1_000) {
                throw new AssertionError("reader not drained after 1,000 passes: " + reader);
            }
            reader.read(consumer);
        }
        return consumer;
    }
}
