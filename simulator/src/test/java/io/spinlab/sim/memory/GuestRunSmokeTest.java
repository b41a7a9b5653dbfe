package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.MresPingPong;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GuestRunSmokeTest {

    @Test
    void shouldRunPingPongWhenMemoryModelIsOn() {
        SimulatedRun run = WorkloadRunner.simulate(MresPingPong.class, List.of(50), Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(1).memoryModel(true));
        System.out.println(run.simulation().report());
        System.out.println(run.result());
        System.out.println(run.simulation().memory());
        assertThat(run.simulation().memoryModel()).isTrue();
    }
}
