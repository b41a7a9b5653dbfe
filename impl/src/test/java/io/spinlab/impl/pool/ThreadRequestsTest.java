package io.spinlab.impl.pool;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The thread-request strategy is chosen once, from its own knob, whatever the global queue. */
class ThreadRequestsTest {

    @Test
    void shouldCreateOneImplementationPerKnobValue() {
        ThreadPool pool = ThreadPool.builder(SpinContext.hardware()).build();
        try {
            assertThat(ThreadRequests.create(ThreadRequestPolicy.PER_ITEM, pool))
                    .isInstanceOf(PerItemThreadRequests.class)
                    .extracting(ThreadRequests::policy).isEqualTo(ThreadRequestPolicy.PER_ITEM);
            assertThat(ThreadRequests.create(ThreadRequestPolicy.CASCADING, pool))
                    .isInstanceOf(CascadingThreadRequests.class)
                    .extracting(ThreadRequests::policy).isEqualTo(ThreadRequestPolicy.CASCADING);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void shouldTakeEachKnobIndependentlyOfTheOther() throws InterruptedException {
        for (GlobalQueuePolicy queue : GlobalQueuePolicy.values()) {
            for (ThreadRequestPolicy requests : ThreadRequestPolicy.values()) {
                Tuning tuning = Tuning.current().with(Knob.GLOBAL_QUEUE, queue).with(Knob.THREAD_REQUESTS, requests);
                ThreadPool pool = ThreadPool.builder(SpinContext.hardware().withTuning(tuning)).build();
                try {
                    assertThat(pool.globalQueuePolicy()).as(tuning.describe()).isEqualTo(queue);
                    assertThat(pool.globalQueue).as(tuning.describe()).isInstanceOf(
                            queue == GlobalQueuePolicy.QUEUE_SEGMENT ? QueueSegmentQueue.class : ConcurrentQueue.class);
                    assertThat(pool.requestPolicy()).as(tuning.describe()).isEqualTo(requests);
                    assertThat(pool.requests.policy()).as(tuning.describe()).isEqualTo(requests);
                } finally {
                    pool.shutdown();
                    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                }
            }
        }
    }

    @Test
    void shouldLetTheBuilderOverrideTheKnobButNotTheQueue() {
        Tuning tuning = Tuning.current().with(Knob.GLOBAL_QUEUE, GlobalQueuePolicy.QUEUE_SEGMENT);
        ThreadPool pool = ThreadPool.builder(SpinContext.hardware().withTuning(tuning))
                .requestPolicy(ThreadRequestPolicy.CASCADING).build();
        try {
            assertThat(pool.requestPolicy()).isEqualTo(ThreadRequestPolicy.CASCADING);
            assertThat(pool.globalQueuePolicy()).isEqualTo(GlobalQueuePolicy.QUEUE_SEGMENT);
        } finally {
            pool.shutdown();
        }
    }
}
