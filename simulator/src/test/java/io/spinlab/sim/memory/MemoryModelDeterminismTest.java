package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.workload.CheckThenActClaim;
import io.spinlab.sim.workload.MresWaitDrainRate;
import io.spinlab.sim.workload.QueueMpmcThroughput;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Same inputs and seed, same event-log digest: with the memory model on, every access is in the digest too. */
class MemoryModelDeterminismTest {

    @Test
    void shouldRepeatTheDigestWhenQueueRunIsRepeatedWithMemoryModel() {
        SimulationResult first = queueRun(true);
        SimulationResult second = queueRun(true);
        SimulationResult third = queueRun(true);

        assertThat(first.completed()).isTrue();
        assertThat(second.digest()).isEqualTo(first.digest());
        assertThat(third.digest()).isEqualTo(first.digest());
        assertThat(second.endPicos()).isEqualTo(first.endPicos());
        assertThat(second.memory()).isEqualTo(first.memory());
        assertThat(first.digestEvents()).isGreaterThan(queueRun(false).digestEvents());
    }

    @Test
    void shouldRepeatTheDigestWhenPrimitivesRunWithMemoryModel() {
        SimulationResult first = drainRun();
        SimulationResult second = drainRun();

        assertThat(first.completed()).isTrue();
        assertThat(second.digest()).isEqualTo(first.digest());
    }

    @Test
    void shouldChangeTheDigestWhenSeedChanges() {
        SimulationResult one = claimRun(1);
        SimulationResult two = claimRun(2);

        assertThat(one.digest()).isNotEqualTo(two.digest());
        assertThat(claimRun(1).digest()).isEqualTo(one.digest());
    }

    private static SimulationResult queueRun(boolean memoryModel) {
        return WorkloadRunner.simulate(QueueMpmcThroughput.class, List.of(3, 3, 100),
                Tuning.current().with("global-queue", "concurrent-queue"),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(7).memoryModel(memoryModel))
                .simulation();
    }

    private static SimulationResult drainRun() {
        return WorkloadRunner.simulate(MresWaitDrainRate.NAME, "threads=8,warmup=100us,window=300us", Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(3).memoryModel(true)).simulation();
    }

    private static SimulationResult claimRun(long seed) {
        return WorkloadRunner.simulate(CheckThenActClaim.class, List.of(4, 64, true), Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(seed).memoryModel(true))
                .simulation();
    }
}
