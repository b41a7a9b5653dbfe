package io.spinlab.impl.buffer;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** What every reservation strategy promises; one subclass per strategy. */
abstract class BufferReservationContractTest {
    static final long LIMIT = 1_000;

    final ManagerLock lock = new ManagerLock(SpinContext.of(HardwarePlatform.INSTANCE, Tuning.current()));

    abstract BufferReservation create(long limitBytes);

    @Test
    void shouldReserveUpToTheLimitAndNoFurther() {
        BufferReservation reservation = create(LIMIT);

        assertThat(reservation.tryReserve(600)).isTrue();
        assertThat(reservation.tryReserve(400)).isTrue();
        assertThat(reservation.tryReserve(1)).isFalse();
        assertThat(reservation.bytesInUse()).isEqualTo(LIMIT);
    }

    @Test
    void shouldLeaveTheTotalUnchangedWhenAReservationFails() {
        BufferReservation reservation = create(LIMIT);
        reservation.tryReserve(700);

        assertThat(reservation.tryReserve(301)).isFalse();
        assertThat(reservation.bytesInUse()).isEqualTo(700);
    }

    @Test
    void shouldMakeRoomAgainWhenBytesAreReleased() {
        BufferReservation reservation = create(LIMIT);
        reservation.tryReserve(1_000);

        reservation.release(300);

        assertThat(reservation.bytesInUse()).isEqualTo(700);
        assertThat(reservation.tryReserve(300)).isTrue();
    }

    @Test
    void shouldRememberTheHighestTotalWhenReleased() {
        BufferReservation reservation = create(LIMIT);
        reservation.tryReserve(300);
        reservation.tryReserve(500);
        reservation.release(800);
        reservation.tryReserve(100);

        assertThat(reservation.highWaterBytes()).isEqualTo(800);
    }

    @Test
    void shouldNeverPassTheLimitWhenThreadsReserveAndReleaseConcurrently() throws InterruptedException {
        BufferReservation reservation = create(LIMIT);
        AtomicLong overLimit = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int size = 100 + 50 * t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 20_000; i++) {
                    if (reservation.tryReserve(size)) {
                        if (reservation.bytesInUse() > LIMIT) {
                            overLimit.incrementAndGet();
                        }
                        reservation.release(size);
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(overLimit).hasValue(0);
        assertThat(reservation.bytesInUse()).isZero();
        assertThat(reservation.highWaterBytes()).isBetween(100L, LIMIT);
    }
}
