package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The batch benchmark of the dotnet/coreclr #9234 description ({@link PoolBatch}). */
class PoolBatchTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final Tuning QUEUE_SEGMENT = Tuning.parse("netcore2.0,global-queue=queue-segment");
    private static final Tuning CONCURRENT_QUEUE = Tuning.parse("netcore2.0");

    @Test
    void shouldWriteEveryParameterBackWhenCreatedFromText() {
        assertThat(Workloads.create(PoolBatch.NAME, "threads=1,items=50").parameters())
                .isEqualTo("threads=1,items=50,requests=tuning,spin=70,warmup=1ms,window=5ms");
        assertThat(Workloads.create(PoolBatch.NAME, "requests=per-item,spin=0").parameters())
                .isEqualTo("threads=1pc,items=1000,requests=per-item,spin=0,warmup=1ms,window=5ms");
    }

    @Test
    void shouldSayWhatIsValidWhenABatchIsEmptyOrTooLarge() {
        assertThatThrownBy(() -> Workloads.create(PoolBatch.NAME, "items=0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("items")
                .hasMessageContaining("1..1000000");
        assertThatThrownBy(() -> Workloads.create(PoolBatch.NAME, "items=1000001")).hasMessageContaining("items");
        assertThatThrownBy(() -> Workloads.create(PoolBatch.NAME, "requests=sometimes"))
                .hasMessageContaining("requests").hasMessageContaining("per-item");
    }

    @Test
    void shouldCountWholeBatchesWhenSimulated() {
        Workload batches = Workloads.create(PoolBatch.NAME, "threads=2,items=64,warmup=500us,window=1ms");

        SimulatedRun run = WorkloadRunner.simulate(batches, CONCURRENT_QUEUE, SKYLAKE, 1);

        assertThat(run.simulation().completed()).as(run.simulation().report()).isTrue();
        assertThat(run.result().operations()).isPositive().matches(n -> n % 64 == 0, "a multiple of the batch");
        assertThat(run.result().metrics()).containsEntry(WorkloadResult.OPERATIONS_PER_COUNT, 64.0)
                .containsEntry("threads", 2.0);
    }

    @Test
    void shouldPutEveryItemThroughTheGlobalQueueTheTuningSelects() {
        // Items queued from outside the pool all pass through the global queue, so the two queues
        // must run differently; the same queue twice runs the same.
        String batch = "threads=1,items=100,warmup=200us,window=500us";

        SimulatedRun segment = WorkloadRunner.simulate(PoolBatch.NAME, batch, QUEUE_SEGMENT, costed());
        SimulatedRun concurrent = WorkloadRunner.simulate(PoolBatch.NAME, batch, CONCURRENT_QUEUE, costed());

        assertThat(segment.simulation().digest()).isNotEqualTo(concurrent.simulation().digest());
        assertThat(WorkloadRunner.simulate(PoolBatch.NAME, batch, CONCURRENT_QUEUE, costed()).simulation().digest())
                .isEqualTo(concurrent.simulation().digest());
    }

    /** Skylake with the memory model: without it the two queues' code would cost nothing and run alike. */
    private static Simulation.Builder costed() {
        return Simulation.builder(SKYLAKE).seed(1).memoryModel(true);
    }
}
