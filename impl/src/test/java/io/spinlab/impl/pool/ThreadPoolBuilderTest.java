package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.impl.testing.RecordingPlatform;
import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * The builder's defaults and range checks. A pool starts no thread before its first item, so
 * every pool here is built on a {@link RecordingPlatform} (which refuses to start threads) and
 * only looked at.
 */
class ThreadPoolBuilderTest {

    static ThreadPool.Builder builder(int processors) {
        RecordingPlatform platform = new RecordingPlatform(processors, 1, 0);
        return ThreadPool.builder(SpinContext.of(platform, Tuning.current(), new FixedPauseNormalizer()));
    }

    /** The message of the worker-range check names the effective minimum and maximum. */
    static String workerRange(int min, int max) {
        return "workers: need 1 <= min (" + min + ") <= max (" + max + ") <= " + ThreadPool.MAX_WORKERS_LIMIT;
    }

    @Test
    void shouldDefaultTheGoalToTheProcessorCountWhenBuilt() {
        ThreadPool pool = builder(6).build();

        assertThat(pool.workerGoal()).isEqualTo(6);
        assertThat(pool.workerCount()).isZero();
        assertThat(pool.pendingCount()).isZero();
        assertThat(pool.threads()).isEmpty();
        assertThat(pool.name()).isEqualTo("spinlab-pool");
        assertThat(pool.requestPolicy()).isEqualTo(Tuning.current().threadRequests());
        assertThat(pool.globalQueuePolicy()).isEqualTo(Tuning.current().globalQueue());
        assertThat(pool).hasToString("ThreadPool[spinlab-pool, running, pending=0, workers=0, processing=0, goal=6]");
    }

    @Test
    void shouldDefaultTheMaximumTo256OrSixtyFourPerProcessorWhenBuilt() {
        // Two processors: max(128, 256) = 256.
        assertThat(builder(2).minWorkers(256).build().workerGoal()).isEqualTo(256);
        assertThatIllegalArgumentException().isThrownBy(() -> builder(2).minWorkers(257).build())
                .withMessage(workerRange(257, 256));
        // Eight processors: max(512, 256) = 512.
        assertThat(builder(8).minWorkers(512).build().workerGoal()).isEqualTo(512);
        assertThatIllegalArgumentException().isThrownBy(() -> builder(8).minWorkers(513).build())
                .withMessage(workerRange(513, 512));
    }

    @Test
    void shouldCapTheDefaultsAtTheWorkerLimitWhenTheMachineIsHuge() {
        // 600 × 64 = 38,400 is above the limit; 40,000 processors are above it as a minimum too.
        assertThatIllegalArgumentException().isThrownBy(() -> builder(600).minWorkers(0x7FFF + 1).build())
                .withMessage(workerRange(0x8000, 0x7FFF));
        assertThat(builder(40_000).build().workerGoal()).isEqualTo(ThreadPool.MAX_WORKERS_LIMIT);
    }

    @Test
    void shouldAcceptTheEdgesOfEveryRangeWhenBuilt() {
        ThreadPool one = builder(4).minWorkers(1).maxWorkers(1).idleTimeout(1, TimeUnit.NANOSECONDS)
                .gateInterval(1, TimeUnit.NANOSECONDS).semaphoreSpinCount(0).build();
        ThreadPool widest = builder(4).minWorkers(ThreadPool.MAX_WORKERS_LIMIT)
                .maxWorkers(ThreadPool.MAX_WORKERS_LIMIT).build();

        assertThat(one.workerGoal()).isEqualTo(1);
        assertThat(widest.workerGoal()).isEqualTo(ThreadPool.MAX_WORKERS_LIMIT);
    }

    @Test
    void shouldRejectWorkerCountsOutOfRangeWhenBuilt() {
        assertThatIllegalArgumentException().isThrownBy(() -> builder(4).minWorkers(0).build())
                .withMessage(workerRange(0, 256));
        assertThatIllegalArgumentException().isThrownBy(() -> builder(4).minWorkers(3).maxWorkers(2).build())
                .withMessage(workerRange(3, 2));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> builder(4).maxWorkers(ThreadPool.MAX_WORKERS_LIMIT + 1).build())
                .withMessage(workerRange(4, 0x8000));
    }

    @Test
    void shouldRejectTimesThatAreNotPositiveWhenBuilt() {
        assertThatIllegalArgumentException().isThrownBy(() -> builder(4).idleTimeout(0, TimeUnit.SECONDS).build())
                .withMessage("idle timeout (0 ns) and gate interval (500000000 ns) must be positive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> builder(4).gateInterval(-1, TimeUnit.MILLISECONDS).build())
                .withMessage("idle timeout (20000000000 ns) and gate interval (-1000000 ns) must be positive");
        assertThatIllegalArgumentException().isThrownBy(() -> builder(4).gateInterval(0, TimeUnit.SECONDS).build())
                .withMessage("idle timeout (20000000000 ns) and gate interval (0 ns) must be positive");
    }

    @Test
    void shouldRejectANegativeSpinCountWhenBuilt() {
        assertThatIllegalArgumentException().isThrownBy(() -> builder(4).semaphoreSpinCount(-1).build())
                .withMessage("semaphoreSpinCount = -1 is negative");
    }

    @Test
    void shouldKeepTheGivenNameAndRequestPolicyWhenBuilt() {
        for (ThreadRequestPolicy policy : ThreadRequestPolicy.values()) {
            ThreadPool pool = builder(4).name("named").requestPolicy(policy).build();

            assertThat(pool.name()).isEqualTo("named");
            assertThat(pool.requestPolicy()).isEqualTo(policy);
        }
    }

    @Test
    void shouldRejectNullSettingsWhenSet() {
        assertThatNullPointerException().isThrownBy(() -> ThreadPool.builder(null)).withMessage("context");
        assertThatNullPointerException().isThrownBy(() -> builder(4).name(null)).withMessage("name");
        assertThatNullPointerException().isThrownBy(() -> builder(4).errorHandler(null)).withMessage("errorHandler");
        assertThatNullPointerException().isThrownBy(() -> builder(4).requestPolicy(null))
                .withMessage("requestPolicy");
    }

    /** create(): a pool on this machine's hardware with the current tuning and the builder's defaults. */
    @Test
    void shouldCreateAPoolOnTheHardwareWithTheDefaults() {
        ThreadPool pool = ThreadPool.create();

        assertThat(pool.name()).isEqualTo("spinlab-pool");
        assertThat(pool.workerGoal()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(pool.requestPolicy()).isEqualTo(Tuning.current().threadRequests());
        assertThat(pool.threads()).isEmpty();
        pool.shutdown();
        assertThat(pool.isTerminated()).isTrue();
    }
}
