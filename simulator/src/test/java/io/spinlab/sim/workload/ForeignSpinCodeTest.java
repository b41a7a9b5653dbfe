package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.memory.GuestClassLoader;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.ThreadMetrics;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Third-party spin code runs in the simulator: Agrona's {@link BackoffIdleStrategy} knows only
 * {@code Thread.onSpinWait}, {@code Thread.yield} and {@code LockSupport.parkNanos}; loaded as
 * a guest ({@code guestPackages("org.agrona.")}) those become the simulated platform's PAUSE,
 * yield and timed park, deterministically.
 */
class ForeignSpinCodeTest {

    private static final int ITEMS = 20;
    private static final long GAP_NANOS = 50_000;

    @Test
    void shouldSpinYieldAndParkInVirtualTimeWhenAgronaIsAGuest() {
        SimulatedRun run = run();

        assertThat(run.result().operations()).isEqualTo(ITEMS);
        ThreadMetrics consumer = run.simulation().metrics().thread("consumer");
        assertThat(consumer.picos(Activity.SPINNING)).isPositive();
        assertThat(consumer.picos(Activity.YIELDING)).isPositive();
        assertThat(consumer.picos(Activity.PARKED)).isPositive();
        assertThat(consumer.wakeUps()).isGreaterThan(ITEMS);
        assertThat(run.result().elapsedNanos()).isGreaterThanOrEqualTo(ITEMS * GAP_NANOS);
    }

    @Test
    void shouldLoadAgronaInstrumentedWhenItIsAGuestPackage() throws ClassNotFoundException {
        GuestClassLoader loader = builder().guestLoader();

        Class<?> guest = loader.loadClass(BackoffIdleStrategy.class.getName());
        assertThat(guest).isNotSameAs(BackoffIdleStrategy.class);
        assertThat(guest.getClassLoader()).isSameAs(loader);
    }

    @Test
    void shouldRepeatTheDigestWhenAgronaRunIsRepeated() {
        assertThat(run().simulation().digest()).isEqualTo(run().simulation().digest());
    }

    private static SimulatedRun run() {
        return WorkloadRunner.simulate(BackoffIdleHandoff.class, List.of(ITEMS, GAP_NANOS), Tuning.current(),
                builder());
    }

    private static Simulation.Builder builder() {
        return Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(1).memoryModel(true)
                .guestPackages("org.agrona.");
    }
}
