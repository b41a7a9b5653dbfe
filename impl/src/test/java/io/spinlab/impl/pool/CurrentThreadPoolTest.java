package io.spinlab.impl.pool;

import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool with {@code global-queue=concurrent-queue} and cascading thread requests (current .NET). */
class CurrentThreadPoolTest extends ThreadPoolContractTest {

    @Override
    Tuning tuning() {
        return Tuning.current();
    }

    @Test
    void shouldCascadeThreadRequestsWhenGlobalQueueIsConcurrentQueue() {
        ThreadPool pool = track(builder().build());

        assertThat(pool.requestPolicy()).isEqualTo(ThreadPool.ThreadRequestPolicy.CASCADING);
        assertThat(pool.globalQueuePolicy()).hasToString("CONCURRENT_QUEUE");
    }
}
