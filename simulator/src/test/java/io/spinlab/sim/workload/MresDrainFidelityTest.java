package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * First fidelity smoke test (published result 1, dotnet/coreclr #13556): on a Skylake-class
 * Core i7-6700 (140-cycle PAUSE, 8 logical processors) at 1 × processors waiters,
 * MresWaitDrainRate with the processor-scaled spin and raw PAUSE counts scores lower than with
 * the current tuning. Published: 56 vs 330 waiter wake-ups per ms. Only the direction is
 * asserted; the magnitudes are printed for the results table.
 */
class MresDrainFidelityTest {

    @Test
    void shouldScoreLowerWithProcessorScaledSpinWhenSkylakeRunsOneWaiterPerProcessor() {
        MachineProfile skylake = MachinePresets.byName("skylake-i7-6700");
        MresWaitDrainRate drain = new MresWaitDrainRate(ThreadCount.ofMultiple(1), 0, new Window(20_000, 200_000));
        Tuning procScaled = Tuning.parse("current,spin=proc-scaled,pause=raw");

        SimulatedRun scaled = WorkloadRunner.simulate(drain, procScaled, skylake, 1);
        SimulatedRun current = WorkloadRunner.simulate(drain, Tuning.current(), skylake, 1);

        System.out.println(scaled.result());
        System.out.println(scaled.simulation().metrics().table());
        System.out.println(current.result());
        System.out.println(current.simulation().metrics().table());
        assertThat(scaled.opsPerMs()).as("proc-scaled, raw PAUSE").isLessThan(current.opsPerMs());
    }
}
