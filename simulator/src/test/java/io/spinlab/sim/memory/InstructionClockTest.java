package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.workload.CountedLoop;
import io.spinlab.sim.workload.MresWaitDrainRate;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import io.spinlab.sim.workload.ZeroedAndCopiedArrays;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The instruction clock: guest code between two scheduling points costs its executed bytecode
 * instructions times the machine's {@code cyclesPerBytecode}, and assert bodies cost nothing.
 */
class InstructionClockTest {

    /** 1 GHz and one cycle per bytecode: exactly 1 ns per instruction. */
    private static final MachineProfile ONE_NS = MachineProfile.builder("one-ns-per-bytecode")
            .frequencyGhz(1.0).cyclesPerBytecode(1.0).build();

    private static long elapsedNanos(MachineProfile machine, int iterations) {
        return WorkloadRunner.simulate(CountedLoop.class, List.of(iterations), Tuning.current(),
                Simulation.builder(machine).seed(1).memoryModel(true)).result().elapsedNanos();
    }

    @Test
    void shouldChargeEachExecutedBytecodeWhenGuestCodeRunsBetweenTwoClockReads() {
        long thousand = elapsedNanos(ONE_NS, 1_000);
        long threeThousand = elapsedNanos(ONE_NS, 3_000);

        assertThat(threeThousand - thousand).isEqualTo(2_000L * CountedLoop.BYTECODES_PER_ITERATION);
    }

    @Test
    void shouldScaleWithCyclesPerBytecodeAndCostNothingAtZero() {
        MachineProfile slow = ONE_NS.toBuilder().cyclesPerBytecode(2.5).build();
        MachineProfile free = ONE_NS.toBuilder().cyclesPerBytecode(0).build();

        assertThat(elapsedNanos(slow, 2_000) - elapsedNanos(slow, 1_000))
                .isEqualTo(2_500L * CountedLoop.BYTECODES_PER_ITERATION);
        assertThat(elapsedNanos(free, 2_000)).isEqualTo(elapsedNanos(free, 1_000));
    }

    /**
     * New arrays cost the bytes they zero and System.arraycopy the bytes it copies, at the
     * machine's store width: at 1 GHz and 5 bytes per cycle, 33 bytes per element cost 6.6 ns.
     */
    @Test
    void shouldChargeTheBytesZeroedAndCopiedAtTheStoreWidth() {
        MachineProfile fiveBytes = ONE_NS.toBuilder().storeBytesPerCycle(5).build();
        MachineProfile wide = ONE_NS.toBuilder().storeBytesPerCycle(1_000).build();

        assertThat(arraysNanos(fiveBytes, 1_000) - arraysNanos(fiveBytes, 0))
                .isEqualTo(ZeroedAndCopiedArrays.BYTES_PER_ELEMENT * 1_000L / 5);
        assertThat(arraysNanos(fiveBytes, 2_000) - arraysNanos(fiveBytes, 1_000))
                .isEqualTo(ZeroedAndCopiedArrays.BYTES_PER_ELEMENT * 1_000L / 5);
        assertThat(arraysNanos(wide, 1_000) - arraysNanos(wide, 0)).isEqualTo(ZeroedAndCopiedArrays.BYTES_PER_ELEMENT);
    }

    private static long arraysNanos(MachineProfile machine, int length) {
        return WorkloadRunner.simulate(ZeroedAndCopiedArrays.class, List.of(length), Tuning.current(),
                Simulation.builder(machine).seed(1).memoryModel(true)).result().elapsedNanos();
    }

    @Test
    void shouldCostNothingWhenTheMemoryModelIsOff() {
        SimulatedRun run = WorkloadRunner.simulate(CountedLoop.class, List.of(1_000), Tuning.current(),
                Simulation.builder(ONE_NS).seed(1));

        assertThat(run.result().elapsedNanos()).isEqualTo((long) ONE_NS.clockReadNs());
    }

    @Test
    void shouldGiveTheSameRunWhenAssertionsAreEnabledOrDisabled() throws Exception {
        for (String workload : List.of("counted", MresWaitDrainRate.NAME)) {
            SimulationResult enabled = runWithAssertions(workload, true);
            SimulationResult disabled = runWithAssertions(workload, false);

            assertThat(enabled.completed()).as(workload).isTrue();
            assertThat(enabled.digest()).as(workload).isEqualTo(disabled.digest());
            assertThat(enabled.endPicos()).as(workload).isEqualTo(disabled.endPicos());
            assertThat(enabled.memory()).as(workload).isEqualTo(disabled.memory());
        }
    }

    /** A run in a loader of its own whose assertion status is {@code enabled}, checked to have taken effect. */
    private static SimulationResult runWithAssertions(String workload, boolean enabled) throws Exception {
        Simulation.Builder builder = Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(3)
                .memoryModel(true).guestTransform((name, bytes) -> bytes);
        GuestClassLoader loader = builder.guestLoader();
        loader.setDefaultAssertionStatus(enabled);
        String probe = workload.equals("counted") ? CountedLoop.class.getName()
                : "io.spinlab.impl.event.ManualResetEvent";
        assertThat(Class.forName(probe, false, loader).desiredAssertionStatus()).isEqualTo(enabled);
        if (workload.equals("counted")) {
            return WorkloadRunner.simulate(CountedLoop.class, List.of(500), Tuning.current(), builder).simulation();
        }
        return WorkloadRunner.simulate(MresWaitDrainRate.NAME, "threads=8,warmup=100us,window=300us",
                Tuning.current(), builder).simulation();
    }

    @Test
    void shouldLeaveAnAssertBodyUninstrumentedWhenItReadsAVolatileField() throws Exception {
        byte[] classFile = ClassFiles.read(getClass().getClassLoader(), CountedLoop.class.getName().replace('.', '/'));
        AccessInstrumenter.Result result = AccessInstrumenter.instrument(classFile,
                FieldLayouts.of(getClass().getClassLoader()));

        // CountedLoop touches its volatile field twice: the initializer's write (hooked) and the
        // read in the assert after the loop (left alone).
        assertThat(result.fieldAccesses()).isEqualTo(1);
    }
}
