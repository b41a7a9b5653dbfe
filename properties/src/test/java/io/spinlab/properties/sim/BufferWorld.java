package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.sim.engine.Faults;

import java.util.SplittableRandom;

/**
 * One generated buffer-manager world for the simulator: the reservation policy, the machine,
 * whether the memory model costs every shared access, the run's seed, the writers and what they
 * write, the manager's sizes, and how fast the reader drains. Plain values only, so that it
 * crosses into the guest class loader unchanged.
 *
 * @param faults                   what the simulator injects: spurious and delayed wake-ups, preemption, jitter
 * @param writers                  writer threads, each with its own EventWriter
 * @param eventsPerWriter          write attempts per writer
 * @param maxPayloadBytes          payloads are 8..this bytes (fewer if this is below 8)
 * @param oversizedOneIn           one event in this many is larger than the manager's largest (0: none)
 * @param writerPauses             PAUSEs a writer spends between two writes (0: back to back)
 * @param baseBufferBytes          the manager's first-buffer size
 * @param maxBufferBytes           its largest buffer
 * @param limitBytes               its limit on all buffers together
 * @param sequencePointBudgetBytes buffer bytes between two sequence points
 * @param readerIntervalNanos      the reader's sleep after each pass (0: back to back)
 * @param plant                    a deliberate bug in the test's reader, to show the check can fail
 */
public record BufferWorld(ReservationPolicy reservation, MachineProfile machine, boolean memoryModel, long seed,
                          Faults faults,
                          int writers, int eventsPerWriter, int maxPayloadBytes, int oversizedOneIn,
                          int writerPauses, int baseBufferBytes, int maxBufferBytes, long limitBytes,
                          long sequencePointBudgetBytes, long readerIntervalNanos, Plant plant) {

    /** The event header the manager stores before each payload (EventBuffer.HEADER_BYTES). */
    public static final int EVENT_HEADER_BYTES = 16;

    /** A bug planted in the reader of the test (not in the manager). */
    public enum Plant {
        /** No bug. */
        NONE,
        /** The reader forgets the third event it is given. */
        SKIP_THIRD_EVENT,
        /** The reader takes the third event it is given twice. */
        DUPLICATE_THIRD_EVENT
    }

    /** The payload length of writer {@code writer}'s {@code sequence}-th event: a function of the world. */
    public int payloadLength(int writer, int sequence) {
        SplittableRandom random = new SplittableRandom(seed ^ (writer * 0x9E3779B97F4A7C15L) ^ sequence * 1_000_003L);
        if (oversizedOneIn > 0 && random.nextInt(oversizedOneIn) == 0) {
            return maxPayloadBytes + 1 + random.nextInt(20);
        }
        return maxPayloadBytes <= 8 ? maxPayloadBytes : 8 + random.nextInt(maxPayloadBytes - 7);
    }

    /** Byte {@code index} of the payload of writer {@code writer}'s {@code sequence}-th event. */
    public static byte payloadByte(int writer, int sequence, int index) {
        return switch (index) {
            case 0 -> (byte) writer;
            case 1 -> (byte) (sequence >>> 16);
            case 2 -> (byte) (sequence >>> 8);
            case 3 -> (byte) sequence;
            default -> (byte) (writer * 131 + sequence * 7 + index);
        };
    }

    /** The world with another plant. */
    public BufferWorld withPlant(Plant newPlant) {
        return new BufferWorld(reservation, machine, memoryModel, seed, faults, writers, eventsPerWriter,
                maxPayloadBytes, oversizedOneIn, writerPauses, baseBufferBytes, maxBufferBytes, limitBytes,
                sequencePointBudgetBytes, readerIntervalNanos, newPlant);
    }

    /** The world with the memory model on or off (a planted mutant lives in the guest copy, which only the model loads). */
    public BufferWorld withMemoryModel(boolean on) {
        return new BufferWorld(reservation, machine, on, seed, faults, writers, eventsPerWriter,
                maxPayloadBytes, oversizedOneIn, writerPauses, baseBufferBytes, maxBufferBytes, limitBytes,
                sequencePointBudgetBytes, readerIntervalNanos, plant);
    }

    @Override
    public String toString() {
        return Knob.RESERVATION.knobName() + "=" + Knob.nameOf(reservation) + " machine=" + machine.name()
                + " memory=" + (memoryModel ? "on" : "off") + " seed=" + seed + " faults=" + faults.describe()
                + " writers=" + writers
                + " events=" + eventsPerWriter + " payload<=" + maxPayloadBytes
                + (oversizedOneIn > 0 ? " oversized=1/" + oversizedOneIn : "") + " writerPauses=" + writerPauses
                + " buffers=" + baseBufferBytes + ".." + maxBufferBytes + " limit=" + limitBytes
                + " sequencePointBudget=" + sequencePointBudgetBytes + " readerInterval=" + readerIntervalNanos + "ns"
                + (plant != Plant.NONE ? " plant=" + plant : "");
    }
}
