package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;

/**
 * A buffer manager at its limit and writers that only come to fail: one filler writer fills the
 * manager to its limit (nobody reads, so nothing is freed), then {@code failingWriters} writers
 * each attempt {@code attemptsPerWriter} writes, every one of which must be dropped. Run with the
 * memory model, so that holding the manager's lock takes the time its memory accesses take.
 */
public record CaravanWorld(ReservationPolicy reservation, MachineProfile machine, int failingWriters,
                           int attemptsPerWriter, long seed) {

    /** The manager's limit: four buffers of {@link #BUFFER_BYTES}. */
    public static final long LIMIT_BYTES = 1024;
    public static final int BUFFER_BYTES = 256;
    public static final int PAYLOAD_BYTES = 64;

    /** The same world with {@code writers} failing writers. */
    public CaravanWorld withFailingWriters(int writers) {
        return new CaravanWorld(reservation, machine, writers, attemptsPerWriter, seed);
    }

    @Override
    public String toString() {
        return Knob.RESERVATION.knobName() + "=" + Knob.nameOf(reservation) + " machine=" + machine.name()
                + " failingWriters=" + failingWriters + " attempts=" + attemptsPerWriter + " seed=" + seed;
    }
}
