package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool of the newest generation: {@code global-queue=concurrent-queue}, per-item thread requests. */
class CurrentThreadPoolTest extends ThreadPoolContractTest {

    @Override
    Tuning tuning() {
        return Tuning.current();
    }

    @Test
    void shouldTakeTheRequestModeFromItsOwnKnobAndNotFromTheGlobalQueue() {
        ThreadPool pool = track(builder().build());

        assertThat(pool.requestPolicy()).isEqualTo(ThreadRequestPolicy.PER_ITEM);
        assertThat(pool.globalQueuePolicy()).hasToString("CONCURRENT_QUEUE");
        ThreadPool segmentQueue = track(ThreadPool.builder(SpinContext.hardware().withTuning(
                Tuning.parse("current,global-queue=queue-segment"))).build());
        assertThat(segmentQueue.requestPolicy()).isEqualTo(ThreadRequestPolicy.PER_ITEM);
        ThreadPool cascading = track(ThreadPool.builder(SpinContext.hardware().withTuning(
                Tuning.parse("current,thread-requests=cascading"))).build());
        assertThat(cascading.requestPolicy()).isEqualTo(ThreadRequestPolicy.CASCADING);
        assertThat(cascading.globalQueuePolicy()).hasToString("CONCURRENT_QUEUE");
    }
}
