package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.spinlab.sim.memory.AccessKind.READ;
import static io.spinlab.sim.memory.AccessKind.READ_MODIFY_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Exact times of the handover point when a request's leg to the holder is given (as a run with noise
 * draws it): the holder keeps the line until the leg has passed, whatever the leg, and the requester
 * pays the same whole transfer. Skylake preset: a 20 ns transfer; processors 0 and 2 are cores 0 and 1.
 */
class HandoverLegTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private final Object object = new Object();

    @Test
    void shouldKeepTheLineWithTheOwnerUntilALongLegHasPassed() {
        MemoryModel model = new MemoryModel(SKYLAKE, transfer -> transfer - 1_000); // reaches it 1 ns before the data's arrival
        long transfer = model.transferPicos();
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        assertThat(model.access(2, object, 12, READ_MODIFY_WRITE, 1_000_000)).isEqualTo(transfer + model.atomicPicos());

        // The request reaches the owner at 1,019,000 ps, not at the midpoint (1,010,000 ps).
        assertThat(model.access(0, object, 12, READ, 1_018_999)).isEqualTo(model.hitPicos());
        assertThat(model.access(0, object, 12, READ, 1_019_000)).isGreaterThan(transfer);
    }

    @Test
    void shouldTakeTheLineAtTheRequestWithALegOfZero() {
        MemoryModel model = new MemoryModel(SKYLAKE, transfer -> 0);
        long transfer = model.transferPicos();
        model.access(0, object, 12, READ_MODIFY_WRITE, 0);
        assertThat(model.access(2, object, 12, READ, 1_000_000)).isEqualTo(transfer);

        // The owner lost the line at the request: a write must invalidate the reader's copy (an upgrade).
        assertThat(model.access(0, object, 12, READ_MODIFY_WRITE, 1_000_000))
                .isEqualTo(MachineProfile.nanosToPicos(SKYLAKE.invalidationNs()) + model.atomicPicos());
    }

    @Test
    void shouldDrawALegForEveryRequestThatMovesTheLineAndNoneForAHit() {
        List<Long> asked = new ArrayList<>();
        MemoryModel model = new MemoryModel(SKYLAKE, transfer -> {
            asked.add(transfer);
            return transfer / 4;
        });
        model.access(0, object, 12, READ_MODIFY_WRITE, 0); // from memory: a transfer, no holder but a leg all the same
        model.access(0, object, 12, READ_MODIFY_WRITE, 100_000); // a hit
        model.access(2, object, 12, READ, 200_000); // a read miss
        model.access(0, object, 12, READ_MODIFY_WRITE, 300_000); // takes it back: an upgrade, it shares the line

        assertThat(asked).containsExactly(model.transferPicos(), model.transferPicos(),
                MachineProfile.nanosToPicos(SKYLAKE.invalidationNs()));
    }

    @Test
    void shouldAgreeWithTheMidpointModelWhenTheLegIsHalfTheTransfer() {
        MemoryModel midpoint = new MemoryModel(SKYLAKE);
        MemoryModel given = new MemoryModel(SKYLAKE, transfer -> transfer / 2);
        long[] times = {0, 3_000, 9_000, 15_000, 21_000, 30_000, 31_000, 55_000, 56_000, 90_000};
        AccessKind[] kinds = {READ_MODIFY_WRITE, READ, READ_MODIFY_WRITE, READ};
        for (int i = 0; i < times.length; i++) {
            int processor = 2 * (i % 3);
            AccessKind kind = kinds[i % kinds.length];
            assertThat(given.access(processor, object, 12, kind, times[i]))
                    .as("access %d", i)
                    .isEqualTo(midpoint.access(processor, object, 12, kind, times[i]));
        }
    }

    @Test
    void shouldRejectALegOutsideTheTransfer() {
        MemoryModel model = new MemoryModel(SKYLAKE, transfer -> transfer + 1);
        assertThatThrownBy(() -> model.access(0, object, 12, READ_MODIFY_WRITE, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("handover leg 20001 ps outside [0, 20000] ps");
    }
}
