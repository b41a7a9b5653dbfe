package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.DelegatingPlatform;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A contended SpinLock acquisition reports its waiting through {@code Platform.beginSpinWait} /
 * {@code endSpinWait} with the blocker it was given, once per contended acquisition, on the
 * waiting thread; an uncontended one reports nothing. (What the simulator builds its spin-waiter
 * counts from.)
 */
class SpinLockWaitAttributionTest {

    /** One attribution call. */
    record Call(String kind, Object blocker, String thread) {
    }

    /** Records the attribution calls, forwarding everything to the hardware. */
    static final class AttributionRecorder extends DelegatingPlatform {
        final List<Call> calls = new CopyOnWriteArrayList<>();

        @Override
        public void beginSpinWait(Object blocker) {
            calls.add(new Call("begin", blocker, Thread.currentThread().getName()));
        }

        @Override
        public void endSpinWait(Object blocker) {
            calls.add(new Call("end", blocker, Thread.currentThread().getName()));
        }
    }

    @ParameterizedTest(name = "{0}, tracking={1}")
    @CsvSource({"spinwait, false", "spinning-factor, false", "spinwait, true"})
    void shouldReportOneSpinWaitOnItsBlockerWhenAcquisitionIsContended(String slowPath, boolean tracking)
            throws InterruptedException {
        AttributionRecorder platform = new AttributionRecorder();
        SpinContext context = SpinContext.of(platform, Tuning.parse("current,spinlock=" + slowPath));
        String owner = "the-owner";
        SpinLock lock = new SpinLock(context, tracking, owner);

        lock.enter();
        lock.exit();
        assertThat(platform.calls).as("uncontended").isEmpty();

        lock.enter();
        Thread waiter = Thread.ofPlatform().name("waiter").start(() -> {
            lock.enter();
            lock.exit();
        });
        while (platform.calls.isEmpty()) {
            Thread.onSpinWait();
        }
        lock.exit();
        waiter.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(waiter.isAlive()).isFalse();
        assertThat(platform.calls).containsExactly(new Call("begin", owner, "waiter"),
                new Call("end", owner, "waiter"));
    }

    @ParameterizedTest(name = "tracking={0}")
    @CsvSource({"false", "true"})
    void shouldEndTheSpinWaitWhenATimedAcquisitionTimesOut(boolean tracking) throws InterruptedException {
        AttributionRecorder platform = new AttributionRecorder();
        SpinLock lock = new SpinLock(SpinContext.of(platform, Tuning.current()), tracking, null);
        lock.enter();
        boolean[] acquired = {true};
        Thread waiter = Thread.ofPlatform().name("waiter").start(() -> {
            try {
                acquired[0] = lock.tryEnter(1, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        lock.exit();

        assertThat(acquired[0]).isFalse();
        // Null blocker: the lock itself is what is waited for.
        assertThat(platform.calls).containsExactly(new Call("begin", lock, "waiter"), new Call("end", lock, "waiter"));
    }
}
