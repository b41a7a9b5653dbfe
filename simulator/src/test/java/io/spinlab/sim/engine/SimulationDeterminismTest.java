package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.workload.MresWaitDrainRate;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.ThreadCount;
import io.spinlab.sim.workload.Window;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** (machine, workload, tuning, seed, faults) determine the run, down to the event-log digest. */
class SimulationDeterminismTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final MresWaitDrainRate DRAIN = new MresWaitDrainRate(ThreadCount.ofAbsolute(12), 0,
            new Window(20_000, 100_000));

    /** A drain run that completed and counted wake-ups: a digest of a run that hung or failed proves nothing. */
    private static SimulatedRun drain(long seed, Faults faults) {
        SimulatedRun run = WorkloadRunner.simulate(DRAIN, Tuning.current(),
                Simulation.builder(SKYLAKE).seed(seed).faults(faults));
        assertThat(run.simulation().outcome()).as(run.simulation().report()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result().operations()).as("wake-ups in the window, seed %d", seed).isPositive();
        return run;
    }

    @Test
    void shouldProduceSameDigestWhenSameRunRepeatsThreeTimes() {
        List<String> digests = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SimulatedRun run = drain(42, Faults.chaos());
            digests.add(run.simulation().digest());
            scores.add(run.opsPerMs());
        }

        assertThat(digests).hasSize(3).containsOnly(digests.get(0));
        assertThat(scores).containsOnly(scores.get(0));
    }

    @Test
    void shouldProduceSameDigestWhenRepeatedWithoutFaults() {
        String first = drain(42, Faults.none()).simulation().digest();
        String second = drain(42, Faults.none()).simulation().digest();

        assertThat(second).isEqualTo(first);
    }

    @Test
    void shouldProduceDifferentDigestWhenSeedDiffersWithFaultsOn() {
        String one = drain(1, Faults.chaos()).simulation().digest();
        String two = drain(2, Faults.chaos()).simulation().digest();

        assertThat(two).isNotEqualTo(one);
    }

    @Test
    void shouldProduceDifferentDigestWhenFaultsTurnOn() {
        String quiet = drain(1, Faults.none()).simulation().digest();
        String noisy = drain(1, Faults.none().withSpuriousWakeups(0.5, 10_000)).simulation().digest();

        assertThat(noisy).isNotEqualTo(quiet);
    }

    /**
     * A golden digest over an engine-only scenario (no primitives, so changes in impl do not
     * move it): the same on every host and JDK build. If the engine's semantics or the digest
     * encoding change on purpose, update the constant and say so in the commit.
     */
    @Test
    void shouldMatchGoldenDigestWhenEngineScenarioRuns() {
        Simulation sim = Simulation.builder(SKYLAKE).seed(2024).faults(Faults.chaos()).build();
        SimulatedPlatform platform = sim.platform();
        Object gate = new Object();
        Thread[] parked = new Thread[6];
        for (int i = 0; i < parked.length; i++) {
            int me = i;
            parked[i] = sim.startThread("worker-" + i, () -> {
                for (int round = 0; round < 20; round++) {
                    platform.pause(1 + platform.nextRandom(50));
                    platform.nanoTime();
                    if (me % 3 == 0) {
                        platform.yieldThread();
                    } else if (me % 3 == 1) {
                        platform.sleep(me * 1_000L);
                    }
                    platform.parkNanos(gate, 20_000);
                }
            });
        }
        sim.startThread("waker", () -> {
            for (int round = 0; round < 60; round++) {
                platform.pause(200);
                platform.unpark(parked[platform.nextRandom(parked.length)]);
            }
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(result.digest()).isEqualTo(GOLDEN);
    }

    private static final String GOLDEN = "9e3041b0bd045371f72b27004770385bc97afd38214ab56ea82027048d3076f2";
}
