package io.spinlab.sim.engine;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.OperatingSystem;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Running ahead (the engine's notes) saves hand-offs and changes nothing else: with the memory
 * model and noise on, without faults and with every fault injected, each workload's run has the
 * same event-log digest, the same events, end time, memory counts and per-thread metrics whether
 * threads run ahead or not, and fewer hand-offs when they do.
 */
class RunAheadTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final MachineProfile HASWELL = MachinePresets.byName("haswell-i5-4670k");
    /** Two processors under Linux's rules: more threads than processors meet its periodic balancing (every 28 ms). */
    private static final MachineProfile LINUX_TWO = SKYLAKE.toBuilder().name("skylake-linux-2").physicalCores(2)
            .logicalProcessors(2).os(OperatingSystem.LINUX).build();

    private static final String SHAPE = "threads=6,warmup=50us,window=400us";

    @ParameterizedTest(name = "{0}({1}) {2} on {3}")
    @CsvSource(delimiter = ';', value = {
        "spinlock-throughput; ; current; skylake",
        "spinlock-latency; ; netcore2.0; haswell",
        "mres-wait-drain-rate; ; current; skylake",
        "mres-wait-latency; ; netcore2.0; skylake",
        "semaphore-throughput; ; current; haswell",
        "semaphore-wait-drain-rate; ; netcore2.0; skylake",
        "barrier-sync-rate; ; current; skylake",
        "queue-throughput; ; current; skylake",
        "stack-throughput; ; current; haswell",
        "countdown-addcount-signal-throughput; ; current; skylake",
        "monitor-throughput; ; current; skylake",
        "quwi; drivers=4,depth=2,mode=global,warmup=50us,window=400us; netcore2.0; skylake",
        "eventpipe-stress; threads=4,warmup=50us,window=400us; current; haswell",
        "spinlock-throughput; threads=3,warmup=1ms,window=60ms; current; linux-two",
        "mres-wait-latency; threads=2,warmup=1ms,window=60ms; netcore2.0; linux-two",
    })
    void shouldChangeNothingButHandOffsWhenThreadsRunAhead(String workload, String parameters, String tuning,
            String machine) {
        String shape = parameters == null ? SHAPE : parameters;
        for (Faults faults : new Faults[] {Faults.none(), Faults.chaos()}) {
            SimulationResult ahead = run(workload, shape, tuning, machine, faults, true);
            SimulationResult parked = run(workload, shape, tuning, machine, faults, false);

            assertThat(ahead.outcome()).as(ahead.report()).isEqualTo(Outcome.COMPLETED);
            assertThat(parked.outcome()).as(parked.report()).isEqualTo(Outcome.COMPLETED);
            assertThat(ahead.digest()).as("digest, faults %s", faults).isEqualTo(parked.digest());
            assertThat(ahead.steps()).isEqualTo(parked.steps());
            assertThat(ahead.endPicos()).isEqualTo(parked.endPicos());
            assertThat(ahead.memory()).isEqualTo(parked.memory());
            assertThat(ahead.metrics()).hasToString(parked.metrics().toString());
            assertThat(ahead.handOffs()).as("hand-offs, faults %s", faults).isLessThan(parked.handOffs());
        }
    }

    private static SimulationResult run(String workload, String parameters, String tuning, String machine,
            Faults faults, boolean runAhead) {
        MachineProfile profile = switch (machine) {
            case "haswell" -> HASWELL;
            case "linux-two" -> LINUX_TWO;
            default -> SKYLAKE;
        };
        Simulation.Builder builder = Simulation.builder(profile)
                .seed(11).memoryModel(true).noise(true).faults(faults).runAhead(runAhead);
        return WorkloadRunner.simulate(workload, parameters, Tuning.parse(tuning), builder).simulation();
    }
}
