package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The QUWI test as the dotnet/coreclr #9234 table ran it ({@link QuwiSuite}). */
class QuwiSuiteTest {

    private static final MachineProfile SKYLAKE = MachinePresets.byName("skylake-i7-6700");
    private static final Tuning QUEUE_SEGMENT = Tuning.parse("netcore2.0,global-queue=queue-segment");
    private static final Tuning CONCURRENT_QUEUE = Tuning.parse("netcore2.0");

    @Test
    void shouldWriteEveryParameterBackWhenCreatedFromText() {
        assertThat(Workloads.create(QuwiSuite.NAME, "").parameters()).isEqualTo(
                "drivers=serial,depth=16,from=threads,calls=262144,requests=tuning,spin=70,warmup=1ms,window=5ms");
        assertThat(Workloads.create(QuwiSuite.NAME, "drivers=512,depth=512,from=pool,requests=per-item").parameters())
                .isEqualTo("drivers=512,depth=512,from=pool,calls=262144,requests=per-item,spin=70,warmup=1ms,"
                        + "window=5ms");
    }

    @Test
    void shouldSplitBatchAsTheSuiteDoes() {
        // The suite: count / dop calls per driver, count / dop / depth heads (integer division).
        assertThat(((QuwiSuite) Workloads.create(QuwiSuite.NAME, "drivers=512,depth=512")).headsPerDriver())
                .isEqualTo(1);
        assertThat(((QuwiSuite) Workloads.create(QuwiSuite.NAME, "drivers=64,depth=16")).headsPerDriver())
                .isEqualTo(256);
        assertThat(((QuwiSuite) Workloads.create(QuwiSuite.NAME, "drivers=3,depth=5,calls=100")).headsPerDriver())
                .isEqualTo(6);
    }

    @Test
    void shouldSayWhatIsValidWhenADriverWouldQueueNoChain() {
        assertThatThrownBy(() -> Workloads.create(QuwiSuite.NAME, "drivers=512,depth=513"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("depth = 513")
                .hasMessageContaining("calls / drivers = 262144 / 512 = 512");
        assertThatThrownBy(() -> Workloads.create(QuwiSuite.NAME, "from=both"))
                .hasMessageContaining("from").hasMessageContaining("pool");
        assertThatThrownBy(() -> Workloads.create(QuwiSuite.NAME, "calls=0")).hasMessageContaining("calls");
        assertThatThrownBy(() -> Workloads.create(QuwiSuite.NAME, "drivers=0")).hasMessageContaining("drivers");
    }

    @Test
    void shouldCountEachHeadWithItsChainWhenSimulated() {
        for (String from : new String[] {"threads", "pool"}) {
            Workload suite = Workloads.create(QuwiSuite.NAME,
                    "drivers=2,depth=4,calls=64,from=" + from + ",warmup=200us,window=500us");

            SimulatedRun run = WorkloadRunner.simulate(suite, CONCURRENT_QUEUE, SKYLAKE, 1);

            assertThat(run.simulation().completed()).as(run.simulation().report()).isTrue();
            assertThat(run.result().operations()).as(from).isPositive()
                    .matches(n -> n % 4 == 0, "a multiple of the depth");
            assertThat(run.result().metrics()).containsEntry(WorkloadResult.OPERATIONS_PER_COUNT, 4.0)
                    .containsEntry("drivers", 2.0).containsEntry("headsPerDriver", 8.0);
        }
    }

    @Test
    void shouldNotWaitForChainsAsQuwiDoes() {
        // One driver, one head of 256 links per batch: the suite counts 256 calls as soon as the
        // head is queued, where quwi's driver waits for all 256 links to run one after another.
        String window = ",warmup=200us,window=1ms";
        SimulatedRun suite = WorkloadRunner.simulate(Workloads.create(QuwiSuite.NAME,
                "drivers=1,depth=256,calls=256" + window), CONCURRENT_QUEUE, SKYLAKE, 1);
        SimulatedRun chains = WorkloadRunner.simulate(Workloads.create(Quwi.NAME,
                "drivers=1,depth=256" + window), CONCURRENT_QUEUE, SKYLAKE, 1);

        assertThat(chains.opsPerMs()).isPositive();
        assertThat(suite.opsPerMs()).isGreaterThan(10 * chains.opsPerMs());
    }

    @Test
    void shouldPutEveryCallThroughTheGlobalQueueTheTuningSelects() {
        for (String from : new String[] {"threads", "pool"}) {
            String suite = "drivers=2,depth=2,calls=64,from=" + from + ",warmup=100us,window=300us";

            SimulatedRun segment = WorkloadRunner.simulate(QuwiSuite.NAME, suite, QUEUE_SEGMENT, costed());
            SimulatedRun concurrent = WorkloadRunner.simulate(QuwiSuite.NAME, suite, CONCURRENT_QUEUE, costed());

            assertThat(segment.simulation().digest()).as(from).isNotEqualTo(concurrent.simulation().digest());
            assertThat(WorkloadRunner.simulate(QuwiSuite.NAME, suite, CONCURRENT_QUEUE, costed()).simulation()
                    .digest()).as(from).isEqualTo(concurrent.simulation().digest());
        }
    }

    @Test
    void shouldRunDriversWhereTheBlockSays() {
        // The (TP) block's drivers are pool work items, the other block's dedicated threads: the
        // runs differ, and only the second has driver threads of its own.
        String suite = "drivers=2,depth=2,calls=64,warmup=100us,window=300us,from=";
        SimulatedRun threads = WorkloadRunner.simulate(QuwiSuite.NAME, suite + "threads", CONCURRENT_QUEUE, costed());
        SimulatedRun pool = WorkloadRunner.simulate(QuwiSuite.NAME, suite + "pool", CONCURRENT_QUEUE, costed());

        assertThat(threads.simulation().metrics().table()).contains("driver-0").contains("driver-1");
        assertThat(pool.simulation().metrics().table()).doesNotContain("driver-0").contains("benchmark");
    }

    /** Skylake with the memory model: without it the two queues' code would cost nothing and run alike. */
    private static Simulation.Builder costed() {
        return Simulation.builder(SKYLAKE).seed(1).memoryModel(true);
    }
}
