package io.spinlab.impl.buffer;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.tuning.ReservationPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LocklessReservationTest extends BufferReservationContractTest {

    @Override
    BufferReservation create(long limitBytes) {
        return new LocklessReservation(limitBytes, HardwarePlatform.INSTANCE);
    }

    @Test
    void shouldNotTouchTheManagerLockWhenAReservationFails() {
        BufferReservation reservation = BufferReservation.of(ReservationPolicy.LOCKLESS, LIMIT, lock,
                HardwarePlatform.INSTANCE);
        reservation.tryReserve(1_000);

        for (int i = 0; i < 100; i++) {
            assertThat(reservation.tryReserve(1)).isFalse();
        }

        assertThat(lock.acquisitions()).isZero();
        assertThat(lock.dropPathAcquisitions()).isZero();
    }

    @Test
    void shouldRejectALimitBelowOneByteWhenConstructed() {
        assertThatIllegalArgumentException().isThrownBy(() -> new LocklessReservation(0, HardwarePlatform.INSTANCE))
                .withMessage("limitBytes = 0 is out of range; allowed 1 or more");
        BufferReservation oneByte = new LocklessReservation(1, HardwarePlatform.INSTANCE);

        assertThat(oneByte.tryReserve(1)).isTrue();
        assertThat(oneByte).hasToString("lockless[1/1 bytes]");
    }
}
