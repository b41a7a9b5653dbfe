package io.spinlab.impl.buffer;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.tuning.ReservationPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class UnderLockReservationTest extends BufferReservationContractTest {

    @Override
    BufferReservation create(long limitBytes) {
        return new UnderLockReservation(limitBytes, lock);
    }

    @Test
    void shouldTakeTheManagerLockForEveryFailedReservationWhenTheLimitIsReached() {
        BufferReservation reservation = BufferReservation.of(ReservationPolicy.UNDER_LOCK, LIMIT, lock,
                HardwarePlatform.INSTANCE);
        reservation.tryReserve(1_000);

        for (int i = 0; i < 100; i++) {
            assertThat(reservation.tryReserve(1)).isFalse();
        }

        assertThat(lock.acquisitions()).isEqualTo(101);
        assertThat(lock.dropPathAcquisitions()).isEqualTo(100);
        assertThat(lock.isHeld()).isFalse();
    }

    @Test
    void shouldRejectALimitBelowOneByteWhenConstructed() {
        assertThatIllegalArgumentException().isThrownBy(() -> new UnderLockReservation(0, lock))
                .withMessage("limitBytes = 0 is out of range; allowed 1 or more");
        BufferReservation oneByte = new UnderLockReservation(1, lock);

        assertThat(oneByte.tryReserve(1)).isTrue();
        assertThat(oneByte).hasToString("under-lock[1/1 bytes]");
    }
}
