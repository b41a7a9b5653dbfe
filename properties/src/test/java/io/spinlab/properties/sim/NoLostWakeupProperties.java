package io.spinlab.properties.sim;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.properties.engine.Draws;
import io.spinlab.properties.junit.PropertyTest;
import io.spinlab.sim.engine.SimulationResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No lost wake-up: every blocking primitive the workloads use (ManualResetEvent over
 * MonitorLock, under every tuning) completes its protocol under generated fault schedules —
 * spurious wake-ups, preemption, delayed wake-ups, clock jitter — on generated machines. A lost
 * wake-up shows as a deadlock report (every thread parked, no timer pending), which the engine
 * shrinks to the simplest world and fault schedule that still shows it.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class NoLostWakeupProperties {

    @PropertyTest(name = "no lost wake-up under faults")
    void everyRunShouldCompleteUnderGeneratedFaults(Draws draws) {
        DeterminismProperties.World world = draws.draw("world", DeterminismProperties.worlds());
        SimulationResult result = DeterminismProperties.simulate(world);
        assertThat(result.completed()).as("%s%n%s", world, result.report()).isTrue();
    }
}
