package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One workload, two platforms: the same code and result type on real threads and in the simulator. */
class WorkloadTest {

    @Test
    void shouldRunPingPongOnHardwareWhenGivenRealThreads() throws InterruptedException {
        WorkloadResult result = WorkloadRunner.onHardware(new MresPingPong(200), Tuning.current());

        assertThat(result.workload()).isEqualTo("mres-ping-pong");
        assertThat(result.platform()).isEqualTo("hardware");
        assertThat(result.operations()).isEqualTo(200);
        assertThat(result.elapsedNanos()).isPositive();
        assertThat(result.opsPerMs()).isPositive();
    }

    @Test
    void shouldRunPingPongInSimulatorWhenGivenVirtualThreads() {
        SimulatedRun run = WorkloadRunner.simulate(new MresPingPong(200), Tuning.current(),
                MachinePresets.byName("skylake-i7-6700"), 1);

        WorkloadResult result = run.result();
        assertThat(result.workload()).isEqualTo("mres-ping-pong");
        assertThat(result.platform()).isEqualTo("simulated(skylake-i7-6700, seed 1)");
        assertThat(result.operations()).isEqualTo(200);
        assertThat(result.elapsedNanos()).isPositive();
        assertThat(run.simulation().metrics().threads()).extracting(t -> t.name()).containsExactly("main", "pong");
        assertThat(run.simulation().reproduction())
                .isEqualTo("machine=skylake-i7-6700 workload=mres-ping-pong(rounds=200) tuning=net6 seed=1 "
                        + "faults=none");
    }

    @Test
    void shouldRunDrainWorkloadOnHardwareWhenGivenRealThreads() throws InterruptedException {
        // A 100 ms window: on a loaded 2-core machine a round (a set, three wake-ups, a release)
        // takes a few time slices at worst, so rounds complete inside it.
        MresWaitDrainRate drain = new MresWaitDrainRate(ThreadCount.ofAbsolute(3), 0,
                new Window(2_000_000, 100_000_000));

        WorkloadResult result = WorkloadRunner.onHardware(drain, Tuning.current());

        assertThat(result.elapsedNanos()).isEqualTo(100_000_000);
        assertThat(result.metric("threads")).isEqualTo(3);
        double rounds = result.metric("rounds");
        assertThat(rounds).as("rounds completed: %s", result).isPositive();
        assertThat(result.metric("fewestWaiterRounds")).as("every waiter passed every round: %s", result)
                .isEqualTo(rounds);
        assertThat(result.metric("mostWaiterRounds")).as("no waiter passed a round twice: %s", result)
                .isEqualTo(rounds);
        assertThat(result.operations()).as("wake-ups inside the window: %s", result).isPositive()
                .isLessThanOrEqualTo((long) rounds * 3);
    }

    @Test
    void shouldScoreWaiterWakeUpsWhenDrainRunsInSimulator() {
        MresWaitDrainRate drain = new MresWaitDrainRate(ThreadCount.ofMultiple(1), 0, new Window(10_000, 100_000));

        SimulatedRun run = WorkloadRunner.simulate(drain, Tuning.current(), MachinePresets.byName("skylake-i7-6700"),
                3);

        assertThat(run.result().metric("threads")).isEqualTo(8);
        assertThat(run.result().operations()).isPositive();
        assertThat(run.result().elapsedNanos()).isGreaterThanOrEqualTo(100_000);
        assertThat(run.opsPerMs()).isPositive();
        System.out.println(run.result());
        System.out.println(run.simulation().metrics().table());
    }
}
