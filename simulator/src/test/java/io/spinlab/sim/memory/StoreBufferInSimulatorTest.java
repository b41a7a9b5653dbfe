package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.BufferedStoreVisibility;
import io.spinlab.sim.workload.StoreAfterRemoteRead;
import io.spinlab.sim.workload.UnparkAfterBufferedStore;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store buffer in a whole simulation: a thread stores to a line another core holds and times
 * the store between two clock reads. Two cores at 1 GHz, no instruction time, a 20 ns clock read,
 * a 20 ns line transfer, a 10 ns atomic; a hit costs the engine's floor for a scheduling point, one
 * cycle (1 ns).
 */
class StoreBufferInSimulatorTest {

    private static final MachineProfile TWO_CORES = MachineProfile.builder("two-cores").frequencyGhz(1.0)
            .cyclesPerBytecode(0).physicalCores(2).logicalProcessors(2).clockReadNs(20).cacheLineTransferNs(20)
            .atomicOpNs(10).build();

    private static long elapsedNanos(int mode) {
        return WorkloadRunner.simulate(StoreAfterRemoteRead.class, List.of(mode), Tuning.current(),
                Simulation.builder(TWO_CORES).seed(1).memoryModel(true)).result().elapsedNanos();
    }

    @Test
    void shouldShowABufferedStoreToOtherCoresOnlyWhenItCommits() {
        // the same two cores with a 1 µs line transfer: the store at 10 µs commits at about 11 µs
        MachineProfile slowLines = MachineProfile.builder("two-cores-slow-lines").frequencyGhz(1.0)
                .cyclesPerBytecode(0).physicalCores(2).logicalProcessors(2).clockReadNs(20)
                .cacheLineTransferNs(1_000).atomicOpNs(10).build();
        var result = WorkloadRunner.simulate(BufferedStoreVisibility.class, List.of(), Tuning.current(),
                Simulation.builder(slowLines).seed(1).memoryModel(true)).result();

        // at 10.2 µs the writer has gone on, but its store waits for the line: the reader's copy still reads 0
        assertThat(result.operations()).isZero();
        // at 12 µs the store has committed: the reader's miss brings 7
        assertThat(result.elapsedNanos()).isEqualTo(7);
    }

    @Test
    void shouldShowABufferedStoreToTheThreadAnUnparkAfterItWakes() {
        MachineProfile slowLines = MachineProfile.builder("two-cores-slow-lines").frequencyGhz(1.0)
                .cyclesPerBytecode(0).physicalCores(2).logicalProcessors(2).clockReadNs(20)
                .cacheLineTransferNs(1_000).atomicOpNs(10).build();
        var result = WorkloadRunner.simulate(UnparkAfterBufferedStore.class, List.of(), Tuning.current(),
                Simulation.builder(slowLines).seed(1).memoryModel(true)).result();

        // the unpark drains the waker's buffer before its permit counts: the waiter reads 7
        assertThat(result.operations()).isEqualTo(7);
        // the store made at 10 µs commits after the 1 µs transfer (11 µs); the
        // waiter, parked at 10.2 µs, gets the permit then, pays the park's atomic (10 ns) and reads
        // the clock (20 ns)
        assertThat(result.elapsedNanos()).isEqualTo(10_000 + 1_000 + 10 + 20);
    }

    @Test
    void shouldGoOnAfterAHitWhenAReleaseStoreMissesItsLine() {
        assertThat(elapsedNanos(0)).isEqualTo(20 + 1);
    }

    @Test
    void shouldWaitForTheLineWhenAVolatileStoreMissesIt() {
        assertThat(elapsedNanos(1)).isEqualTo(20 + 20 + 10);
    }

    @Test
    void shouldWaitForTheBufferedStoreWhenACompareAndSetFollowsIt() {
        // hit (1 ns), then the CAS waits the 19 ns the release store still needs, then takes its own line
        assertThat(elapsedNanos(2)).isEqualTo(20 + 1 + 19 + 20 + 10);
    }

    @Test
    void shouldWaitForTheBufferedStoreWhenAFullFenceFollowsIt() {
        // hit (1 ns), then the fence waits the 19 ns the release store still needs, then an atomic's cost
        assertThat(elapsedNanos(3)).isEqualTo(20 + 1 + 19 + 10);
    }
}
