package io.spinlab.properties.sim;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Draws;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.hunt.HuntCase;
import io.spinlab.properties.hunt.HuntWorkloads;
import io.spinlab.properties.junit.PropertyTest;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.workload.WorkloadRunner;
import io.spinlab.sim.workload.WorkloadSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Determinism: any generated (machine, workload, tuning, seed, faults) replays to the same digest. */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class DeterminismProperties {

    /** A simulated world and what runs in it. */
    record World(HuntCase huntCase, Tuning tuning, Faults faults) {
    }

    static final Gen<Tuning> TUNINGS = Gens.choose(Tuning.current(), Tuning.legacy(),
            Tuning.parse("current,spin=proc-scaled,pause=raw"), Tuning.parse("current,monitor=convoy"));

    static Gen<World> worlds() {
        Gen<MachineProfile> machine = SimGens.machines();
        Gen<WorkloadSource> workload = Gens.choose(HuntWorkloads.named(HuntWorkloads.names()));
        Gen<HuntCase> huntCase = source -> new HuntCase(workload.generate(source),
                machine.generate(source), Gens.choose(0.5, 1.0, 2.0).generate(source), 100,
                SimGens.seeds().generate(source));
        return Gens.zip(huntCase, TUNINGS, SimGens.faults(), World::new);
    }

    static SimulationResult simulate(World world) {
        HuntCase c = world.huntCase();
        return WorkloadRunner.simulate(HuntWorkloads.create(c), world.tuning(),
                Simulation.builder(c.machine()).seed(c.seed()).faults(world.faults())).simulation();
    }

    @PropertyTest(name = "determinism")
    void anyWorldShouldReplayToTheSameDigest(Draws draws) {
        World world = draws.draw("world", worlds());
        SimulationResult first = simulate(world);
        SimulationResult second = simulate(world);
        assertThat(second.digest()).as("digest of %s", world).isEqualTo(first.digest());
        assertThat(second.endPicos()).isEqualTo(first.endPicos());
        assertThat(second.outcome()).isEqualTo(first.outcome());
    }

    @Test
    void theCheckShouldFailWhenTheWorldChanges() {
        // The property can fail: two different seeds under faults give different digests.
        World world = new World(new HuntCase(WorkloadSource.named("mres-wait-drain-rate"), SimGens.vary(
                io.spinlab.model.machine.MachinePresets.byName("skylake-i7-6700"), 140, 4), 1.0, 100, 1),
                Tuning.current(), Faults.chaos());
        World other = new World(new HuntCase(world.huntCase().workload(), world.huntCase().machine(), 1.0, 100, 2),
                Tuning.current(), Faults.chaos());
        assertThat(simulate(world).digest()).isNotEqualTo(simulate(other).digest());
        assertThat(List.of(simulate(world).digest())).containsExactly(simulate(world).digest());
    }

    static int triesFromBuild() {
        return Integer.getInteger(Property.TRIES_PROPERTY, Property.DEFAULT_TRIES);
    }
}
