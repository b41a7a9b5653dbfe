package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.CheckThenActClaim;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A planted race — check-then-act on a volatile field — is found by a bounded seed search once
 * every volatile access is a scheduling point, and its seed replays it; without the memory
 * model the check and the act run atomically and no seed shows it, and the correct
 * compare-and-set claim shows it under no seed either.
 */
class PlantedRaceSearchTest {

    private static final int SEEDS = 100;
    private static final int THREADS = 4;
    private static final int MAX_DELAY_PAUSES = 16;

    @Test
    void shouldReplayTheRaceFromItsSeedWhenTheBoundedSearchFindsIt() {
        OptionalLong found = firstViolatingSeed(false, true);

        assertThat(found).as("a seed below " + SEEDS + " with two winners").isPresent();
        long seed = found.getAsLong();
        SimulatedRun first = run(seed, false, true);
        SimulatedRun replay = run(seed, false, true);
        assertThat(first.result().operations()).isGreaterThan(1);
        assertThat(replay.result().operations()).isEqualTo(first.result().operations());
        assertThat(replay.simulation().digest()).isEqualTo(first.simulation().digest());
        System.out.println("race found at " + first.simulation().reproduction() + ": " + first.result());
    }

    @Test
    void shouldNotSeeTheRaceWhenMemoryModelIsOff() {
        assertThat(firstViolatingSeed(false, false)).isEmpty();
    }

    @Test
    void shouldNotFindAViolationWhenTheClaimIsACompareAndSet() {
        assertThat(firstViolatingSeed(true, true)).isEmpty();
    }

    private static OptionalLong firstViolatingSeed(boolean atomic, boolean memoryModel) {
        for (long seed = 0; seed < SEEDS; seed++) {
            SimulatedRun run = run(seed, atomic, memoryModel);
            long winners = run.result().operations();
            assertThat(winners).as("winners at seed %d", seed).isPositive();
            if (winners > 1) {
                return OptionalLong.of(seed);
            }
        }
        return OptionalLong.empty();
    }

    private static SimulatedRun run(long seed, boolean atomic, boolean memoryModel) {
        return WorkloadRunner.simulate(CheckThenActClaim.class, List.of(THREADS, MAX_DELAY_PAUSES, atomic),
                Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(seed).memoryModel(memoryModel));
    }
}
