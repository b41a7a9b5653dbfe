package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Published result 4 (dotnet/coreclr #9234): ConcurrentQueue as the thread pool's global queue
 * beat the old QueueSegment queue, about 2× on a 32-logical-processor machine (QUWI through the
 * whole pool; `reproduce`'s {@code threadpool-global-queue} rows judge that claim, their verdicts
 * are golden in {@code PublishedDirectionsTest}). This is the queues alone: 16 producers and 16
 * consumers on {@code xeon-2s-32t}, both in {@code netcore2.0}, each producer moving 1,600 items.
 *
 * <p>With the memory model off the two queues cost the same (nothing), which is why the model is
 * needed. With it on, the direction followed the model's coherence rules, not the queues alone:
 * while a core lost a contended line the instant its own access completed, every CAS on the old
 * queue's one packed index word failed about 24 times before it won (623,757 CASes for 25,600
 * items, 877 items/ms against ConcurrentQueue's 7,060), and the test asserted the published
 * direction. Since each holder keeps a line for half a transfer after its access (queued requests,
 * {@code MemoryModel}; checked against this host's own CAS loop in {@code CasLoopOwnershipTest}),
 * the packed word passes from core to core in bursts: 4.2 CASes per item and 9,550 items/ms,
 * against ConcurrentQueue's 5,235, whose 16 polling consumers read the tail line its producers CAS
 * (seed 1). That disagreement with the published direction is recorded in
 * {@code simulator/EXPERIMENTS.md}; what this test holds is that the memory model tells the two
 * structures apart, and that no queue pays a ping-pong of failed CASes per item.
 */
class QueueMpmcFidelityTest {

    private static final List<Object> SHAPE = List.of(16, 16, 1_600);

    @Test
    void shouldTellTheQueuesApartWithoutAPingPongOfFailedCasesWhenMemoryModelIsOn() {
        SimulatedRun segment = run("queue-segment", true);
        SimulatedRun concurrent = run("concurrent-queue", true);

        assertThat(Math.abs(Math.log(segment.opsPerMs() / concurrent.opsPerMs()))).isGreaterThan(Math.log(1.2));
        for (SimulatedRun run : List.of(segment, concurrent)) {
            double casesPerItem = (double) run.simulation().memory().orElseThrow().readModifyWrites()
                    / run.result().operations();
            assertThat(casesPerItem).as(run.result().toString()).isLessThan(8);
        }
    }

    @Test
    void shouldNotTellTheQueuesApartWhenMemoryModelIsOff() {
        assertThat(run("concurrent-queue", false).opsPerMs()).isEqualTo(run("queue-segment", false).opsPerMs());
    }

    private static SimulatedRun run(String queue, boolean memoryModel) {
        SimulatedRun run = WorkloadRunner.simulate(QueueMpmcThroughput.class, SHAPE,
                Tuning.parse("netcore2.0").with("global-queue", queue),
                Simulation.builder(MachinePresets.byName("xeon-2s-32t")).seed(1).memoryModel(memoryModel));
        System.out.println(run.result() + " " + run.simulation().memory());
        return run;
    }
}
