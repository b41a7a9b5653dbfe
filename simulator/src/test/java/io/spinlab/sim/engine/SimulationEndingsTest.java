package io.spinlab.sim.engine;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A run always ends with a verdict and a reproduction line: never a hang, never a silent failure. */
class SimulationEndingsTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");

    @Test
    void shouldReportEachThreadAndBlockerWhenEveryThreadIsParked() {
        Simulation sim = Simulation.builder(SKYLAKE).seed(5).context("workload=test").build();
        SimulatedPlatform platform = sim.platform();
        SpinContext context = SpinContext.of(platform, Tuning.current());
        ManualResetEvent never = new ManualResetEvent(context);
        Object gate = new Object();
        sim.startThread("event-waiter", () -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        sim.startThread("gate-waiter", () -> platform.park(gate));
        sim.startThread("finisher", () -> platform.pause(10));

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.DEADLOCK);
        assertThat(result.report())
                .startsWith("simulation deadlock at t=")
                .contains("every live thread is parked and no timer is pending")
                .contains("'event-waiter' parked on ManualResetEvent#0 (ManualResetEvent[unset, waiters=1")
                .contains("'gate-waiter' parked on Object#0")
                .contains("'finisher' done")
                .endsWith("reproduce: machine=skylake-i7-6700 workload=test seed=5 faults=none");
        assertThatThrownBy(result::requireCompleted)
                .isInstanceOf(SimulationFailedException.class)
                .hasMessage(result.report());
    }

    @Test
    void shouldFailRunWithSeedWhenSimulatedThreadThrows() {
        Simulation sim = Simulation.builder(SKYLAKE).seed(77).build();
        SimulatedPlatform platform = sim.platform();
        AtomicBoolean unwound = new AtomicBoolean();
        sim.startThread("bystander", () -> {
            try {
                platform.park(this);
            } finally {
                unwound.set(true);
            }
        });
        sim.startThread("thrower", () -> {
            platform.pause(100);
            throw new IllegalStateException("boom");
        });

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.THREAD_FAILED);
        assertThat(result.failure()).containsInstanceOf(IllegalStateException.class);
        assertThat(result.report())
                .contains("simulated thread 'thrower' threw java.lang.IllegalStateException: boom")
                .contains("'bystander' parked on")
                .contains("seed=77");
        assertThat(unwound).as("the parked bystander was unwound").isTrue();
        assertThatThrownBy(result::requireCompleted)
                .isInstanceOf(SimulationFailedException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldStopAtVirtualTimeBudgetWhenThreadSpinsForever() {
        Simulation sim = Simulation.builder(SKYLAKE)
                .budgets(Budgets.defaults().withMaxVirtualNanos(1_000_000))
                .build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("spinner", () -> {
            while (true) {
                platform.pause(10);
            }
        });

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.BUDGET_EXHAUSTED);
        assertThat(result.endPicos()).isEqualTo(1_000_000_000L);
        assertThat(result.report()).contains("virtual-time budget of 1 ms exhausted").contains("'spinner' running");
    }

    @Test
    void shouldStopAtStepBudgetWhenPauseCostsNoTime() {
        Simulation sim = Simulation.builder(SKYLAKE.withPauseCycles(0))
                .budgets(Budgets.defaults().withMaxSteps(10_000))
                .build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("spinner", () -> {
            while (true) {
                platform.pause(1);
            }
        });

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.BUDGET_EXHAUSTED);
        assertThat(result.steps()).isEqualTo(10_000);
        assertThat(result.report()).contains("step budget of 10000 scheduling events exhausted");
    }

    @Test
    void shouldStopAtWallClockBudgetWhenRunTakesTooLong() {
        Simulation sim = Simulation.builder(SKYLAKE)
                .budgets(Budgets.defaults().withMaxWallMillis(1))
                .build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("spinner", () -> {
            while (true) {
                platform.pause(1);
            }
        });

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.BUDGET_EXHAUSTED);
        assertThat(result.report()).contains("wall-clock budget of 1 ms exhausted");
    }

    @Test
    void shouldFailRunWhenThreadYieldsOutsideThePlatform() {
        Simulation sim = Simulation.builder(SKYLAKE).build();
        SimulatedPlatform platform = sim.platform();
        sim.startThread("rogue", () -> {
            platform.pause(1);
            Thread.yield();
            platform.pause(1);
        });

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.THREAD_FAILED);
        assertThat(result.report()).contains("'rogue' gave up its processor without a Platform call");
    }

    @Test
    void shouldWaitInRealTimeOnlyWhenAMonitorIsHeldByAThreadOutsideTheSimulation() throws Exception {
        String[] digests = new String[2];
        for (int contended = 0; contended < 2; contended++) {
            Object monitor = new Object();
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (monitor) {
                    held.countDown();
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            if (contended == 1) {
                holder.start();
                held.await();
            }
            Simulation sim = Simulation.builder(SKYLAKE).build();
            SimulatedPlatform platform = sim.platform();
            sim.startThread("loader", () -> {
                platform.pause(1);
                synchronized (monitor) {
                    platform.pause(1);
                }
                platform.pause(1);
            });
            SimulationResult result = sim.run();
            holder.join();

            assertThat(result.outcome()).as("contended = %d", contended).isEqualTo(Outcome.COMPLETED);
            digests[contended] = result.digest();
        }
        assertThat(digests[1]).isEqualTo(digests[0]);
    }

    @Test
    void shouldFailRunWhenThreadSleepsOutsideThePlatform() {
        Simulation sim = Simulation.builder(SKYLAKE).build();
        sim.startThread("sleeper", () -> {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.THREAD_FAILED);
        assertThat(result.report()).contains("'sleeper' gave up its processor without a Platform call");
    }

    @Test
    void shouldFailCallerWhenUnparkingAThreadOutsideTheSimulation() {
        Simulation sim = Simulation.builder(SKYLAKE).build();
        SimulatedPlatform platform = sim.platform();
        Thread outsider = Thread.currentThread();
        sim.startThread("unparker", () -> platform.unpark(outsider));

        SimulationResult result = sim.run();

        assertThat(result.outcome()).isEqualTo(Outcome.THREAD_FAILED);
        assertThat(result.failure()).get().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.THROWABLE)
                .hasMessageContaining("not a thread of this simulation");
    }

    @Test
    void shouldWakeParkedThreadWhenInterrupted() {
        Simulation sim = Simulation.builder(SKYLAKE).build();
        SimulatedPlatform platform = sim.platform();
        AtomicBoolean sawInterrupt = new AtomicBoolean();
        Thread parker = sim.startThread("parker", () -> {
            platform.park(this);
            sawInterrupt.set(Thread.currentThread().isInterrupted());
        });
        sim.startThread("interrupter", () -> {
            platform.pause(100);
            parker.interrupt();
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(sawInterrupt).isTrue();
        assertThat(result.metrics().thread("parker").wakeUps()).isEqualTo(1);
    }

    @Test
    void shouldRefuseToRunTwice() {
        Simulation sim = Simulation.builder(SKYLAKE).build();
        sim.startThread("t", () -> { });
        sim.run().requireCompleted();

        assertThatThrownBy(sim::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("runs once");
    }
}
